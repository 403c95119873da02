@testable import ProviderAuth
import Testing

/// ProviderAuth's P-256 keys over TLSCrypto's: the reason each refused point or scalar is
/// given (the arithmetic and its vectors are TLSCryptoTests' P256 suites).
@Suite("P-256 keys: what a key file's point or scalar is refused for")
struct P256KeyTests {
    /// The group order n, big-endian.
    static let n = bytes(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    @Test("public keys: off the curve, a coordinate ≥ p, compressed, infinity and other lengths are refused with their reason")
    func publicKeyValidation() throws {
        let key = try P256PrivateKey(rawRepresentation: bytes(hex: ECDSAVectorTests.rfc6979Key)).publicKey
        let good = key.x963Representation
        #expect(try P256PublicKey(x963Representation: good) == key)
        #expect(throws: KeyError.publicPointNotOnCurve) { try P256PublicKey(x963Representation: flipping(good, bit: 8 * 64 + 7)) }
        let p = bytes(hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        #expect(throws: KeyError.publicPointNotOnCurve) { try P256PublicKey(x963Representation: [0x04] + p + Array(good[33...])) }
        #expect(throws: KeyError.publicPointEncoding("a compressed point (write the key uncompressed, openssl's default)")) {
            try P256PublicKey(x963Representation: [0x02] + Array(good[1..<33]))
        }
        #expect(throws: KeyError.publicPointEncoding("the point at infinity is no key")) { try P256PublicKey(x963Representation: [0x00]) }
        #expect(throws: KeyError.publicPointEncoding("0 bytes, expected 65: 0x04 then X and Y")) { try P256PublicKey(x963Representation: []) }
        #expect(throws: KeyError.publicPointNotOnCurve) { try P256PublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64)) }
    }

    @Test("private scalars: 0, n, above n and other lengths are refused; 1 and n − 1 are keys")
    func privateScalars() throws {
        for bad in [[UInt8](repeating: 0, count: 32), Self.n, [UInt8](repeating: 0xFF, count: 32),
                    [UInt8](repeating: 1, count: 31), [UInt8](repeating: 1, count: 33)] {
            #expect(throws: KeyError.privateScalarOutOfRange) { try P256PrivateKey(rawRepresentation: bad) }
        }
        let one = try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1])
        #expect(hex(one.publicKey.x963Representation) == "04" + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
            + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        var nMinusOne = Self.n
        nMinusOne[31] -= 1
        #expect(try P256PrivateKey(rawRepresentation: nMinusOne).rawRepresentation == nMinusOne)
    }
}
