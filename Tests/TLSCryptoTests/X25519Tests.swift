import TestThreads
@testable import TLSCrypto
import TestVectors
import Testing

/// RFC 7748 §5.2's two scalar-multiplication vectors and its iterated check (1 and 1,000 times),
/// §6.1's Diffie-Hellman between Alice and Bob, and RFC 8448 §3's key exchange.
@Suite("X25519: RFC 7748 §5.2 and §6.1, RFC 8448's exchange")
struct X25519Tests {
    @Test("§5.2's two vectors (the second's u has its top bit set, which is masked)")
    func vectors() {
        #expect(X25519.scalarMultiply(
            scalar: bytes(hex: "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
            u: bytes(hex: "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")).map(hex)
            == "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")
        #expect(X25519.scalarMultiply(
            scalar: bytes(hex: "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d"),
            u: bytes(hex: "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493")).map(hex)
            == "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957")
    }

    @Test("§5.2's iteration from k = u = 9: after 1 and after 1,000", .ownThread(.computing))
    func iterated() {
        var k = X25519.basePoint, u = X25519.basePoint
        for iteration in 1...1000 {
            let next = X25519.scalarMultiply(scalar: k, u: u)!
            (u, k) = (k, next)
            if iteration == 1 { #expect(hex(k) == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079") }
        }
        #expect(hex(k) == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    @Test("§6.1: Alice's and Bob's public keys and their shared secret, from either side")
    func diffieHellman() throws {
        let alice = try #require(X25519.PrivateKey(rawRepresentation: bytes(hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")))
        let bob = try #require(X25519.PrivateKey(rawRepresentation: bytes(hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")))
        #expect(hex(alice.publicKey) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(hex(bob.publicKey) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(alice.sharedSecret(with: bob.publicKey).map(hex) == shared)
        #expect(bob.sharedSecret(with: alice.publicKey).map(hex) == shared)
    }

    @Test("RFC 8448 §3: both ephemeral keys' public halves and the shared secret the key schedule starts from")
    func rfc8448() throws {
        let client = try #require(X25519.PrivateKey(rawRepresentation: bytes(hex: RFC8448.clientPrivateKey)))
        let server = try #require(X25519.PrivateKey(rawRepresentation: bytes(hex: RFC8448.serverPrivateKey)))
        #expect(hex(client.publicKey) == RFC8448.clientPublicKey)
        #expect(hex(server.publicKey) == RFC8448.serverPublicKey)
        #expect(server.sharedSecret(with: client.publicKey).map(hex) == RFC8448.sharedSecret)
    }

    @Test("a peer's point of small order gives all zeros, which sharedSecret refuses; wrong lengths are refused")
    func refusals() throws {
        var generator = SeededGenerator(state: 7)
        let key = X25519.PrivateKey(using: &generator)
        // u = 0 and u = 1 (order 1 and 4), and p + 1 ≡ 1 written non-canonically.
        let smallOrder = [[UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31),
                          [0xee] + [UInt8](repeating: 0xff, count: 30) + [0x7f]]
        for point in smallOrder {
            #expect(X25519.scalarMultiply(scalar: key.rawRepresentation, u: point) == [UInt8](repeating: 0, count: 32))
            #expect(key.sharedSecret(with: point) == nil)
        }
        #expect(key.sharedSecret(with: [9]) == nil)
        #expect(X25519.PrivateKey(rawRepresentation: [1, 2, 3]) == nil)
        #expect(X25519.scalarMultiply(scalar: [], u: X25519.basePoint) == nil)
    }

    @Test("random key pairs agree on their secret (a ladder bug would break the symmetry)")
    func agreement() {
        var generator = SeededGenerator(state: 25519)
        for _ in 0..<16 {
            let a = X25519.PrivateKey(using: &generator), b = X25519.PrivateKey(using: &generator)
            #expect(a.sharedSecret(with: b.publicKey) == b.sharedSecret(with: a.publicKey))
        }
    }
}
