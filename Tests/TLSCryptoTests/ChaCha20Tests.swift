@testable import TLSCrypto
import Testing

/// RFC 8439 §2.3.2's block function and §2.4.2's encryption; the keystream cut anywhere.
@Suite("ChaCha20: RFC 8439 §2.3.2 and §2.4.2")
struct ChaCha20Tests {
    static let key = Array(UInt8(0)...31)
    static let sunscreen = Array(("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
        + "sunscreen would be it.").utf8)

    @Test("§2.3.2: the serialized block for counter 1")
    func block() throws {
        let cipher = try #require(ChaCha20(key: Self.key))
        var block = [UInt8](repeating: 0, count: 64)
        block.withUnsafeMutableBytes { cipher.apply(nonce: nonce(hex: "000000090000004a00000000"), counter: 1, to: $0) }
        #expect(hex(block) == "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                + "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
    }

    @Test("§2.4.2: the sunscreen text encrypted from counter 1, and decrypted back")
    func encryption() throws {
        let cipher = try #require(ChaCha20(key: Self.key))
        var text = Self.sunscreen
        text.withUnsafeMutableBytes { cipher.apply(nonce: nonce(hex: "000000000000004a00000000"), counter: 1, to: $0) }
        #expect(hex(text) == "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
                + "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
                + "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
                + "5af90bbf74a35be6b40b8eedf2785e42874d")
        text.withUnsafeMutableBytes { cipher.apply(nonce: nonce(hex: "000000000000004a00000000"), counter: 1, to: $0) }
        #expect(text == Self.sunscreen)
    }

    @Test("applied in two pieces split at a block boundary, the same as whole; a 31-byte key is refused")
    func pieces() throws {
        let cipher = try #require(ChaCha20(key: Self.key))
        let n = nonce(hex: "0102030405060708090a0b0c")
        var whole = [UInt8](repeating: 0xa5, count: 200)
        whole.withUnsafeMutableBytes { cipher.apply(nonce: n, counter: 7, to: $0) }
        var pieces = [UInt8](repeating: 0xa5, count: 200)
        pieces.withUnsafeMutableBytes { bytes in
            cipher.apply(nonce: n, counter: 7, to: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<128]))
            cipher.apply(nonce: n, counter: 9, to: UnsafeMutableRawBufferPointer(rebasing: bytes[128...]))
        }
        #expect(whole == pieces)
        #expect(ChaCha20(key: Array(Self.key.dropLast())) == nil)
    }
}
