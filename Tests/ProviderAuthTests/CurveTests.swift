@testable import Base
@testable import ProviderAuth
import Testing

/// The arithmetic under ECDSA: 256-bit integers, the two Montgomery fields, the curve.
@Suite("P-256 arithmetic")
struct CurveTests {
    @Test("bytes round-trip through limbs, most significant byte first")
    func bytesRoundTrip() {
        let value = UInt256(hex: "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
        #expect(value.w3 == 0x0102030405060708 && value.w0 == 0x191a1b1c1d1e1f20)
        #expect(hex(value.bigEndianBytes) == "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
        #expect(UInt256(bigEndian: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(UInt256(bigEndian: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test("carries and borrows cross every limb")
    func carries() {
        let allOnes = UInt256(.max, .max, .max, .max)
        #expect(allOnes.addingReportingCarry(.one) == (.zero, true))
        #expect(UInt256.zero.subtractingReportingBorrow(.one) == (allOnes, true))
        #expect(UInt256(0, 0, 0, 1).subtractingReportingBorrow(.one) == (UInt256(.max, .max, .max, 0), false))
    }

    @Test("each field: (m − 1)² = 1, a·a⁻¹ = 1, Fermat, and entering and leaving Montgomery form", arguments: [P256.p, P256.n])
    func field(_ modulus: UInt256) {
        let field = MontgomeryField(modulus: modulus)
        let minusOne = field.enter(modulus.subtractingReportingBorrow(.one).difference)
        #expect(field.leave(field.square(minusOne)) == .one)
        var generator = SplitMix64(seed: 6979)
        for _ in 0..<8 {
            let a = UInt256(generator.next(), generator.next(), generator.next(), generator.next() >> 1)
            let inMontgomery = field.enter(a)
            #expect(field.leave(inMontgomery) == a)
            #expect(field.leave(field.multiply(inMontgomery, field.inverse(inMontgomery))) == .one)
            #expect(field.leave(field.add(inMontgomery, field.subtract(.zero, inMontgomery))) == .zero)
        }
        // 2²⁵⁶ − 1 enters reduced: the same as (2²⁵⁶ − 1) − m.
        let allOnes = UInt256(.max, .max, .max, .max)
        #expect(field.leave(field.enter(allOnes)) == allOnes.subtractingReportingBorrow(modulus).difference)
    }

    @Test("G is on the curve; 2G by doubling, adding and multiplying agree with its known value; n·G is infinity; (n − 1)·G is −G")
    func group() throws {
        let g = P256.generator
        let gx = UInt256(hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
        let gy = UInt256(hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        #expect(P256.isOnCurve(x: gx, y: gy))
        #expect(!P256.isOnCurve(x: gx, y: gx))
        let twoG = try #require(P256.affine(P256.double(g)))
        #expect(twoG.x == UInt256(hex: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978"))
        #expect(twoG.y == UInt256(hex: "07775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1"))
        #expect(P256.affine(P256.add(g, g))! == twoG)
        #expect(P256.affine(P256.multiply(UInt256(2, 0, 0, 0), g))! == twoG)
        #expect(P256.affine(P256.multiply(P256.n, g)) == nil)
        let minusG = try #require(P256.affine(P256.multiply(P256.n.subtractingReportingBorrow(.one).difference, g)))
        #expect(minusG.x == gx && minusG.y == P256.p.subtractingReportingBorrow(gy).difference)
        #expect(P256.affine(P256.add(g, P256.point(x: minusG.x, y: minusG.y))) == nil)
        #expect(P256.affine(P256.add(.infinity, g))! == (gx, gy))
        // u1·G + u2·Q in one pass equals the two products added.
        let q = P256.multiply(UInt256(hex: "00000000000000000000000000000000000000000000000000000000deadbeef"), g)
        let u1 = UInt256(hex: "1111111111111111111111111111111111111111111111111111111111111111")
        let u2 = UInt256(hex: "8888888888888888888888888888888888888888888888888888888888888888")
        #expect(P256.affine(P256.multiplyGenerator(u1, adding: u2, times: q))!
            == P256.affine(P256.add(P256.multiply(u1, g), P256.multiply(u2, q)))!)
    }

    @Test("public keys: off the curve, a coordinate ≥ p, compressed, infinity and other lengths are refused")
    func publicKeyValidation() throws {
        let key = try P256PrivateKey(rawRepresentation: bytes(hex: ECDSAVectorTests.rfc6979Key)).publicKey
        let good = key.x963Representation
        #expect(try P256PublicKey(x963Representation: good) == key)
        #expect(throws: KeyError.publicPointNotOnCurve) { try P256PublicKey(x963Representation: flipping(good, bit: 8 * 64 + 7)) }
        // x + p: the same residue, but not below p.
        let xPlusP = UInt256(bigEndian: good[1..<33])!.addingReportingCarry(P256.p)
        if !xPlusP.carry {
            #expect(throws: KeyError.publicPointNotOnCurve) {
                try P256PublicKey(x963Representation: [0x04] + xPlusP.sum.bigEndianBytes + Array(good[33...]))
            }
        }
        #expect(throws: KeyError.self) { try P256PublicKey(x963Representation: [0x02] + Array(good[1..<33])) }
        #expect(throws: KeyError.self) { try P256PublicKey(x963Representation: [0x00]) }
        #expect(throws: KeyError.self) { try P256PublicKey(x963Representation: []) }
        #expect(throws: KeyError.publicPointNotOnCurve) { try P256PublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64)) }
    }

    @Test("private scalars: 0, n, above n and other lengths are refused; 1 and n − 1 are keys")
    func privateScalars() throws {
        for bad in [[UInt8](repeating: 0, count: 32), P256.n.bigEndianBytes, [UInt8](repeating: 0xFF, count: 32),
                    [UInt8](repeating: 1, count: 31), [UInt8](repeating: 1, count: 33)] {
            #expect(throws: KeyError.privateScalarOutOfRange) { try P256PrivateKey(rawRepresentation: bad) }
        }
        let one = try P256PrivateKey(rawRepresentation: UInt256.one.bigEndianBytes)
        #expect(one.publicKey == P256PublicKey(validX: P256.affine(P256.generator)!.x, y: P256.affine(P256.generator)!.y))
        _ = try P256PrivateKey(rawRepresentation: P256.n.subtractingReportingBorrow(.one).difference.bigEndianBytes)
    }
}

/// Base's SHA-256 as bytes, and HMAC-SHA256 on it (RFC 4231's test cases).
@Suite("SHA-256 and HMAC-SHA256")
struct HMACTests {
    @Test("SHA-256 of \"abc\" and of nothing (FIPS 180-4 examples)")
    func sha256() {
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("RFC 4231 test cases 1, 2 and 6 (a key longer than a block is hashed first)", arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func rfc4231(key: [UInt8], data: String, code: String) {
        #expect(hex(HMACSHA256.code(key: key, message: Array(data.utf8))) == code)
    }
}
