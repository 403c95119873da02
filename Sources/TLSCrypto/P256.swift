/// P-256 (secp256r1): TLS 1.3's secp256r1 group (ECDH, RFC 8446 §4.2.8.2) and its
/// ecdsa_secp256r1_sha256 signatures, which X.509 certificates and CertificateVerify carry; and
/// ES256, APNs' provider tokens. For PushSim's test server on loopback (docs/tls.md).
///
/// Constant time where a secret is handled: the private scalar and a signature's nonce only ever
/// meet `P256Curve.multiply` (fixed windows, masked table reads, complete formulas), Montgomery
/// products with masked reductions and Fermat inversions with a fixed chain. Verification and
/// key validation handle public values and may take variable time.
public enum P256 {
    /// The length of a scalar, a coordinate and a shared secret in bytes.
    public static let byteCount = 32

    /// A P-256 public key: a point on the curve, validated when made (SEC 1 §3.2.2.1), so every
    /// key that exists is one a signature can be checked against and an exchange can use.
    public struct PublicKey: Sendable, Equatable {
        /// Plain affine coordinates, below p.
        let x: UInt256
        let y: UInt256
        /// The same point as the arithmetic uses it, converted once.
        let point: ProjectivePoint

        /// A point already known to be valid (derived from a private key).
        init(validX x: UInt256, y: UInt256) {
            self.x = x
            self.y = y
            point = P256Curve.point(x: x, y: y)
        }

        /// The key of an uncompressed SEC 1 point, 0x04 ‖ X ‖ Y (65 bytes): what a key_share, a
        /// SubjectPublicKeyInfo and a PKCS#8 file hold. Nil for another length or form
        /// (compressed, infinity), a coordinate not below p, or a point off the curve (cofactor 1:
        /// any other point has order n, so an invalid-curve point is all there is to refuse).
        /// - Complexity: O(1).
        public init?(x963Representation bytes: [UInt8]) {
            guard bytes.count == 65, bytes[0] == 0x04, let x = UInt256(bigEndian: bytes[1..<33]),
                  let y = UInt256(bigEndian: bytes[33..<65]), x < P256Curve.p, y < P256Curve.p,
                  P256Curve.isOnCurve(x: x, y: y) else { return nil }
            self.init(validX: x, y: y)
        }

        /// 0x04 ‖ X ‖ Y, 65 bytes.
        /// - Complexity: O(1).
        public var x963Representation: [UInt8] { [0x04] + x.bigEndianBytes + y.bigEndianBytes }

        /// Whether `signature` signs `digest` (its leftmost 256 bits, SEC 1 §4.1.4: a SHA-256
        /// digest whole, a SHA-384 one cut). False for r or s outside [1, n − 1] or not 32 bytes.
        /// Variable time: every input is public.
        /// - Complexity: O(256) point operations.
        public func isValidSignature(_ signature: Signature, forDigest digest: [UInt8]) -> Bool {
            guard let r = UInt256(bigEndian: signature.r), let s = UInt256(bigEndian: signature.s) else { return false }
            return ECDSA.verify(digest: digest, r: r, s: s, publicKey: point)
        }

        /// The same point (the cached Montgomery form is not compared: it follows from x and y).
        /// - Complexity: O(1).
        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }
    }

    /// A P-256 private key: a scalar d in [1, n − 1] and its public key d·G, derived once.
    public struct PrivateKey: Sendable {
        let scalar: UInt256
        /// d·G.
        public let publicKey: PublicKey

        /// The key of scalar d as 32 big-endian bytes (RFC 5915's privateKey octets). Nil for
        /// another length, d = 0 or d ≥ n (tested by masks, not by comparing limb by limb).
        /// - Complexity: O(1): one constant-time scalar multiplication.
        public init?(rawRepresentation bytes: [UInt8]) {
            guard let d = UInt256(bigEndian: bytes), ~d.isZeroMask & d.belowMask(P256Curve.n) != 0 else { return nil }
            scalar = d
            // d in [1, n − 1] and G of order n: d·G is never infinity.
            let point = P256Curve.affine(P256Curve.multiply(d, P256Curve.generator))!
            publicKey = PublicKey(validX: point.x, y: point.y)
        }

        /// A fresh key from `generator` (a server's ephemeral key: the system's generator, which
        /// draws from the kernel's; a test's seeded one): 256 random bits, drawn again in the
        /// rare case (about 2⁻³²) they are 0 or not below n.
        /// - Complexity: O(1): one scalar multiplication.
        public init(using generator: inout some RandomNumberGenerator) {
            while true {
                let candidate = UInt256(generator.next(), generator.next(), generator.next(), generator.next())
                if let key = PrivateKey(rawRepresentation: candidate.bigEndianBytes) {
                    self = key
                    return
                }
            }
        }

        /// d as 32 big-endian bytes.
        /// - Complexity: O(1).
        public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

        /// The ECDH shared secret with `peer` (RFC 8446 §7.4.2: the x-coordinate of d·Q, 32
        /// bytes big-endian); nil if d·Q is the point at infinity, which a validated key of a
        /// prime-order curve never gives. Constant time in d.
        /// - Complexity: O(1): one scalar multiplication and one inversion.
        public func sharedSecret(with peer: PublicKey) -> [UInt8]? {
            P256Curve.affine(P256Curve.multiply(scalar, peer.point)).map(\.x.bigEndianBytes)
        }

        /// The ECDSA signature of `digest` (its leftmost 256 bits; a SHA-256 digest whole) with k
        /// from RFC 6979 (HMAC-SHA-256): deterministic, the same key and digest give the same
        /// signature. Constant time in the key and the nonce.
        /// - Complexity: O(1): one scalar multiplication, two inversions, a few HMACs.
        public func signature(forDigest digest: [UInt8]) -> Signature {
            let (r, s) = ECDSA.sign(digest: digest, privateKey: scalar)
            return Signature(r: r.bigEndianBytes, s: s.bigEndianBytes)
        }
    }
}
