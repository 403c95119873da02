@testable import TLSCrypto
import Testing

/// ECDH on P-256 (RFC 8446's secp256r1): NIST CAVS's ECC CDH primitive vectors
/// (KAS_ECC_CDH_PrimitiveTest.txt, [P-256], COUNT 0–2) and RFC 5903 §8.1, exact Z; points that
/// are not on the curve refused.
@Suite("P-256 ECDH: NIST CAVS ECC CDH and RFC 5903 §8.1")
struct P256ECDHTests {
    /// One CAVS record: the peer's point, our private key, the shared x-coordinate Z.
    struct Record: Sendable {
        let peerX: String, peerY: String, privateKey: String, z: String
    }

    static let cavs: [Record] = [
        Record(peerX: "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
               peerY: "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
               privateKey: "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
               z: "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"),
        Record(peerX: "809f04289c64348c01515eb03d5ce7ac1a8cb9498f5caa50197e58d43a86a7ae",
               peerY: "b29d84e811197f25eba8f5194092cb6ff440e26d4421011372461f579271cda3",
               privateKey: "38f65d6dce47676044d58ce5139582d568f64bb16098d179dbab07741dd5caf5",
               z: "057d636096cb80b67a8c038c890e887d1adfa4195e9b3ce241c8a778c59cda67"),
        Record(peerX: "a2339c12d4a03c33546de533268b4ad667debf458b464d77443636440ee7fec3",
               peerY: "ef48a3ab26e20220bcda2c1851076839dae88eae962869a497bf73cb66faf536",
               privateKey: "1accfaf1b97712b85a6f54b148985a1bdc4c9bec0bd258cad4b3d603f49f32c8",
               z: "2d457b78b4614132477618a5b077965ec90730a8c81a1c75d6d4ec68005d67ec"),
    ]

    @Test("CAVS ECC CDH [P-256] COUNT 0–2: Z exactly", arguments: 0..<3)
    func cavsRecord(_ index: Int) throws {
        let record = Self.cavs[index]
        let key = try #require(P256.PrivateKey(rawRepresentation: bytes(hex: record.privateKey)))
        let peer = try #require(P256.PublicKey(x963Representation: bytes(hex: "04" + record.peerX + record.peerY)))
        #expect(key.sharedSecret(with: peer).map(hex) == record.z)
    }

    @Test("CAVS COUNT 0: the private key's public key is QIUT")
    func cavsPublicKey() throws {
        let key = try #require(P256.PrivateKey(rawRepresentation: bytes(hex: Self.cavs[0].privateKey)))
        #expect(hex(key.publicKey.x963Representation) == "04" + "ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230"
            + "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141")
    }

    @Test("RFC 5903 §8.1: both public keys from i and r, and g^ir from both sides")
    func rfc5903() throws {
        let i = try #require(P256.PrivateKey(rawRepresentation: bytes(hex: "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433")))
        let r = try #require(P256.PrivateKey(rawRepresentation: bytes(hex: "C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53")))
        #expect(hex(i.publicKey.x963Representation) == "04" + "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180"
            + "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3")
        #expect(hex(r.publicKey.x963Representation) == "04" + "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63"
            + "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab")
        let gir = "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"
        #expect(i.sharedSecret(with: r.publicKey).map(hex) == gir)
        #expect(r.sharedSecret(with: i.publicKey).map(hex) == gir)
    }

    @Test("a point off the curve, a coordinate ≥ p, infinity, compressed, or another length is no public key")
    func invalidPoints() throws {
        let good = bytes(hex: "04" + Self.cavs[0].peerX + Self.cavs[0].peerY)
        #expect(P256.PublicKey(x963Representation: good) != nil)
        var offCurve = good
        offCurve[64] ^= 1
        #expect(P256.PublicKey(x963Representation: offCurve) == nil)
        // (0, 0) is off the curve (b ≠ 0); a coordinate equal to p is not below p.
        #expect(P256.PublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64)) == nil)
        let p = P256Curve.p.bigEndianBytes
        #expect(P256.PublicKey(x963Representation: [0x04] + p + Array(good[33...])) == nil)
        // x + p: the same residue, but not below p (only when it fits in 256 bits).
        let xPlusP = UInt256(bigEndian: good[1..<33])!.adding(P256Curve.p)
        if xPlusP.carry == 0 { #expect(P256.PublicKey(x963Representation: [0x04] + xPlusP.sum.bigEndianBytes + Array(good[33...])) == nil) }
        #expect(P256.PublicKey(x963Representation: [0x00]) == nil)
        #expect(P256.PublicKey(x963Representation: [0x02] + Array(good[1..<33])) == nil)
        #expect(P256.PublicKey(x963Representation: [0x05] + Array(good[1...])) == nil)
        #expect(P256.PublicKey(x963Representation: Array(good.dropLast())) == nil)
        #expect(P256.PublicKey(x963Representation: []) == nil)
    }

    @Test("private scalars 0, n, above n and other lengths are refused; 1 and n − 1 are keys, 1's public key is G")
    func privateScalars() throws {
        let n = P256Curve.n.bigEndianBytes
        for bad in [[UInt8](repeating: 0, count: 32), n, [UInt8](repeating: 0xFF, count: 32), [UInt8](repeating: 1, count: 31),
                    [UInt8](repeating: 1, count: 33)] {
            #expect(P256.PrivateKey(rawRepresentation: bad) == nil)
        }
        let one = try #require(P256.PrivateKey(rawRepresentation: UInt256.one.bigEndianBytes))
        #expect(hex(one.publicKey.x963Representation) == "04" + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
            + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        #expect(P256.PrivateKey(rawRepresentation: P256Curve.n.subtracting(.one).difference.bigEndianBytes) != nil)
        #expect(one.rawRepresentation == UInt256.one.bigEndianBytes)
    }

    @Test("keys from a generator: both sides of each exchange agree, and keys differ")
    func generatedKeysAgree() throws {
        var generator = SeededGenerator(state: 5903)
        var previous: [UInt8]?
        for _ in 0..<4 {
            let a = P256.PrivateKey(using: &generator), b = P256.PrivateKey(using: &generator)
            let secret = try #require(a.sharedSecret(with: b.publicKey))
            #expect(secret.count == 32 && b.sharedSecret(with: a.publicKey) == secret)
            #expect(secret != previous)
            previous = secret
        }
    }
}
