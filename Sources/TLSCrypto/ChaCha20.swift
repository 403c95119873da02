/// ChaCha20 (RFC 8439 §2.3–§2.4): a 256-bit key, a 96-bit nonce and a 32-bit block counter
/// give 64-byte blocks of keystream, XORed into the text. Additions, XORs and rotations of
/// 32-bit words only: nothing depends on the key or the data but the values themselves.
public struct ChaCha20: Sendable {
    /// The key's length in bytes.
    public static let keyByteCount = 32

    /// The key as eight little-endian words.
    private let key: InlineArray<8, UInt32>

    /// The cipher under `key`; nil unless it is 32 bytes.
    /// - Complexity: O(1).
    public init?(key: [UInt8]) {
        guard key.count == Self.keyByteCount else { return nil }
        var words = InlineArray<8, UInt32>(repeating: 0)
        key.withUnsafeBytes { bytes in
            for index in 0..<8 { words[index] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)) }
        }
        self.key = words
    }

    /// XORs the keystream for `nonce`, from block `counter` on, into `text` in place: encrypts or
    /// decrypts. The counter must not wrap (256 GiB from 0; a TLS record is at most 16 KiB).
    /// - Complexity: O(n) in the byte count, no allocation.
    public func apply(nonce: AEADNonce, counter: UInt32, to text: UnsafeMutableRawBufferPointer) {
        precondition(UInt64(counter) + UInt64((text.count + 63) / 64) <= 1 << 32, "the ChaCha20 block counter would wrap")
        var counter = counter
        var offset = 0
        while offset < text.count {
            let block = self.block(nonce: nonce, counter: counter)
            let count = min(64, text.count - offset)
            if count == 64 {
                for index in 0..<16 {
                    let at = offset + 4 * index
                    let word = UInt32(littleEndian: text.loadUnaligned(fromByteOffset: at, as: UInt32.self)) ^ block[index]
                    text.storeBytes(of: word.littleEndian, toByteOffset: at, as: UInt32.self)
                }
            } else {
                for index in 0..<count {
                    text[offset + index] ^= UInt8(truncatingIfNeeded: block[index >> 2] >> (8 * UInt32(index & 3)))
                }
            }
            counter &+= 1
            offset += count
        }
    }

    /// The ChaCha20 block function (§2.3): the 16 output words of block `counter`, to be
    /// serialized little-endian.
    /// - Complexity: O(1): 20 rounds.
    func block(nonce: AEADNonce, counter: UInt32) -> InlineArray<16, UInt32> {
        // The nonce's bytes as three little-endian words.
        let n0 = nonce.prefix.byteSwapped
        let n1 = UInt32(truncatingIfNeeded: nonce.suffix >> 32).byteSwapped
        let n2 = UInt32(truncatingIfNeeded: nonce.suffix).byteSwapped
        var x0: UInt32 = 0x6170_7865, x1: UInt32 = 0x3320_646e, x2: UInt32 = 0x7962_2d32, x3: UInt32 = 0x6b20_6574
        var x4 = key[0], x5 = key[1], x6 = key[2], x7 = key[3]
        var x8 = key[4], x9 = key[5], x10 = key[6], x11 = key[7]
        var x12 = counter, x13 = n0, x14 = n1, x15 = n2
        for _ in 0..<10 {
            quarterRound(&x0, &x4, &x8, &x12)
            quarterRound(&x1, &x5, &x9, &x13)
            quarterRound(&x2, &x6, &x10, &x14)
            quarterRound(&x3, &x7, &x11, &x15)
            quarterRound(&x0, &x5, &x10, &x15)
            quarterRound(&x1, &x6, &x11, &x12)
            quarterRound(&x2, &x7, &x8, &x13)
            quarterRound(&x3, &x4, &x9, &x14)
        }
        return [x0 &+ 0x6170_7865, x1 &+ 0x3320_646e, x2 &+ 0x7962_2d32, x3 &+ 0x6b20_6574,
                x4 &+ key[0], x5 &+ key[1], x6 &+ key[2], x7 &+ key[3],
                x8 &+ key[4], x9 &+ key[5], x10 &+ key[6], x11 &+ key[7],
                x12 &+ counter, x13 &+ n0, x14 &+ n1, x15 &+ n2]
    }
}

/// The quarter round (§2.1).
@inline(__always)
private func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
    a &+= b; d ^= a; d = d.rotatedLeft(16)
    c &+= d; b ^= c; b = b.rotatedLeft(12)
    a &+= b; d ^= a; d = d.rotatedLeft(8)
    c &+= d; b ^= c; b = b.rotatedLeft(7)
}
