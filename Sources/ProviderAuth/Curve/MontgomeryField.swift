/// Arithmetic modulo an odd 256-bit modulus m, with products in Montgomery form.
///
/// One implementation serves both P-256 fields: coordinates modulo the prime p and
/// scalars modulo the group order n. A value x is kept as x·R mod m (R = 2²⁵⁶), so a
/// product needs no division: `multiply` computes a·b·R⁻¹ mod m a limb at a time
/// (coarsely integrated operand scanning, Koç et al. 1996). Sums and differences are the
/// same in either form. Not constant time: verification handles only public data.
struct MontgomeryField: Sendable {
    /// m, odd.
    let modulus: UInt256
    /// −m⁻¹ mod 2⁶⁴: the multiple of m that clears the lowest limb.
    private let inverseNegated: UInt64
    /// R² mod m: multiplying by it enters Montgomery form.
    private let rSquared: UInt256
    /// 1 in Montgomery form (R mod m).
    let one: UInt256

    /// The field of `modulus`, which must be odd and above 2²⁵⁵ (as p and n are).
    /// - Complexity: O(256) modular doublings, once per field.
    init(modulus: UInt256) {
        precondition(modulus.w0 & 1 == 1 && modulus.w3 >> 63 == 1, "a Montgomery modulus is odd and above 2²⁵⁵")
        self.modulus = modulus
        // Newton's iteration doubles the correct low bits each step: 1 → 64 in six.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus.w0 &* inverse) }
        inverseNegated = 0 &- inverse
        // R mod m is 2²⁵⁶ − m (m > 2²⁵⁵), then doubling 256 times gives R² mod m.
        let r = UInt256.zero.subtractingReportingBorrow(modulus).difference
        var square = r
        let doubling = MontgomeryField.Doubler(modulus: modulus)
        for _ in 0..<256 { square = doubling.double(square) }
        one = r
        rSquared = square
    }

    /// Modular doubling, before the field exists (the initializer needs it).
    private struct Doubler {
        let modulus: UInt256
        func double(_ a: UInt256) -> UInt256 {
            let (sum, carry) = a.addingReportingCarry(a)
            return carry || sum >= modulus ? sum.subtractingReportingBorrow(modulus).difference : sum
        }
    }

    /// (a + b) mod m, for a, b < m.
    /// - Complexity: O(1).
    func add(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (sum, carry) = a.addingReportingCarry(b)
        return carry || sum >= modulus ? sum.subtractingReportingBorrow(modulus).difference : sum
    }

    /// (a − b) mod m, for a, b < m.
    /// - Complexity: O(1).
    func subtract(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (difference, borrow) = a.subtractingReportingBorrow(b)
        return borrow ? difference.addingReportingCarry(modulus).sum : difference
    }

    /// a·b·R⁻¹ mod m, for a < 2²⁵⁶ and b < m. With both in Montgomery form that is their
    /// product in Montgomery form; with one of them plain, it is the plain product.
    /// - Complexity: O(1): 32 word multiplications.
    func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        // t < 2m throughout, so five limbs and a carry word hold it.
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0
        for index in 0..<4 {
            let word = b[limb: index]
            var carry: UInt64
            (carry, t0) = multiplyAdd(a.w0, word, t0, 0)
            (carry, t1) = multiplyAdd(a.w1, word, t1, carry)
            (carry, t2) = multiplyAdd(a.w2, word, t2, carry)
            (carry, t3) = multiplyAdd(a.w3, word, t3, carry)
            let (top, overflow) = t4.addingReportingOverflow(carry)
            t4 = top
            let t5: UInt64 = overflow ? 1 : 0
            // Add q·m with q chosen so the lowest limb becomes zero, then drop that limb.
            let q = t0 &* inverseNegated
            (carry, _) = multiplyAdd(q, modulus.w0, t0, 0)
            (carry, t0) = multiplyAdd(q, modulus.w1, t1, carry)
            (carry, t1) = multiplyAdd(q, modulus.w2, t2, carry)
            (carry, t2) = multiplyAdd(q, modulus.w3, t3, carry)
            let (shifted, carried) = t4.addingReportingOverflow(carry)
            t3 = shifted
            t4 = t5 &+ (carried ? 1 : 0)
        }
        let result = UInt256(t0, t1, t2, t3)
        return t4 != 0 || result >= modulus ? result.subtractingReportingBorrow(modulus).difference : result
    }

    /// a² in Montgomery form.
    /// - Complexity: O(1).
    func square(_ a: UInt256) -> UInt256 { multiply(a, a) }

    /// x·R mod m: any 256-bit x enters Montgomery form, reduced modulo m on the way.
    /// - Complexity: O(1).
    func enter(_ x: UInt256) -> UInt256 { multiply(x, rSquared) }

    /// The plain value (< m) of a Montgomery-form `a`.
    /// - Complexity: O(1).
    func leave(_ a: UInt256) -> UInt256 { multiply(a, .one) }

    /// aᵉ in Montgomery form, by square and multiply from the top bit.
    /// - Complexity: O(256) multiplications.
    func power(_ a: UInt256, _ exponent: UInt256) -> UInt256 {
        var result = one
        for index in stride(from: 255, through: 0, by: -1) {
            result = square(result)
            if exponent.bit(index) { result = multiply(result, a) }
        }
        return result
    }

    /// a⁻¹ in Montgomery form, by Fermat (aᵐ⁻² = a⁻¹ for a prime m; both P-256 moduli are
    /// prime). Zero has no inverse and gives zero, which callers rule out first.
    /// - Complexity: O(256) multiplications.
    func inverse(_ a: UInt256) -> UInt256 {
        power(a, modulus.subtractingReportingBorrow(UInt256(2, 0, 0, 0)).difference)
    }
}

/// The high and low words of `a·b + c + d`, which never overflows 128 bits:
/// (2⁶⁴−1)² + 2(2⁶⁴−1) = 2¹²⁸ − 1. Private to this file, so it inlines into `multiply`
/// even without whole-module optimization (debug and fuzz builds): twice as fast there.
@inline(__always)
private func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (low1, carry1) = low.addingReportingOverflow(c)
    let (low2, carry2) = low1.addingReportingOverflow(d)
    return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), low2)
}
