/// ChaCha20 (RFC 8439 §2.3–§2.4): a 256-bit key, a 96-bit nonce and a 32-bit block counter
/// give 64-byte blocks of keystream, XORed into the text. Additions, XORs and rotations of
/// 32-bit words only: nothing depends on the key or the data but the values themselves.
public struct ChaCha20: Sendable {
    /// The key's length in bytes.
    public static let keyByteCount = 32

    /// The key as eight little-endian words.
    private let key: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The cipher under `key`; nil unless it is 32 bytes.
    /// - Complexity: O(1).
    public init?(key: [UInt8]) {
        guard key.count == Self.keyByteCount else { return nil }
        self.key = key.withUnsafeBytes { bytes in
            func word(_ index: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)) }
            return (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
        }
    }

    /// XORs the keystream for `nonce`, from block `counter` on, into `text` in place: encrypts or
    /// decrypts. The counter must not wrap (256 GiB from 0; a TLS record is at most 16 KiB).
    /// - Complexity: O(n) in the byte count, no allocation.
    public func apply(nonce: AEADNonce, counter: UInt32, to text: UnsafeMutableRawBufferPointer) {
        precondition(UInt64(counter) + UInt64((text.count + 63) / 64) <= 1 << 32, "the ChaCha20 block counter would wrap")
        var counter = counter
        var offset = 0
        while offset < text.count {
            var block = self.block(nonce: nonce, counter: counter)
            let count = min(64, text.count - offset)
            withUnsafeBytes(of: &block) { keystream in
                if count == 64 {
                    for index in 0..<8 {
                        let at = offset + 8 * index
                        let word = text.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                            ^ keystream.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self)
                        text.storeBytes(of: word, toByteOffset: at, as: UInt64.self)
                    }
                } else {
                    for index in 0..<count { text[offset + index] ^= keystream[index] }
                }
            }
            counter &+= 1
            offset += count
        }
    }

    /// The ChaCha20 block function (§2.3): the 64 bytes of block `counter`, as 16 words stored
    /// little-endian (read them through `withUnsafeBytes(of:)`).
    /// - Complexity: O(1): 20 rounds.
    @inline(__always)
    func block(nonce: AEADNonce, counter: UInt32) -> Block {
        // The nonce's bytes as three little-endian words.
        let n0 = nonce.prefix.byteSwapped
        let n1 = UInt32(truncatingIfNeeded: nonce.suffix >> 32).byteSwapped
        let n2 = UInt32(truncatingIfNeeded: nonce.suffix).byteSwapped
        let (k0, k1, k2, k3, k4, k5, k6, k7) = key
        var x0: UInt32 = 0x6170_7865, x1: UInt32 = 0x3320_646e, x2: UInt32 = 0x7962_2d32, x3: UInt32 = 0x6b20_6574
        var x4 = k0, x5 = k1, x6 = k2, x7 = k3, x8 = k4, x9 = k5, x10 = k6, x11 = k7
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
        return ((x0 &+ 0x6170_7865).littleEndian, (x1 &+ 0x3320_646e).littleEndian, (x2 &+ 0x7962_2d32).littleEndian,
                (x3 &+ 0x6b20_6574).littleEndian, (x4 &+ k0).littleEndian, (x5 &+ k1).littleEndian, (x6 &+ k2).littleEndian,
                (x7 &+ k3).littleEndian, (x8 &+ k4).littleEndian, (x9 &+ k5).littleEndian, (x10 &+ k6).littleEndian,
                (x11 &+ k7).littleEndian, (x12 &+ counter).littleEndian, (x13 &+ n0).littleEndian, (x14 &+ n1).littleEndian,
                (x15 &+ n2).littleEndian)
    }

    /// A block of keystream: 16 words, each stored little-endian (a homogeneous tuple is laid out
    /// contiguously, so its bytes are the block's 64 bytes in order).
    typealias Block = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                       UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
}

/// The quarter round (§2.1), its rotations written out so that it inlines without whole-module
/// optimization too (debug and fuzz builds).
@inline(__always)
private func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
    a &+= b; d ^= a; d = (d << 16) | (d >> 16)
    c &+= d; b ^= c; b = (b << 12) | (b >> 20)
    a &+= b; d ^= a; d = (d << 8) | (d >> 24)
    c &+= d; b ^= c; b = (b << 7) | (b >> 25)
}
