import ProviderAuth
import Testing

/// ES256 as ProviderAuth signs and verifies it: SHA-256 of the message, then TLSCrypto's ECDSA
/// (whose NIST CAVP and RFC 6979 vectors are TLSCryptoTests' P256ECDSATests), in JWS's 64-byte
/// r ‖ s.
@Suite("ES256: RFC 6979's signatures over messages, r ‖ s")
struct ECDSAVectorTests {
    /// RFC 6979 A.2.5's P-256 private key.
    static let rfc6979Key = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"

    @Test("RFC 6979 A.2.5 with SHA-256: \"sample\" and \"test\" sign to r ‖ s exactly, and verify", arguments: [
        ("sample", "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
            + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
        ("test", "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367"
            + "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
    ])
    func rfc6979(message: String, signature: String) throws {
        let key = try P256PrivateKey(rawRepresentation: bytes(hex: Self.rfc6979Key))
        #expect(hex(key.signature(for: Array(message.utf8))) == signature)
        #expect(key.publicKey.isValidSignature(bytes(hex: signature), for: Array(message.utf8)))
    }

    @Test("a signature of another length than 64 bytes, or with r or s zero or n, is refused")
    func lengthsAndRanges() throws {
        let key = try P256PrivateKey(rawRepresentation: bytes(hex: Self.rfc6979Key))
        let message = Array("sample".utf8)
        let good = key.signature(for: message)
        let zero = [UInt8](repeating: 0, count: 32), n = P256KeyTests.n
        for bad in [zero + Array(good[32...]), Array(good[..<32]) + zero, n + Array(good[32...]), Array(good[..<32]) + n,
                    Array(good.dropLast()), good + [0], [], [UInt8](repeating: 0xFF, count: 64)] {
            #expect(!key.publicKey.isValidSignature(bad, for: message))
        }
    }
}
