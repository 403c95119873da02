@testable import TLSCrypto
import Testing

/// The arithmetic under P-256's ECDH and ECDSA: 256-bit integers, the two Montgomery fields,
/// the complete formulas, and the constant-time multiplication's fixed shape.
@Suite("P-256 arithmetic and its constant-time shape")
struct P256CurveTests {
    static let n = P256Curve.n
    static let nMinusOne = P256Curve.n.subtracting(.one).difference

    @Test("bytes round-trip through limbs, most significant byte first; other lengths are refused")
    func bytesRoundTrip() {
        let value = UInt256(hex: "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
        #expect(value.w3 == 0x0102030405060708 && value.w0 == 0x191a1b1c1d1e1f20)
        #expect(hex(value.bigEndianBytes) == "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
        #expect(UInt256(bigEndian: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(UInt256(bigEndian: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test("carries and borrows cross every limb, as words; masks choose without a branch")
    func carriesAndMasks() {
        let allOnes = UInt256(.max, .max, .max, .max)
        #expect(allOnes.adding(.one) == (.zero, 1))
        #expect(UInt256.zero.subtracting(.one) == (allOnes, 1))
        #expect(UInt256(0, 0, 0, 1).subtracting(.one) == (UInt256(.max, .max, .max, 0), 0))
        #expect(UInt256.select(.max, allOnes, .one) == allOnes && UInt256.select(0, allOnes, .one) == .one)
        #expect(UInt256.zero.isZeroMask == .max && UInt256(0, 0, 0, 1 << 63).isZeroMask == 0)
        #expect(Self.nMinusOne.belowMask(Self.n) == .max && Self.n.belowMask(Self.n) == 0 && allOnes.belowMask(Self.n) == 0)
        #expect((0..<64).allSatisfy { UInt256.mask(ifZero: 1 << UInt64($0)) == 0 } && UInt256.mask(ifZero: 0) == .max)
    }

    @Test("each field: (m − 1)² = 1, a·a⁻¹ = 1, a + (−a) = 0, in and out of Montgomery form, the masked reductions at m",
          arguments: [P256Curve.p, P256Curve.n])
    func field(_ modulus: UInt256) {
        let field = MontgomeryField(modulus: modulus)
        let minusOne = modulus.subtracting(.one).difference
        #expect(field.leave(field.square(field.enter(minusOne))) == .one)
        // The boundary of every masked choice: m − 1 + 1 = 0, 0 − 1 = m − 1, m reduces to 0.
        #expect(field.add(minusOne, .one) == .zero && field.subtract(.zero, .one) == minusOne)
        #expect(field.reduce(modulus) == .zero && field.reduce(minusOne) == minusOne)
        var generator = SeededGenerator(state: 6979)
        for _ in 0..<8 {
            let a = UInt256(generator.next(), generator.next(), generator.next(), generator.next() >> 1)
            let inMontgomery = field.enter(a)
            #expect(field.leave(inMontgomery) == a)
            #expect(field.leave(field.multiply(inMontgomery, field.inverse(inMontgomery))) == .one)
            #expect(field.leave(field.add(inMontgomery, field.subtract(.zero, inMontgomery))) == .zero)
        }
        // 2²⁵⁶ − 1 enters reduced: the same as (2²⁵⁶ − 1) − m.
        let allOnes = UInt256(.max, .max, .max, .max)
        #expect(field.leave(field.enter(allOnes)) == allOnes.subtracting(modulus).difference)
    }

    @Test("G is on the curve; 2G by doubling, adding and multiplying is its known value; n·G and 0·G are infinity; (n − 1)·G is −G")
    func group() throws {
        let g = P256Curve.generator
        let gx = UInt256(hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
        let gy = UInt256(hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        #expect(P256Curve.isOnCurve(x: gx, y: gy) && !P256Curve.isOnCurve(x: gx, y: gx))
        let twoG = try #require(P256Curve.affine(P256Curve.double(g)))
        #expect(twoG.x == UInt256(hex: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978"))
        #expect(twoG.y == UInt256(hex: "07775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1"))
        #expect(P256Curve.affine(P256Curve.add(g, g))! == twoG)
        #expect(P256Curve.affine(P256Curve.multiply(UInt256(2, 0, 0, 0), g))! == twoG)
        #expect(P256Curve.affine(P256Curve.multiply(Self.n, g)) == nil)
        #expect(P256Curve.affine(P256Curve.multiply(.zero, g)) == nil)
        let minusG = try #require(P256Curve.affine(P256Curve.multiply(Self.nMinusOne, g)))
        #expect(minusG.x == gx && minusG.y == P256Curve.p.subtracting(gy).difference)
        // The complete formulas: P + (−P), P + O, O + O and 2·O without a branch.
        #expect(P256Curve.affine(P256Curve.add(g, P256Curve.point(x: minusG.x, y: minusG.y))) == nil)
        #expect(P256Curve.affine(P256Curve.add(.infinity, g))! == (gx, gy))
        #expect(P256Curve.affine(P256Curve.add(g, .infinity))! == (gx, gy))
        #expect(P256Curve.affine(P256Curve.add(.infinity, .infinity)) == nil)
        #expect(P256Curve.affine(P256Curve.double(.infinity)) == nil)
        // u1·G + u2·Q in one pass equals the two products added; the windows agree with doubling and adding.
        let q = P256Curve.multiply(UInt256(hex: "00000000000000000000000000000000000000000000000000000000deadbeef"), g)
        let u1 = UInt256(hex: "1111111111111111111111111111111111111111111111111111111111111111")
        let u2 = UInt256(hex: "8888888888888888888888888888888888888888888888888888888888888888")
        #expect(P256Curve.affine(P256Curve.multiplyGenerator(u1, adding: u2, times: q))!
            == P256Curve.affine(P256Curve.add(P256Curve.multiply(u1, g), P256Curve.multiply(u2, q)))!)
        var doubledAndAdded = ProjectivePoint.infinity
        for _ in 0..<17 { doubledAndAdded = P256Curve.add(doubledAndAdded, g) }
        #expect(P256Curve.affine(P256Curve.multiply(UInt256(17, 0, 0, 0), g))! == P256Curve.affine(doubledAndAdded)!)
    }

    @Test("the constant-time multiplication takes the same steps, reading the whole table, for 1, n − 1, 0, n and a random scalar")
    func sameStepsForEveryScalar() {
        var generator = SeededGenerator(state: 256)
        let random = UInt256(generator.next(), generator.next(), generator.next(), generator.next())
        var traces: [[P256Curve.Step]] = []
        for scalar in [UInt256.one, Self.nMinusOne, .zero, Self.n, random] {
            var trace: [P256Curve.Step]? = []
            _ = P256Curve.multiply(scalar, P256Curve.generator, trace: &trace)
            traces.append(trace ?? [])
        }
        let window: [P256Curve.Step] = [.double, .double, .double, .double, .select(entriesRead: 16), .add]
        #expect(traces[0] == Array((0..<64).map { _ in window }.joined()))
        #expect(traces.allSatisfy { $0 == traces[0] })
    }

    @Test("the masked table read picks each entry, and only it")
    func tableSelection() {
        let table = (0..<16).map { ProjectivePoint(x: UInt256(UInt64($0), 0, 0, 0), y: .one, z: UInt256(0, 0, 0, UInt64($0))) }
        for digit in 0..<16 {
            let chosen = P256Curve.select(from: table, digit: UInt64(digit))
            #expect(chosen.x == table[digit].x && chosen.y == .one && chosen.z == table[digit].z)
        }
    }
}
