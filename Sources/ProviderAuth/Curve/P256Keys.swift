import Base

/// A P-256 public key: a point on the curve, validated when made (SEC 1 3.2.2.1), so
/// every key that exists is one a signature can be checked against.
public struct P256PublicKey: Sendable, Equatable {
    /// Plain affine coordinates, below p.
    let x: UInt256
    let y: UInt256
    /// The same point as verification uses it, converted once.
    let point: JacobianPoint

    /// A point already known to be valid (derived from a private key).
    init(validX x: UInt256, y: UInt256) {
        self.x = x
        self.y = y
        point = P256.point(x: x, y: y)
    }

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
        guard let x = UInt256(bigEndian: bytes[1..<33]), let y = UInt256(bigEndian: bytes[33..<65]),
              x < P256.p, y < P256.p, P256.isOnCurve(x: x, y: y) else { throw .publicPointNotOnCurve }
        // Cofactor 1: a point on the curve other than infinity has order n, so n·Q = O holds.
        self.init(validX: x, y: y)
    }

    /// 0x04 ‖ X ‖ Y, 65 bytes.
    /// - Complexity: O(1).
    public var x963Representation: [UInt8] { [0x04] + x.bigEndianBytes + y.bigEndianBytes }

    /// Whether `signature` (ES256's 64 bytes, r ‖ s big-endian) signs `message` (hashed
    /// here with SHA-256). Any other length, r or s out of [1, n − 1]: false.
    /// - Complexity: O(message) hashing plus O(256) point operations.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        isValidSignature(signature, digest: SHA256.digest(message))
    }

    /// `isValidSignature(_:for:)` given the SHA-256 digest instead of the message.
    func isValidSignature(_ signature: [UInt8], digest: [UInt8]) -> Bool {
        guard signature.count == 64, let r = UInt256(bigEndian: signature[0..<32]),
              let s = UInt256(bigEndian: signature[32..<64]) else { return false }
        return ECDSA.verify(digest: digest, r: r, s: s, publicKey: point)
    }

    /// The same point (the cached Montgomery form is not compared: it follows from x and y).
    /// - Complexity: O(1).
    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }
}

/// A P-256 private key: a scalar d in [1, n − 1] and its public key d·G, derived once (so
/// a `.p8` file alone is enough to check the tokens it signs).
public struct P256PrivateKey: Sendable {
    let scalar: UInt256
    /// d·G.
    public let publicKey: P256PublicKey

    /// The key of scalar d as 32 big-endian bytes (RFC 5915's privateKey octets).
    /// Refused: another length, d = 0, d ≥ n.
    /// - Complexity: O(256) point operations.
    public init(rawRepresentation bytes: [UInt8]) throws(KeyError) {
        guard let d = UInt256(bigEndian: bytes), !d.isZero, d < P256.n else { throw .privateScalarOutOfRange }
        scalar = d
        // d in [1, n − 1] and G of order n: d·G is never infinity.
        let point = P256.affine(P256.multiply(d, P256.generator))!
        publicKey = P256PublicKey(validX: point.x, y: point.y)
    }

    /// d as 32 big-endian bytes.
    /// - Complexity: O(1).
    public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

    /// The ES256 signature of `message` (SHA-256, then ECDSA with RFC 6979's k): 64 bytes,
    /// r ‖ s. Deterministic. Not constant time: for a simulator's provider and tests, not
    /// for a key on a machine an attacker can time.
    /// - Complexity: O(message) hashing plus O(256) point operations.
    public func signature(for message: [UInt8]) -> [UInt8] {
        signature(digest: SHA256.digest(message))
    }

    /// `signature(for:)` given the SHA-256 digest instead of the message.
    func signature(digest: [UInt8]) -> [UInt8] {
        let (r, s) = ECDSA.sign(digest: digest, privateKey: scalar)
        return r.bigEndianBytes + s.bigEndianBytes
    }
}
