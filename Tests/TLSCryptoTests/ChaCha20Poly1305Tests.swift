@testable import TLSCrypto
import Testing

/// RFC 8439 §2.6.2's one-time key, §2.8.2's AEAD example and Appendix A.5's decryption.
@Suite("ChaCha20-Poly1305: RFC 8439 §2.6.2, §2.8.2 and A.5")
struct ChaCha20Poly1305Tests {
    @Test("§2.6.2: Poly1305's key is the first 32 bytes of block 0")
    func oneTimeKey() throws {
        let cipher = try #require(ChaCha20(key: bytes(hex: "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")))
        let block = cipher.block(nonce: nonce(hex: "000000000001020304050607"), counter: 0)
        let key = withUnsafeBytes(of: block) { Array($0.prefix(32)) }
        #expect(hex(key) == "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646")
    }

    @Test("§2.8.2: the sunscreen text sealed, byte for byte, and opened")
    func seal() throws {
        let aead = try #require(ChaCha20Poly1305(key: bytes(hex: "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")))
        let n = nonce(hex: "070000004041424344454647"), aad = bytes(hex: "50515253c0c1c2c3c4c5c6c7")
        let sealed = aead.seal(nonce: n, additionalData: aad, plaintext: ChaCha20Tests.sunscreen)
        #expect(hex(sealed) == "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
                + "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
                + "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
                + "3ff4def08e4b7a9de576d26586cec64b6116"
                + "1ae10b594f09e26a7e902ecbd0600691")
        #expect(aead.open(nonce: n, additionalData: aad, sealed: sealed) == ChaCha20Tests.sunscreen)
    }

    @Test("A.5: the Internet-Draft text decrypted from its ciphertext and tag")
    func decryption() throws {
        let aead = try #require(ChaCha20Poly1305(key: bytes(hex: "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0")))
        let sealed = bytes(hex: """
            64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43eea09ee94e382d26b0
            bdb7b73c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855
            9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4b9166c767b804d46a59b5216cde7a4e9
            9040c5a40433225ee282a1b0a06c523eaf4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a
            0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a1049e617d91d361094fa68f0ff77987130
            305beaba2eda04df997b714d6c6f2c29a6ad5cb4022b02709b
            eead9d67890cbb22392336fea1851f38
            """)
        let opened = aead.open(nonce: nonce(hex: "000000000102030405060708"), additionalData: bytes(hex: "f33388860000000000004e91"),
                               sealed: sealed)
        let text = "Internet-Drafts are draft documents valid for a maximum of six months and may be updated, replaced, "
            + "or obsoleted by other documents at any time. It is inappropriate to use Internet-Drafts as reference "
            + "material or to cite them other than as /\u{201C}work in progress./\u{201D}"
        #expect(opened == Array(text.utf8))
    }
}
