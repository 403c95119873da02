/// SHA-256 (FIPS 180-4), incremental: TLS 1.3 hashes its transcript as the handshake goes and
/// reads the hash at several points (after ServerHello, after each Finished), so a value of this
/// type is fed message by message and `finalize()` leaves it usable. A value type with no heap
/// storage: copying it copies the state (eight words and one partial block).
///
/// For TLSCrypto's HMAC, HKDF and the key schedule, which hash secrets: every step is the same
/// sequence of additions, rotations and logic whatever the data (no branch or table index
/// depends on it). `Base.SHA256` is the simulator's own, for public data; this module imports
/// nothing and keeps its own.
public struct SHA256: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 32
    /// The block's length in bytes (what HMAC pads a key to).
    public static let blockByteCount = 64

    /// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: InlineArray<64, UInt32> = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// H, the eight working words (§5.3.3's initial values at first).
    private var state: InlineArray<8, UInt32> = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    /// The bytes of a block not yet complete; the first `pending` count.
    private var block = InlineArray<64, UInt8>(repeating: 0)
    private var pending = 0
    /// Bytes hashed so far, the partial block included.
    private var length: UInt64 = 0

    /// A hash of nothing yet.
    /// - Complexity: O(1).
    public init() {}

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if pending > 0 {
            let taken = min(64 - pending, bytes.count)
            for index in 0..<taken { block[pending + index] = bytes[index] }
            pending += taken
            offset = taken
            guard pending == 64 else { return }
            withUnsafeBytes(of: block) { Self.compress(&state, $0.baseAddress!) }
            pending = 0
        }
        while bytes.count - offset >= 64 {
            Self.compress(&state, bytes.baseAddress! + offset)
            offset += 64
        }
        for index in offset..<bytes.count { block[index - offset] = bytes[index] }
        pending = bytes.count - offset
    }

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything hashed so far. Leaves this value as it was: hashing can
    /// go on, and a later `finalize()` covers the later bytes too (a transcript hash read
    /// mid-handshake).
    /// - Complexity: O(1): at most two compressions.
    public func finalize() -> [UInt8] {
        var copy = self
        // Padding (§5.1.1): a 1 bit, zeros to 56 mod 64 bytes, the length in bits big-endian.
        let bitLength = length &* 8
        var padding = InlineArray<72, UInt8>(repeating: 0)
        padding[0] = 0x80
        let zeros = (64 + 56 - 1 - pending) % 64
        for index in 0..<8 { padding[1 + zeros + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(index))) }
        withUnsafeBytes(of: padding) { copy.update(UnsafeRawBufferPointer(rebasing: $0[0..<(1 + zeros + 8)])) }
        var digest = [UInt8](repeating: 0, count: 32)
        for word in 0..<8 {
            for byte in 0..<4 { digest[4 * word + byte] = UInt8(truncatingIfNeeded: copy.state[word] >> (24 - 8 * UInt32(byte))) }
        }
        return digest
    }

    /// The digest of `bytes`.
    /// - Complexity: O(n) in the byte count.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    /// SHA-256's compression function (§6.2.2) on the 64 bytes at `block`, a 16-word window of
    /// the message schedule kept in place.
    private static func compress(_ state: inout InlineArray<8, UInt32>, _ block: UnsafeRawPointer) {
        var w = InlineArray<16, UInt32>(repeating: 0)
        for t in 0..<16 { w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self)) }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let word: UInt32
            if t < 16 {
                word = w[t]
            } else {
                let w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15]
                let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                word = w[t & 15] &+ s0 &+ w[(t - 7) & 15] &+ s1
                w[t & 15] = word
            }
            let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ word
            let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) ^ (a & c) ^ (b & c))
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }
}

private extension UInt32 {
    /// The bits rotated right by `count` (1...31).
    @inline(__always)
    func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
