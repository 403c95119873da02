import TLSCrypto

/// A P-256 public key as APNs holds a provider's: TLSCrypto's point, validated on the curve when
/// made (SEC 1 §3.2.2.1), with the reasons a key file's point is refused and ES256's
/// verification of a message (SHA-256, then ECDSA).
public struct P256PublicKey: Sendable, Equatable {
    /// The point, as TLSCrypto computes with it.
    let key: P256.PublicKey

    /// The key of an uncompressed SEC 1 point, 0x04 ‖ X ‖ Y (65 bytes): what a
    /// SubjectPublicKeyInfo and a PKCS#8 file hold. Refused: another length or form
    /// (compressed, infinity), a coordinate not below p, a point off the curve.
    /// - Complexity: O(1).
    public init(x963Representation bytes: [UInt8]) throws(KeyError) {
        guard bytes.count == 65, bytes[0] == 0x04 else {
            switch bytes.first {
            case 0x00 where bytes.count == 1: throw .publicPointEncoding("the point at infinity is no key")
            case 0x02, 0x03: throw .publicPointEncoding("a compressed point (write the key uncompressed, openssl's default)")
            default: throw .publicPointEncoding("\(bytes.count) bytes, expected 65: 0x04 then X and Y")
            }
        }
        // The form is right, so TLSCrypto refuses only a coordinate ≥ p or a point off the curve.
        guard let key = P256.PublicKey(x963Representation: bytes) else { throw .publicPointNotOnCurve }
        self.key = key
    }

    /// A key TLSCrypto already validated (a private key's).
    init(_ key: P256.PublicKey) {
        self.key = key
    }

    /// 0x04 ‖ X ‖ Y, 65 bytes.
    /// - Complexity: O(1).
    public var x963Representation: [UInt8] { key.x963Representation }

    /// Whether `signature` (ES256's 64 bytes, r ‖ s big-endian) signs `message` (hashed here
    /// with SHA-256). Any other length, r or s out of [1, n − 1]: false.
    /// - Complexity: O(message) hashing plus O(256) point operations.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        signature.count == 2 * P256.byteCount
            && key.isValidSignature(P256.Signature(rawRepresentation: signature), forDigest: SHA256.hash(message))
    }
}

/// A P-256 private key: a scalar d in [1, n − 1] and its public key d·G, derived once (so a
/// `.p8` file alone is enough to check the tokens it signs).
public struct P256PrivateKey: Sendable {
    /// The scalar and its public key, as TLSCrypto computes with them.
    let key: P256.PrivateKey
    /// d·G.
    public let publicKey: P256PublicKey

    /// The key of scalar d as 32 big-endian bytes (RFC 5915's privateKey octets).
    /// Refused: another length, d = 0, d ≥ n.
    /// - Complexity: O(1): one scalar multiplication.
    public init(rawRepresentation bytes: [UInt8]) throws(KeyError) {
        guard let key = P256.PrivateKey(rawRepresentation: bytes) else { throw .privateScalarOutOfRange }
        self.key = key
        publicKey = P256PublicKey(key.publicKey)
    }

    /// d as 32 big-endian bytes.
    /// - Complexity: O(1).
    public var rawRepresentation: [UInt8] { key.rawRepresentation }

    /// The ES256 signature of `message` (SHA-256, then ECDSA with RFC 6979's k): 64 bytes,
    /// r ‖ s. Deterministic; constant time in the key and the nonce (docs/tls.md).
    /// - Complexity: O(message) hashing plus one scalar multiplication.
    public func signature(for message: [UInt8]) -> [UInt8] {
        key.signature(forDigest: SHA256.hash(message)).rawRepresentation
    }
}
