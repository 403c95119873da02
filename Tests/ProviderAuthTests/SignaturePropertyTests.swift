import Foundation
import Base
@testable import ProviderAuth
import Testing

/// Random keys and messages: every signature verifies, and no changed bit does.
@Suite("ES256 signatures: a property test")
struct SignaturePropertyTests {
    /// How many keys (each signing one message): PROVIDER_AUTH_PROPERTY_CASES, default 24.
    static let cases = Int(ProcessInfo.processInfo.environment["PROVIDER_AUTH_PROPERTY_CASES"] ?? "") ?? 24

    @Test("random keys sign random messages; each verifies; a flipped bit in the signature or message, or another key, does not")
    func signAndVerify() throws {
        var generator = SplitMix64(seed: 186_4)
        var previous: P256PublicKey?
        for _ in 0..<Self.cases {
            let scalar = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // A scalar ≥ n (probability 2⁻³²) is refused; draw again.
            guard let key = try? P256PrivateKey(rawRepresentation: scalar) else { continue }
            let message = (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let signature = key.signature(for: message)
            #expect(signature.count == 64)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(key.signature(for: message) == signature, "deterministic")
            let bit = Int.random(in: 0..<512, using: &generator)
            #expect(!key.publicKey.isValidSignature(flipping(signature, bit: bit), for: message), "signature bit \(bit)")
            if !message.isEmpty {
                let messageBit = Int.random(in: 0..<(message.count * 8), using: &generator)
                #expect(!key.publicKey.isValidSignature(signature, for: flipping(message, bit: messageBit)), "message bit \(messageBit)")
            }
            if let previous { #expect(!previous.isValidSignature(signature, for: message)) }
            previous = key.publicKey
        }
    }
}
