/// SHA-512's compression and padding (FIPS 180-4 §6.4), shared by SHA-512 and SHA-384, which
/// differ only in their initial words and in how much of the result they keep. A value type
/// with no heap storage; every step is the same additions, rotations and logic whatever the
/// data.
struct SHA512Core: Sendable {
    /// §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes.
    private static let k: InlineArray<80, UInt64> = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
        0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
        0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
        0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
        0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
        0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
        0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
        0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
        0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
        0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]

    /// H, the eight working words.
    private var state: InlineArray<8, UInt64>
    /// The bytes of a block not yet complete; the first `pending` count.
    private var block = InlineArray<128, UInt8>(repeating: 0)
    private var pending = 0
    /// Bytes hashed so far (2⁶⁴ bytes is beyond any TLS transcript; the 128-bit length's high
    /// half stays zero).
    private var length: UInt64 = 0

    init(initial: InlineArray<8, UInt64>) {
        state = initial
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if pending > 0 {
            let taken = min(128 - pending, bytes.count)
            for index in 0..<taken { block[pending + index] = bytes[index] }
            pending += taken
            offset = taken
            guard pending == 128 else { return }
            withUnsafeBytes(of: block) { Self.compress(&state, $0.baseAddress!) }
            pending = 0
        }
        while bytes.count - offset >= 128 {
            Self.compress(&state, bytes.baseAddress! + offset)
            offset += 128
        }
        for index in offset..<bytes.count { block[index - offset] = bytes[index] }
        pending = bytes.count - offset
    }

    /// The first `byteCount` bytes of the final words, this value left as it was.
    func finalize(byteCount: Int) -> [UInt8] {
        var copy = self
        // Padding (§5.1.2): a 1 bit, zeros to 112 mod 128 bytes, the length in bits as 128 bits.
        var padding = InlineArray<144, UInt8>(repeating: 0)
        padding[0] = 0x80
        let zeros = (128 + 112 - 1 - pending) % 128
        let bitLength = length &* 8
        // The top 8 bytes of the 128-bit length: the bits shifted out of 64 (length ≥ 2⁶¹ bytes).
        padding[1 + zeros + 7] = UInt8(truncatingIfNeeded: length >> 61)
        for index in 0..<8 { padding[1 + zeros + 8 + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(index))) }
        withUnsafeBytes(of: padding) { copy.update(UnsafeRawBufferPointer(rebasing: $0[0..<(1 + zeros + 16)])) }
        var digest = [UInt8](repeating: 0, count: byteCount)
        for index in 0..<byteCount { digest[index] = UInt8(truncatingIfNeeded: copy.state[index / 8] >> (56 - 8 * UInt64(index % 8))) }
        return digest
    }

    /// The compression function (§6.4.2) on the 128 bytes at `block`, a 16-word window of the
    /// message schedule kept in place.
    private static func compress(_ state: inout InlineArray<8, UInt64>, _ block: UnsafeRawPointer) {
        var w = InlineArray<16, UInt64>(repeating: 0)
        for t in 0..<16 { w[t] = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 8 * t, as: UInt64.self)) }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<80 {
            let word: UInt64
            if t < 16 {
                word = w[t]
            } else {
                let w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15]
                let s0 = w15.rotatedRight(1) ^ w15.rotatedRight(8) ^ (w15 >> 7)
                let s1 = w2.rotatedRight(19) ^ w2.rotatedRight(61) ^ (w2 >> 6)
                word = w[t & 15] &+ s0 &+ w[(t - 7) & 15] &+ s1
                w[t & 15] = word
            }
            let t1 = h &+ (e.rotatedRight(14) ^ e.rotatedRight(18) ^ e.rotatedRight(41)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ word
            let t2 = (a.rotatedRight(28) ^ a.rotatedRight(34) ^ a.rotatedRight(39)) &+ ((a & b) ^ (a & c) ^ (b & c))
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }
}

private extension UInt64 {
    /// The bits rotated right by `count` (1...63).
    @inline(__always)
    func rotatedRight(_ count: UInt64) -> UInt64 { (self >> count) | (self << (64 - count)) }
}

/// SHA-512 (FIPS 180-4), incremental like `SHA256`: `finalize()` leaves the value usable. For
/// RSA-PSS and PKCS#1 v1.5 verification with SHA-512 and the certificates signed with it.
public struct SHA512: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 64
    /// The block's length in bytes.
    public static let blockByteCount = 128

    /// §5.3.5: the first 64 bits of the fractional parts of the square roots of the first 8 primes.
    private var core = SHA512Core(initial: [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ])

    /// A hash of nothing yet.
    /// - Complexity: O(1).
    public init() {}

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { core.update($0) } }

    /// The 64-byte digest of everything hashed so far; this value stays usable.
    /// - Complexity: O(1): at most two compressions.
    public func finalize() -> [UInt8] { core.finalize(byteCount: Self.byteCount) }

    /// The digest of `bytes`.
    /// - Complexity: O(n) in the byte count.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA512()
        hash.update(bytes)
        return hash.finalize()
    }
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 from other initial words, cut to 48 bytes. Incremental
/// like `SHA256`. For TLS_AES_256_GCM_SHA384's transcript should it be offered, and for
/// certificates and RSA signatures made with it.
public struct SHA384: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 48
    /// The block's length in bytes.
    public static let blockByteCount = 128

    /// §5.3.4: the first 64 bits of the fractional parts of the square roots of the 9th to 16th primes.
    private var core = SHA512Core(initial: [
        0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
        0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
    ])

    /// A hash of nothing yet.
    /// - Complexity: O(1).
    public init() {}

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { core.update(bytes) }

    /// Hashes `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { core.update($0) } }

    /// The 48-byte digest of everything hashed so far; this value stays usable.
    /// - Complexity: O(1): at most two compressions.
    public func finalize() -> [UInt8] { core.finalize(byteCount: Self.byteCount) }

    /// The digest of `bytes`.
    /// - Complexity: O(n) in the byte count.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA384()
        hash.update(bytes)
        return hash.finalize()
    }
}
