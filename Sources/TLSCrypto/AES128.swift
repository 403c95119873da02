/// AES-128 encryption (FIPS 197), bitsliced four blocks at a time (`AESBitslice`): what GCM's
/// counter mode and its hash key need (decryption is never used). The key schedule goes through
/// the same computed S-box, so no step indexes a table by the key either.
public struct AES128: Sendable {
    /// The key's length in bytes.
    public static let keyByteCount = 16
    /// The block's length in bytes.
    public static let blockByteCount = 16

    /// The 11 round keys, each sliced as four copies of itself: 8 words per round.
    private let roundKeys: [UInt64]

    /// The cipher under `key`; nil unless it is 16 bytes.
    /// - Complexity: O(1): the key expansion (FIPS 197 §5.2), 10 S-box evaluations.
    public init?(key: [UInt8]) {
        guard key.count == Self.keyByteCount else { return nil }
        var expanded = key
        var roundConstant: UInt8 = 1
        for i in 4..<44 {
            var word = Array(expanded[(4 * i - 4)..<(4 * i)])
            if i % 4 == 0 {
                word = Self.substitute([word[1], word[2], word[3], word[0]])
                word[0] ^= roundConstant
                // xtime of a public constant.
                roundConstant = (roundConstant << 1) ^ (roundConstant >= 0x80 ? 0x1b : 0)
            }
            for j in 0..<4 { expanded.append(expanded[4 * i - 16 + j] ^ word[j]) }
        }
        var roundKeys: [UInt64] = []
        roundKeys.reserveCapacity(88)
        for round in 0..<11 {
            var slices = Self.words(Array(repeating: Array(expanded[(16 * round)..<(16 * round + 16)]), count: 4).flatMap { $0 })
            AESBitslice.slice(&slices)
            for b in 0..<8 { roundKeys.append(slices[b]) }
        }
        self.roundKeys = roundKeys
    }

    /// The encryption of one 16-byte block (traps on another length).
    /// - Complexity: O(1).
    public func encrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == Self.blockByteCount, "an AES block is 16 bytes")
        var words = Self.words(block + [UInt8](repeating: 0, count: 48))
        encrypt(&words)
        return (0..<16).map { UInt8(truncatingIfNeeded: words[$0 >> 3] >> (8 * UInt64($0 & 7))) }
    }

    /// Encrypts the four blocks held as eight little-endian words (bytes 8i..<8i + 8 in word i).
    /// - Complexity: O(1): 10 rounds over the slices, no allocation.
    func encrypt(_ words: inout Slices) {
        AESBitslice.slice(&words)
        roundKeys.withUnsafeBufferPointer { keys in
            words = words ^ Self.roundKey(keys, 0)
            for round in 1...10 {
                AESBitslice.substitute(&words)
                AESBitslice.shiftRows(&words)
                if round < 10 { AESBitslice.mixColumns(&words) }
                words = words ^ Self.roundKey(keys, round)
            }
        }
        AESBitslice.unslice(&words)
    }

    /// Round key `round` of `keys`.
    @inline(__always)
    private static func roundKey(_ keys: UnsafeBufferPointer<UInt64>, _ round: Int) -> Slices {
        let at = 8 * round
        return Slices(keys[at], keys[at + 1], keys[at + 2], keys[at + 3], keys[at + 4], keys[at + 5], keys[at + 6], keys[at + 7])
    }

    /// SubWord for the key schedule: the four bytes through the bitsliced S-box.
    private static func substitute(_ bytes: [UInt8]) -> [UInt8] {
        var slices = words(bytes + [UInt8](repeating: 0, count: 60))
        AESBitslice.slice(&slices)
        AESBitslice.substitute(&slices)
        AESBitslice.unslice(&slices)
        return (0..<4).map { UInt8(truncatingIfNeeded: slices[0] >> (8 * UInt64($0))) }
    }

    /// 64 bytes as eight little-endian words.
    private static func words(_ bytes: [UInt8]) -> Slices {
        var words = Slices(repeating: 0)
        for index in 0..<64 { words[index >> 3] |= UInt64(bytes[index]) << (8 * UInt64(index & 7)) }
        return words
    }
}
