/// Arithmetic modulo an odd 256-bit modulus m, with products in Montgomery form: P-256's
/// coordinates modulo the prime p and its scalars modulo the group order n.
///
/// A value x is kept as x·R mod m (R = 2²⁵⁶), so a product needs no division: `multiply`
/// computes a·b·R⁻¹ mod m a limb at a time (coarsely integrated operand scanning, Koç et al.
/// 1996). Sums and differences are the same in either form.
///
/// Constant time: no operation branches on or indexes by a value. The final subtraction of m is
/// chosen by a mask made from the borrow; `power` branches only on its exponent, which every
/// caller takes from the code (m − 2 for an inverse), never from a secret.
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
    init(modulus: UInt256) {
        precondition(modulus.w0 & 1 == 1 && modulus.w3 >> 63 == 1, "a Montgomery modulus is odd and above 2²⁵⁵")
        self.modulus = modulus
        // Newton's iteration doubles the correct low bits each step: 1 → 64 in six.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus.w0 &* inverse) }
        inverseNegated = 0 &- inverse
        // R mod m is 2²⁵⁶ − m (m > 2²⁵⁵); doubling it 256 times gives R² mod m.
        let r = UInt256.zero.subtracting(modulus).difference
        one = r
        var square = r
        for _ in 0..<256 { square = Self.add(square, square, modulus: modulus) }
        rSquared = square
    }

    /// (a + b) mod m, for a, b < m.
    /// - Complexity: O(1).
    func add(_ a: UInt256, _ b: UInt256) -> UInt256 { Self.add(a, b, modulus: modulus) }

    /// (a + b) mod `modulus`, before a field exists (its initializer doubles with it).
    @inline(__always)
    private static func add(_ a: UInt256, _ b: UInt256, modulus: UInt256) -> UInt256 {
        let (sum, carry) = a.adding(b)
        let (reduced, borrow) = sum.subtracting(modulus)
        // Keep the sum only when it is below m: no carry out and the subtraction borrowed.
        return UInt256.select(0 &- (borrow & (carry ^ 1)), sum, reduced)
    }

    /// (a − b) mod m, for a, b < m.
    /// - Complexity: O(1).
    func subtract(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (difference, borrow) = a.subtracting(b)
        let correction = UInt256.select(0 &- borrow, modulus, .zero)
        return difference.adding(correction).sum
    }

    /// a·b·R⁻¹ mod m, for a < 2²⁵⁶ and b < m. With both in Montgomery form that is their product
    /// in Montgomery form; with one of them plain, it is the plain product.
    /// - Complexity: O(1): 32 word multiplications.
    func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        // t < 2m throughout, so four limbs and a top word of 0 or 1 hold it.
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        multiplyRound(&t, a, b.w0)
        multiplyRound(&t, a, b.w1)
        multiplyRound(&t, a, b.w2)
        multiplyRound(&t, a, b.w3)
        let result = UInt256(t.0, t.1, t.2, t.3)
        let (reduced, borrow) = result.subtracting(modulus)
        // Keep t only when it is below m: top word 0 and the subtraction borrowed.
        return UInt256.select(0 &- (borrow & (t.4 ^ 1)), result, reduced)
    }

    /// One limb of b: t += a·word, then t += q·m with q chosen so the lowest limb becomes zero,
    /// and that limb dropped.
    @inline(__always)
    private func multiplyRound(_ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: UInt256, _ word: UInt64) {
        var carry: UInt64
        (carry, t.0) = multiplyAdd(a.w0, word, t.0, 0)
        (carry, t.1) = multiplyAdd(a.w1, word, t.1, carry)
        (carry, t.2) = multiplyAdd(a.w2, word, t.2, carry)
        (carry, t.3) = multiplyAdd(a.w3, word, t.3, carry)
        let (top, overflow) = addWithCarry(t.4, carry, 0)
        let q = t.0 &* inverseNegated
        (carry, _) = multiplyAdd(q, modulus.w0, t.0, 0)
        (carry, t.0) = multiplyAdd(q, modulus.w1, t.1, carry)
        (carry, t.1) = multiplyAdd(q, modulus.w2, t.2, carry)
        (carry, t.2) = multiplyAdd(q, modulus.w3, t.3, carry)
        let (shifted, carried) = addWithCarry(top, carry, 0)
        t.3 = shifted
        t.4 = overflow &+ carried
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

    /// aᵉ in Montgomery form, by square and multiply from the top bit. The sequence of operations
    /// depends on the exponent only, which must be public (`a` may be secret).
    /// - Complexity: O(256) multiplications.
    func power(_ a: UInt256, _ exponent: UInt256) -> UInt256 {
        var result = one
        for index in stride(from: 255, through: 0, by: -1) {
            result = square(result)
            if exponent.bit(index) { result = multiply(result, a) }
        }
        return result
    }

    /// a⁻¹ in Montgomery form, by Fermat (aᵐ⁻² = a⁻¹ for a prime m; both P-256 moduli are prime):
    /// a fixed chain of squarings and multiplications whatever `a` is. Zero gives zero, which
    /// callers rule out first.
    /// - Complexity: O(256) multiplications.
    func inverse(_ a: UInt256) -> UInt256 {
        power(a, modulus.subtracting(UInt256(2, 0, 0, 0)).difference)
    }

    /// x mod m for any 256-bit x (below 2m, as every 256-bit x is for m > 2²⁵⁵): one masked
    /// subtraction.
    /// - Complexity: O(1).
    func reduce(_ x: UInt256) -> UInt256 {
        let (reduced, borrow) = x.subtracting(modulus)
        return UInt256.select(0 &- borrow, x, reduced)
    }
}
