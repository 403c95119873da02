/// A point of P-256 in homogeneous projective coordinates: (X : Y : Z) stands for the affine
/// point (X/Z, Y/Z), so adding and doubling need no inversion. Coordinates are in Montgomery
/// form modulo p; the point at infinity is (0 : 1 : 0), which the complete formulas below take
/// and give like any other point.
struct ProjectivePoint: Sendable {
    var x: UInt256
    var y: UInt256
    var z: UInt256

    static let infinity = ProjectivePoint(x: .zero, y: P256Curve.field.one, z: .zero)

    /// `ifSet` where `mask` is all ones, `ifClear` where it is zero: a choice without a branch.
    @inline(__always)
    static func select(_ mask: UInt64, _ ifSet: ProjectivePoint, _ ifClear: ProjectivePoint) -> ProjectivePoint {
        ProjectivePoint(x: .select(mask, ifSet.x, ifClear.x), y: .select(mask, ifSet.y, ifClear.y),
                        z: .select(mask, ifSet.z, ifClear.z))
    }
}

/// The curve P-256 (FIPS 186-4 D.1.2.3, SEC 2 secp256r1): y² = x³ − 3x + b over the prime field
/// of p, with a base point G of prime order n (cofactor 1).
///
/// Points are added and doubled by the complete formulas of Renes, Costello and Batina,
/// "Complete addition formulas for prime order elliptic curves" (EUROCRYPT 2016, Algorithms 4
/// and 6, a = −3): one sequence of field operations for every pair of points, infinity, P = Q
/// and P = −Q included, so no branch asks which case it is.
enum P256Curve {
    /// The field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1.
    static let p = UInt256(hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    /// The order n of G.
    static let n = UInt256(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    /// Arithmetic on coordinates.
    static let field = MontgomeryField(modulus: p)
    /// Arithmetic on scalars (private keys, nonces, signatures).
    static let scalars = MontgomeryField(modulus: n)
    /// The curve's b, in Montgomery form.
    static let b = field.enter(UInt256(hex: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b"))
    /// The base point G.
    static let generator = point(x: UInt256(hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
                                 y: UInt256(hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"))

    /// The point of plain affine coordinates (x, y), both below p; whether it is on the curve
    /// is `isOnCurve`'s question.
    /// - Complexity: O(1).
    static func point(x: UInt256, y: UInt256) -> ProjectivePoint {
        ProjectivePoint(x: field.enter(x), y: field.enter(y), z: field.one)
    }

    /// Whether plain affine (x, y), both below p, satisfies y² = x³ − 3x + b. Of a public point.
    /// - Complexity: O(1).
    static func isOnCurve(x: UInt256, y: UInt256) -> Bool {
        let (x, y) = (field.enter(x), field.enter(y))
        let threeX = field.add(field.add(x, x), x)
        let right = field.add(field.subtract(field.multiply(field.square(x), x), threeX), b)
        return field.square(y) == right
    }

    /// The plain affine coordinates of `point`; nil for the point at infinity. The inversion is
    /// Fermat's fixed chain, so a point made from a secret scalar leaks nothing here; the nil
    /// (infinity) is the caller's public outcome.
    /// - Complexity: O(256) multiplications (one inversion).
    static func affine(_ point: ProjectivePoint) -> (x: UInt256, y: UInt256)? {
        let zInverse = field.inverse(point.z)
        let x = field.leave(field.multiply(point.x, zInverse))
        let y = field.leave(field.multiply(point.y, zInverse))
        return point.z.isZeroMask == 0 ? (x, y) : nil
    }

    /// P + Q for any two points (Algorithm 4).
    /// - Complexity: O(1): 12 multiplications, 2 by b.
    static func add(_ p: ProjectivePoint, _ q: ProjectivePoint) -> ProjectivePoint {
        let f = field
        var t0 = f.multiply(p.x, q.x), t1 = f.multiply(p.y, q.y), t2 = f.multiply(p.z, q.z)
        var t3 = f.multiply(f.add(p.x, p.y), f.add(q.x, q.y))
        t3 = f.subtract(t3, f.add(t0, t1))
        var t4 = f.multiply(f.add(p.y, p.z), f.add(q.y, q.z))
        t4 = f.subtract(t4, f.add(t1, t2))
        var y3 = f.multiply(f.add(p.x, p.z), f.add(q.x, q.z))
        y3 = f.subtract(y3, f.add(t0, t2))
        var x3 = f.subtract(y3, f.multiply(b, t2))
        x3 = f.add(x3, f.add(x3, x3))
        var z3 = f.subtract(t1, x3)
        x3 = f.add(t1, x3)
        y3 = f.multiply(b, y3)
        t1 = f.add(t2, t2)
        t2 = f.add(t1, t2)
        y3 = f.subtract(f.subtract(y3, t2), t0)
        y3 = f.add(y3, f.add(y3, y3))
        t1 = f.add(t0, t0)
        t0 = f.subtract(f.add(t1, t0), t2)
        t1 = f.multiply(t4, y3)
        t2 = f.multiply(t0, y3)
        y3 = f.add(f.multiply(x3, z3), t2)
        x3 = f.subtract(f.multiply(t3, x3), t1)
        z3 = f.add(f.multiply(t4, z3), f.multiply(t3, t0))
        return ProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// 2P for any point (Algorithm 6).
    /// - Complexity: O(1): 8 multiplications, 3 squarings, 2 by b.
    static func double(_ p: ProjectivePoint) -> ProjectivePoint {
        let f = field
        var t0 = f.square(p.x)
        let t1 = f.square(p.y)
        var t2 = f.square(p.z)
        var t3 = f.multiply(p.x, p.y)
        t3 = f.add(t3, t3)
        var z3 = f.multiply(p.x, p.z)
        z3 = f.add(z3, z3)
        var y3 = f.subtract(f.multiply(b, t2), z3)
        y3 = f.add(y3, f.add(y3, y3))
        var x3 = f.subtract(t1, y3)
        y3 = f.multiply(x3, f.add(t1, y3))
        x3 = f.multiply(x3, t3)
        t2 = f.add(t2, f.add(t2, t2))
        z3 = f.subtract(f.subtract(f.multiply(b, z3), t2), t0)
        z3 = f.add(z3, f.add(z3, z3))
        t0 = f.subtract(f.add(t0, f.add(t0, t0)), t2)
        y3 = f.add(y3, f.multiply(t0, z3))
        t0 = f.multiply(p.y, p.z)
        t0 = f.add(t0, t0)
        x3 = f.subtract(x3, f.multiply(t0, z3))
        z3 = f.multiply(t0, t1)
        z3 = f.add(z3, z3)
        z3 = f.add(z3, z3)
        return ProjectivePoint(x: x3, y: y3, z: z3)
    }
}
