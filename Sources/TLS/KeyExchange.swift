import TLSCrypto

/// The server's ephemeral key for the chosen group (RFC 8446 §4.2.8): its share for the
/// ServerHello and the shared secret with the client's.
enum EphemeralKey {
    case x25519(X25519.PrivateKey)

    /// A fresh key for `group` from 32 bytes of `random`.
    /// - Complexity: O(1): one scalar multiplication.
    static func generate(_ group: KeyExchangeGroup, random: [UInt8]) -> EphemeralKey? {
        switch group {
        case .x25519: X25519.PrivateKey(rawRepresentation: random).map(EphemeralKey.x25519)
        case .secp256r1: nil  // P-256 arrives in TLSCrypto on branch `pk`.
        }
    }

    /// Whether TLSCrypto can make this group's keys (P-256 ECDH comes later).
    static func isAvailable(_ group: KeyExchangeGroup) -> Bool {
        switch group {
        case .x25519: true
        case .secp256r1: false
        }
    }

    var publicKey: [UInt8] {
        switch self {
        case .x25519(let key): key.publicKey
        }
    }

    /// The shared secret with the client's share; invalidKeyShare for a share of the wrong
    /// length or a point of small order (§7.4.2).
    /// - Complexity: O(1): one scalar multiplication.
    func sharedSecret(with share: [UInt8]) throws(TLSFailure) -> [UInt8] {
        switch self {
        case .x25519(let key):
            guard share.count == X25519.byteCount, let secret = key.sharedSecret(with: share) else { throw .invalidKeyShare }
            return secret
        }
    }
}

/// A share's expected length by group (§4.2.8.1–2): a wrong one is refused before any work.
func isWellFormedShare(_ share: [UInt8], for group: KeyExchangeGroup) -> Bool {
    switch group {
    case .x25519: share.count == 32
    case .secp256r1: share.count == 65 && share[0] == 4
    }
}
