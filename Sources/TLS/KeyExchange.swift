import TLSCrypto

/// The server's ephemeral key for the chosen group (RFC 8446 §4.2.8): its share for the
/// ServerHello and the shared secret with the client's.
enum EphemeralKey {
    case x25519(X25519.PrivateKey)
    case secp256r1(P256.PrivateKey)

    /// A fresh key for `group` from 32-byte draws of `draw` (P-256 draws again in the rare
    /// case, about 2⁻³², that the bytes are not a scalar below n).
    /// - Complexity: O(1): one scalar multiplication (expected).
    static func generate(_ group: KeyExchangeGroup, draw: () -> [UInt8]) -> EphemeralKey {
        switch group {
        case .x25519:
            return .x25519(X25519.PrivateKey(rawRepresentation: draw())!)
        case .secp256r1:
            while true {
                if let key = P256.PrivateKey(rawRepresentation: draw()) { return .secp256r1(key) }
            }
        }
    }

    /// What goes in the ServerHello's key_share: 32 bytes for x25519, the uncompressed point for P-256.
    var publicKey: [UInt8] {
        switch self {
        case .x25519(let key): key.publicKey
        case .secp256r1(let key): key.publicKey.x963Representation
        }
    }

    /// The shared secret with the client's share; invalidKeyShare for a share of the wrong
    /// form, a point off the curve, or a point of small order (§4.2.8.1–2, §7.4).
    /// - Complexity: O(1): one scalar multiplication.
    func sharedSecret(with share: [UInt8]) throws(TLSFailure) -> [UInt8] {
        switch self {
        case .x25519(let key):
            guard share.count == X25519.byteCount, let secret = key.sharedSecret(with: share) else { throw .invalidKeyShare }
            return secret
        case .secp256r1(let key):
            guard let peer = P256.PublicKey(x963Representation: share), let secret = key.sharedSecret(with: peer) else {
                throw .invalidKeyShare
            }
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
