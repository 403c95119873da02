/// GHASH (NIST SP 800-38D §6.4, McGrew–Viega): Y = (Y ⊕ X)·H in GF(2¹²⁸) modulo
/// x¹²⁸ + x⁷ + x² + x + 1, for each 16-byte block X, with H = AES_K(0¹²⁸).
///
/// Constant time without a table or a carry-less multiply instruction: the 128×128-bit product
/// is Karatsuba over 32×32-bit carry-less products, each computed with ordinary integer
/// multiplications on operands with holes (every fourth bit kept, so no carry can reach the
/// next kept bit: at most 8 terms meet in a column). Multiplication time does not depend on the
/// operands' values on the processors PushSim runs on. GCM's bit order (the first byte's top bit
/// is x⁰) is turned into the ordinary one by reversing each byte's bits on the way in and out.
struct GHASH: Sendable {
    /// H, as a polynomial (bit i the coefficient of xⁱ).
    private let h: UInt128
    /// The running value Y.
    private var y: UInt128 = 0

    /// The hash under the 16 bytes of H at `key`.
    init(key: UnsafeRawPointer) {
        h = Self.element(key)
    }

    /// Hashes `bytes` followed by zeros to a multiple of 16 (GCM pads the additional data and
    /// the ciphertext each to a block).
    /// - Complexity: O(n) in the byte count, no allocation.
    mutating func updatePadded(_ bytes: UnsafeRawBufferPointer) {
        let whole = bytes.count & ~15
        var offset = 0
        while offset < whole {
            y = Self.multiply(y ^ Self.element(bytes.baseAddress! + offset), h)
            offset += 16
        }
        if whole < bytes.count {
            var block: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &block) { block in
                for index in whole..<bytes.count { block[index - whole] = bytes[index] }
            }
            y = withUnsafeBytes(of: block) { Self.multiply(y ^ Self.element($0.baseAddress!), h) }
        }
    }

    /// Hashes the last block: the additional data's and the ciphertext's lengths in bits, each
    /// 64 bits big-endian.
    mutating func updateLengths(_ additionalData: Int, _ text: Int) {
        let block: (UInt64, UInt64) = ((UInt64(additionalData) &* 8).bigEndian, (UInt64(text) &* 8).bigEndian)
        y = withUnsafeBytes(of: block) { Self.multiply(y ^ Self.element($0.baseAddress!), h) }
    }

    /// Y as 16 bytes in GCM's order, XORed with `mask` (the encrypted first counter block).
    func finalize(xoring mask: UInt128, into tag: UnsafeMutableRawBufferPointer) {
        let value = Self.reversingBitsInBytes(y) ^ mask
        tag.storeBytes(of: UInt64(truncatingIfNeeded: value).littleEndian, toByteOffset: 0, as: UInt64.self)
        tag.storeBytes(of: UInt64(truncatingIfNeeded: value >> 64).littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// The field element of the 16 bytes at `bytes`: byte j's bit 7 − m is the coefficient of x^(8j + m).
    @inline(__always)
    static func element(_ bytes: UnsafeRawPointer) -> UInt128 {
        let low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return reversingBitsInBytes(UInt128(high) << 64 | UInt128(low))
    }

    /// Each byte's bits in reverse order.
    @inline(__always)
    static func reversingBitsInBytes(_ value: UInt128) -> UInt128 {
        let m1: UInt128 = 0x5555_5555_5555_5555_5555_5555_5555_5555
        let m2: UInt128 = 0x3333_3333_3333_3333_3333_3333_3333_3333
        let m4: UInt128 = 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f
        var v = ((value >> 1) & m1) | ((value & m1) << 1)
        v = ((v >> 2) & m2) | ((v & m2) << 2)
        return ((v >> 4) & m4) | ((v & m4) << 4)
    }

    /// a·b modulo x¹²⁸ + x⁷ + x² + x + 1.
    @inline(__always)
    static func multiply(_ a: UInt128, _ b: UInt128) -> UInt128 {
        let (high, low) = carrylessProduct(a, b)
        // x¹²⁸ ≡ x⁷ + x² + x + 1: fold the high half in, and the few bits that fold past x¹²⁷ once more.
        let spill = (high >> 127) ^ (high >> 126) ^ (high >> 121)
        let folded = high ^ (high << 1) ^ (high << 2) ^ (high << 7)
        return low ^ folded ^ spill ^ (spill << 1) ^ (spill << 2) ^ (spill << 7)
    }

    /// The 255-bit carry-less product of `a` and `b` as (high, low) halves: Karatsuba on 64-bit halves.
    @inline(__always)
    static func carrylessProduct(_ a: UInt128, _ b: UInt128) -> (high: UInt128, low: UInt128) {
        let a0 = UInt64(truncatingIfNeeded: a), a1 = UInt64(truncatingIfNeeded: a >> 64)
        let b0 = UInt64(truncatingIfNeeded: b), b1 = UInt64(truncatingIfNeeded: b >> 64)
        let low = carryless64(a0, b0), high = carryless64(a1, b1)
        let middle = carryless64(a0 ^ a1, b0 ^ b1) ^ low ^ high
        return (high ^ (middle >> 64), low ^ (middle << 64))
    }

    /// The 127-bit carry-less product of two 64-bit words: Karatsuba on 32-bit halves.
    @inline(__always)
    static func carryless64(_ a: UInt64, _ b: UInt64) -> UInt128 {
        let a0 = UInt32(truncatingIfNeeded: a), a1 = UInt32(truncatingIfNeeded: a >> 32)
        let b0 = UInt32(truncatingIfNeeded: b), b1 = UInt32(truncatingIfNeeded: b >> 32)
        let low = carryless32(a0, b0), high = carryless32(a1, b1)
        let middle = carryless32(a0 ^ a1, b0 ^ b1) ^ low ^ high
        return (UInt128(high) << 64) ^ (UInt128(middle) << 32) ^ UInt128(low)
    }

    /// The 63-bit carry-less product of two 32-bit words by 16 integer multiplications: each
    /// operand split into four parts of every fourth bit; a product of two parts has at most 8
    /// terms in a column, so its carries stay below the next bit of the same residue mod 4, and
    /// the bits of each residue are kept from the products that can reach it.
    @inline(__always)
    static func carryless32(_ a: UInt32, _ b: UInt32) -> UInt64 {
        let x = UInt64(a), y = UInt64(b)
        let m0: UInt64 = 0x1111_1111_1111_1111, m1: UInt64 = 0x2222_2222_2222_2222
        let m2: UInt64 = 0x4444_4444_4444_4444, m3: UInt64 = 0x8888_8888_8888_8888
        let x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3
        let y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3
        let z0 = (x0 &* y0) ^ (x1 &* y3) ^ (x2 &* y2) ^ (x3 &* y1)
        let z1 = (x0 &* y1) ^ (x1 &* y0) ^ (x2 &* y3) ^ (x3 &* y2)
        let z2 = (x0 &* y2) ^ (x1 &* y1) ^ (x2 &* y0) ^ (x3 &* y3)
        let z3 = (x0 &* y3) ^ (x1 &* y2) ^ (x2 &* y1) ^ (x3 &* y0)
        return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3)
    }
}
