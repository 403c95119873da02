/// An element of the field of p = 2²⁵⁵ − 19, for X25519: five limbs of 51 bits, least
/// significant first, with 128-bit products (2²⁵⁵ ≡ 19 folds a product's high limbs back as
/// ×19). Limbs may run a few bits over 51 between operations; `bytes` reduces fully.
///
/// Constant time: no operation branches on or indexes by a value; `conditionalSwap` is a mask.
struct Field25519: Sendable {
    var l0, l1, l2, l3, l4: UInt64

    static let mask51: UInt64 = (1 << 51) - 1
    static let zero = Field25519(l0: 0, l1: 0, l2: 0, l3: 0, l4: 0)
    static let one = Field25519(l0: 1, l1: 0, l2: 0, l3: 0, l4: 0)

    /// The element of 32 little-endian bytes, the top bit ignored (RFC 7748 §5: implementations
    /// mask it). A value from p to 2²⁵⁵ − 1 is taken modulo p by the arithmetic.
    init(bytes: UnsafeRawPointer) {
        let w0 = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let w1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let w2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let w3 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        l0 = w0 & Self.mask51
        l1 = ((w0 >> 51) | (w1 << 13)) & Self.mask51
        l2 = ((w1 >> 38) | (w2 << 26)) & Self.mask51
        l3 = ((w2 >> 25) | (w3 << 39)) & Self.mask51
        l4 = (w3 >> 12) & Self.mask51
    }

    init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4) = (l0, l1, l2, l3, l4)
    }

    /// The canonical 32 little-endian bytes (fully reduced below p).
    func bytes() -> [UInt8] {
        var (h0, h1, h2, h3, h4) = (l0, l1, l2, l3, l4)
        // Two carry passes leave every limb below 2⁵¹ and the value below 2²⁵⁵ + 19·small.
        for _ in 0..<2 {
            h1 &+= h0 >> 51; h0 &= Self.mask51
            h2 &+= h1 >> 51; h1 &= Self.mask51
            h3 &+= h2 >> 51; h2 &= Self.mask51
            h4 &+= h3 >> 51; h3 &= Self.mask51
            h0 &+= (h4 >> 51) &* 19; h4 &= Self.mask51
        }
        // q = 1 exactly when h ≥ p: h + 19 carries out of bit 255. Then h + 19q − 2²⁵⁵q.
        var q = (h0 &+ 19) >> 51
        q = (h1 &+ q) >> 51
        q = (h2 &+ q) >> 51
        q = (h3 &+ q) >> 51
        q = (h4 &+ q) >> 51
        h0 &+= 19 &* q
        h1 &+= h0 >> 51; h0 &= Self.mask51
        h2 &+= h1 >> 51; h1 &= Self.mask51
        h3 &+= h2 >> 51; h2 &= Self.mask51
        h4 &+= h3 >> 51; h3 &= Self.mask51
        h4 &= Self.mask51
        let words = [h0 | (h1 << 51), (h1 >> 13) | (h2 << 38), (h2 >> 26) | (h3 << 25), (h3 >> 39) | (h4 << 12)]
        return words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
    }

    static func + (a: Field25519, b: Field25519) -> Field25519 {
        Field25519(l0: a.l0 &+ b.l0, l1: a.l1 &+ b.l1, l2: a.l2 &+ b.l2, l3: a.l3 &+ b.l3, l4: a.l4 &+ b.l4)
    }

    /// a − b, as a + 4p − b so no limb goes below zero (b's limbs below 2⁵³).
    static func - (a: Field25519, b: Field25519) -> Field25519 {
        let fourP0: UInt64 = 0x1f_ffff_ffff_ffb4, fourP: UInt64 = 0x1f_ffff_ffff_fffc
        return Field25519(l0: a.l0 &+ fourP0 &- b.l0, l1: a.l1 &+ fourP &- b.l1, l2: a.l2 &+ fourP &- b.l2,
                          l3: a.l3 &+ fourP &- b.l3, l4: a.l4 &+ fourP &- b.l4).carried()
    }

    /// a·b mod p, limbs carried back to about 51 bits. Inputs' limbs below 2⁵⁴.
    static func * (a: Field25519, b: Field25519) -> Field25519 {
        let b1 = b.l1 &* 19, b2 = b.l2 &* 19, b3 = b.l3 &* 19, b4 = b.l4 &* 19
        let r0 = wide(a.l0, b.l0) &+ wide(a.l1, b4) &+ wide(a.l2, b3) &+ wide(a.l3, b2) &+ wide(a.l4, b1)
        let r1 = wide(a.l0, b.l1) &+ wide(a.l1, b.l0) &+ wide(a.l2, b4) &+ wide(a.l3, b3) &+ wide(a.l4, b2)
        let r2 = wide(a.l0, b.l2) &+ wide(a.l1, b.l1) &+ wide(a.l2, b.l0) &+ wide(a.l3, b4) &+ wide(a.l4, b3)
        let r3 = wide(a.l0, b.l3) &+ wide(a.l1, b.l2) &+ wide(a.l2, b.l1) &+ wide(a.l3, b.l0) &+ wide(a.l4, b4)
        let r4 = wide(a.l0, b.l4) &+ wide(a.l1, b.l3) &+ wide(a.l2, b.l2) &+ wide(a.l3, b.l1) &+ wide(a.l4, b.l0)
        return reduce(r0, r1, r2, r3, r4)
    }

    /// a² mod p (the symmetric products once, doubled).
    func squared() -> Field25519 {
        let d0 = l0 &* 2, d1 = l1 &* 2, d2 = l2 &* 2, d3 = l3 &* 2
        let t4 = l4 &* 19, t3 = l3 &* 19
        let r0 = wide(l0, l0) &+ wide(d1, t4) &+ wide(d2, t3)
        let r1 = wide(d0, l1) &+ wide(d2, t4) &+ wide(l3, t3)
        let r2 = wide(d0, l2) &+ wide(l1, l1) &+ wide(d3, t4)
        let r3 = wide(d0, l3) &+ wide(d1, l2) &+ wide(l4, t4)
        let r4 = wide(d0, l4) &+ wide(d1, l3) &+ wide(l2, l2)
        return Self.reduce(r0, r1, r2, r3, r4)
    }

    /// a·n mod p for a small n (below 2¹⁷: X25519's a24 = 121665).
    func times(_ n: UInt64) -> Field25519 {
        Self.reduce(wide(l0, n), wide(l1, n), wide(l2, n), wide(l3, n), wide(l4, n))
    }

    /// Five 128-bit column sums carried into 51-bit limbs, the top carry folded back ×19.
    @inline(__always)
    private static func reduce(_ r0: UInt128, _ r1: UInt128, _ r2: UInt128, _ r3: UInt128, _ r4: UInt128) -> Field25519 {
        var r1 = r1, r2 = r2, r3 = r3, r4 = r4
        let h0 = UInt64(truncatingIfNeeded: r0) & mask51
        r1 &+= r0 >> 51
        let h1 = UInt64(truncatingIfNeeded: r1) & mask51
        r2 &+= r1 >> 51
        let h2 = UInt64(truncatingIfNeeded: r2) & mask51
        r3 &+= r2 >> 51
        let h3 = UInt64(truncatingIfNeeded: r3) & mask51
        r4 &+= r3 >> 51
        let h4 = UInt64(truncatingIfNeeded: r4) & mask51
        let folded = UInt128(h0) &+ (r4 >> 51) &* 19
        let l0 = UInt64(truncatingIfNeeded: folded) & mask51
        let l1 = h1 &+ UInt64(truncatingIfNeeded: folded >> 51)
        return Field25519(l0: l0, l1: l1, l2: h2, l3: h3, l4: h4)
    }

    /// One carry pass (after a subtraction).
    private func carried() -> Field25519 {
        var (h0, h1, h2, h3, h4) = (l0, l1, l2, l3, l4)
        h1 &+= h0 >> 51; h0 &= Self.mask51
        h2 &+= h1 >> 51; h1 &= Self.mask51
        h3 &+= h2 >> 51; h2 &= Self.mask51
        h4 &+= h3 >> 51; h3 &= Self.mask51
        h0 &+= (h4 >> 51) &* 19; h4 &= Self.mask51
        return Field25519(l0: h0, l1: h1, l2: h2, l3: h3, l4: h4)
    }

    /// a squared `count` times.
    private func squared(times count: Int) -> Field25519 {
        var result = self
        for _ in 0..<count { result = result.squared() }
        return result
    }

    /// a⁻¹ = a^(p − 2) by the usual chain of 254 squarings and 11 multiplications (the exponent
    /// is public); zero gives zero.
    func inverse() -> Field25519 {
        let z2 = squared()                                   // 2
        let z9 = z2.squared(times: 2) * self                 // 9
        let z11 = z9 * z2                                    // 11
        let z2to5 = z11.squared() * z9                       // 2⁵ − 1
        let z2to10 = z2to5.squared(times: 5) * z2to5         // 2¹⁰ − 1
        let z2to20 = z2to10.squared(times: 10) * z2to10      // 2²⁰ − 1
        let z2to40 = z2to20.squared(times: 20) * z2to20      // 2⁴⁰ − 1
        let z2to50 = z2to40.squared(times: 10) * z2to10      // 2⁵⁰ − 1
        let z2to100 = z2to50.squared(times: 50) * z2to50     // 2¹⁰⁰ − 1
        let z2to200 = z2to100.squared(times: 100) * z2to100  // 2²⁰⁰ − 1
        let z2to250 = z2to200.squared(times: 50) * z2to50    // 2²⁵⁰ − 1
        return z2to250.squared(times: 5) * z11               // 2²⁵⁵ − 32 + 11 = p − 2
    }

    /// Swaps `a` and `b` when `bit` is 1, leaves them when 0: the same operations either way.
    @inline(__always)
    static func conditionalSwap(_ a: inout Field25519, _ b: inout Field25519, bit: UInt64) {
        let mask = 0 &- (bit & 1)
        var t = mask & (a.l0 ^ b.l0); a.l0 ^= t; b.l0 ^= t
        t = mask & (a.l1 ^ b.l1); a.l1 ^= t; b.l1 ^= t
        t = mask & (a.l2 ^ b.l2); a.l2 ^= t; b.l2 ^= t
        t = mask & (a.l3 ^ b.l3); a.l3 ^= t; b.l3 ^= t
        t = mask & (a.l4 ^ b.l4); a.l4 ^= t; b.l4 ^= t
    }
}

/// The full 128-bit product of two 64-bit words (private to the file, so it inlines without
/// whole-module optimization too).
@inline(__always)
private func wide(_ a: UInt64, _ b: UInt64) -> UInt128 {
    UInt128(a) &* UInt128(b)
}
