/// A point of P-256 in Jacobian coordinates: (X, Y, Z) stands for the affine point
/// (X/Z², Y/Z³), so adding and doubling need no inversion. Coordinates are in Montgomery
/// form modulo p; Z = 0 is the point at infinity.
struct JacobianPoint: Sendable {
    var x: UInt256
    var y: UInt256
    var z: UInt256

    static let infinity = JacobianPoint(x: P256.field.one, y: P256.field.one, z: .zero)

    var isInfinity: Bool { z.isZero }
}

/// The curve P-256 (FIPS 186-4 D.1.2.3, SEC 2 secp256r1): y² = x³ − 3x + b over the prime
/// field of p, with a base point G of prime order n (cofactor 1).
enum P256 {
    /// The field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1.
    static let p = UInt256(hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    /// The order n of G.
    static let n = UInt256(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    /// Arithmetic on coordinates.
    static let field = MontgomeryField(modulus: p)
    /// Arithmetic on scalars (signatures, private keys).
    static let scalars = MontgomeryField(modulus: n)
    /// The curve's b, in Montgomery form.
    static let b = field.enter(UInt256(hex: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b"))
    /// The base point G.
    static let generator = point(x: UInt256(hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
                                 y: UInt256(hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"))

    /// The point of plain affine coordinates (x, y), both below p; whether it is on the
    /// curve is `isOnCurve`'s question.
    /// - Complexity: O(1).
    static func point(x: UInt256, y: UInt256) -> JacobianPoint {
        JacobianPoint(x: field.enter(x), y: field.enter(y), z: field.one)
    }

    /// Whether plain affine (x, y), both below p, satisfies y² = x³ − 3x + b.
    /// - Complexity: O(1).
    static func isOnCurve(x: UInt256, y: UInt256) -> Bool {
        let (x, y) = (field.enter(x), field.enter(y))
        let threeX = field.add(field.add(x, x), x)
        let right = field.add(field.subtract(field.multiply(field.square(x), x), threeX), b)
        return field.square(y) == right
    }

    /// The plain affine coordinates of `point`; nil for the point at infinity.
    /// - Complexity: O(256) multiplications (one inversion).
    static func affine(_ point: JacobianPoint) -> (x: UInt256, y: UInt256)? {
        guard !point.isInfinity else { return nil }
        let zInverse = field.inverse(point.z)
        let zInverseSquared = field.square(zInverse)
        let x = field.multiply(point.x, zInverseSquared)
        let y = field.multiply(point.y, field.multiply(zInverseSquared, zInverse))
        return (field.leave(x), field.leave(y))
    }

    /// 2P, with a = −3 ("dbl-2001-b", Bernstein and Lange's Explicit-Formulas Database).
    /// Infinity doubles to infinity (Z stays 0); P-256 has no point with y = 0.
    /// - Complexity: O(1): 3 multiplications, 5 squarings.
    static func double(_ point: JacobianPoint) -> JacobianPoint {
        let f = field
        let delta = f.square(point.z)
        let gamma = f.square(point.y)
        let beta = f.multiply(point.x, gamma)
        let product = f.multiply(f.subtract(point.x, delta), f.add(point.x, delta))
        let alpha = f.add(f.add(product, product), product)
        let fourBeta = f.add(f.add(beta, beta), f.add(beta, beta))
        let x = f.subtract(f.square(alpha), f.add(fourBeta, fourBeta))
        let yPlusZ = f.add(point.y, point.z)
        let z = f.subtract(f.subtract(f.square(yPlusZ), gamma), delta)
        let gammaSquared = f.square(gamma)
        let fourGammaSquared = f.add(f.add(gammaSquared, gammaSquared), f.add(gammaSquared, gammaSquared))
        let y = f.subtract(f.multiply(alpha, f.subtract(fourBeta, x)), f.add(fourGammaSquared, fourGammaSquared))
        return JacobianPoint(x: x, y: y, z: z)
    }

    /// P + Q, every case: either at infinity, P = Q (doubles), P = −Q (infinity).
    /// - Complexity: O(1): 12 multiplications, 4 squarings.
    static func add(_ p: JacobianPoint, _ q: JacobianPoint) -> JacobianPoint {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let f = field
        let pzSquared = f.square(p.z), qzSquared = f.square(q.z)
        let u1 = f.multiply(p.x, qzSquared), u2 = f.multiply(q.x, pzSquared)
        let s1 = f.multiply(p.y, f.multiply(q.z, qzSquared)), s2 = f.multiply(q.y, f.multiply(p.z, pzSquared))
        let h = f.subtract(u2, u1), r = f.subtract(s2, s1)
        // Zero is zero in Montgomery form too, and every value is reduced below p.
        if h.isZero { return r.isZero ? double(p) : .infinity }
        let hSquared = f.square(h)
        let hCubed = f.multiply(h, hSquared)
        let v = f.multiply(u1, hSquared)
        let x = f.subtract(f.subtract(f.square(r), hCubed), f.add(v, v))
        let y = f.subtract(f.multiply(r, f.subtract(v, x)), f.multiply(s1, hCubed))
        let z = f.multiply(f.multiply(p.z, q.z), h)
        return JacobianPoint(x: x, y: y, z: z)
    }

    /// k·P by double and add from the top bit. Its time depends on k: fine for
    /// verification and for a simulator's signing, not for a key an attacker can time.
    /// - Complexity: O(256) doublings and additions.
    static func multiply(_ k: UInt256, _ point: JacobianPoint) -> JacobianPoint {
        var result = JacobianPoint.infinity
        for index in stride(from: 255, through: 0, by: -1) {
            result = double(result)
            if k.bit(index) { result = add(result, point) }
        }
        return result
    }

    /// u1·G + u2·Q in one pass over the bits (Shamir's trick), as verification needs.
    /// - Complexity: O(256) doublings and additions.
    static func multiplyGenerator(_ u1: UInt256, adding u2: UInt256, times q: JacobianPoint) -> JacobianPoint {
        let both = add(generator, q)
        var result = JacobianPoint.infinity
        for index in stride(from: 255, through: 0, by: -1) {
            result = double(result)
            switch (u1.bit(index), u2.bit(index)) {
            case (true, true): result = add(result, both)
            case (true, false): result = add(result, generator)
            case (false, true): result = add(result, q)
            case (false, false): break
            }
        }
        return result
    }
}
