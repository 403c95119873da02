import Base
import X509

/// A P-256 key as a PEM file holds it: Apple's `.p8` (PKCS#8, RFC 5208, wrapping an
/// RFC 5915 ECPrivateKey) or a SubjectPublicKeyInfo (RFC 5480), what
/// `openssl ec -pubout` writes. Anything else is refused with a message that says what it
/// is instead.
public enum P256KeyFile: Sendable {
    /// A `-----BEGIN PRIVATE KEY-----` file: the key and the public key derived from it.
    case privateKey(P256PrivateKey)
    /// A `-----BEGIN PUBLIC KEY-----` file.
    case publicKey(P256PublicKey)

    /// The key in the PEM file `bytes`.
    /// - Complexity: O(n) in the file, plus O(256) point operations for a private key.
    public init(pem bytes: [UInt8]) throws(KeyError) {
        let block: PEMBlock
        do {
            block = try PEM.block(bytes, labels: ["PRIVATE KEY", "PUBLIC KEY"])
        } catch {
            switch error {
            case .notPEM: throw .notPEM
            case .unexpectedLabel(let label): throw .unsupportedPEMLabel(UserText.escape(label))
            case .textBefore, .missingEnd, .mismatchedEnd, .textAfter, .malformedBoundary, .badLabel, .badBase64:
                throw .malformedPEM(error.description)
            }
        }
        self = block.label == "PRIVATE KEY" ? .privateKey(try Self.privateKey(pkcs8: block.der[...]))
                                            : .publicKey(try Self.publicKey(subjectPublicKeyInfo: block.der[...]))
    }

    /// The public key, given or derived: all a token check needs.
    /// - Complexity: O(1).
    public var publicKey: P256PublicKey {
        switch self {
        case .privateKey(let key): key.publicKey
        case .publicKey(let key): key
        }
    }

    /// DER of id-ecPublicKey (1.2.840.10045.2.1) and prime256v1 (1.2.840.10045.3.1.7), contents only.
    private static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// PrivateKeyInfo { version 0, AlgorithmIdentifier, privateKey OCTET STRING, [0] attributes
    /// OPTIONAL }, the octets being ECPrivateKey { version 1, privateKey OCTET STRING (32),
    /// [0] named curve OPTIONAL, [1] public key OPTIONAL }. A stored public key must be d·G.
    /// - Complexity: O(n) plus O(256) point operations.
    package static func privateKey(pkcs8 der: ArraySlice<UInt8>) throws(KeyError) -> P256PrivateKey {
        let fields: ECPrivateKeyFields
        do { fields = try ECPrivateKeyFields(pkcs8: der) } catch { throw .malformedDER(error.description) }
        guard fields.pkcs8Version == 0 else { throw .malformedDER("the PKCS#8 version is not 0 (v1, what Apple and openssl write)") }
        if let algorithm = fields.algorithm { try check(algorithm) }
        guard fields.version == 1 else { throw .malformedDER("the ECPrivateKey version is not 1") }
        if let named = fields.curve { try curve(named) }
        let stored = try fields.point.map { point throws(KeyError) in try P256PublicKey(x963Representation: Array(point)) }
        let key = try P256PrivateKey(rawRepresentation: Array(fields.scalar))
        if let stored, stored != key.publicKey { throw .publicKeyMismatch }
        return key
    }

    /// SubjectPublicKeyInfo { AlgorithmIdentifier, subjectPublicKey BIT STRING (the point) }.
    /// - Complexity: O(n).
    package static func publicKey(subjectPublicKeyInfo der: ArraySlice<UInt8>) throws(KeyError) -> P256PublicKey {
        let algorithm: KeyAlgorithmFields
        let point: ArraySlice<UInt8>
        do throws(DERError) {
            var file = DERReader(der)
            var info = try file.sequence("SubjectPublicKeyInfo")
            try file.expectEnd("SubjectPublicKeyInfo")
            algorithm = try KeyAlgorithmFields(&info)
            point = try info.byteAlignedBitString("the subjectPublicKey")
            try info.expectEnd("SubjectPublicKeyInfo")
        } catch {
            throw .malformedDER(error.description)
        }
        try check(algorithm)
        return try P256PublicKey(x963Representation: Array(point))
    }

    /// AlgorithmIdentifier { id-ecPublicKey, namedCurve prime256v1 }.
    private static func check(_ fields: KeyAlgorithmFields) throws(KeyError) {
        guard fields.algorithm.elementsEqual(ecPublicKey) else { throw .unsupportedAlgorithm("the algorithm is \(name(fields.algorithm))") }
        guard let curve = fields.curve else { throw .unsupportedAlgorithm("explicit curve parameters, not the named curve prime256v1") }
        try self.curve(curve)
    }

    private static func curve(_ oid: ArraySlice<UInt8>) throws(KeyError) {
        guard oid.elementsEqual(prime256v1) else { throw .unsupportedAlgorithm("the curve is \(name(oid))") }
    }

    /// Well-known OIDs a wrong key file is likely to carry.
    private static let names: [String: String] = [
        "1.2.840.113549.1.1.1": "rsaEncryption", "1.2.840.10040.4.1": "DSA", "1.3.101.110": "X25519",
        "1.3.101.112": "Ed25519", "1.3.132.0.10": "secp256k1", "1.3.132.0.34": "secp384r1 (P-384)",
        "1.3.132.0.35": "secp521r1 (P-521)", "1.2.840.10045.3.1.1": "prime192v1 (P-192)", "1.3.132.0.33": "secp224r1 (P-224)",
    ]

    /// An OID's dotted form, with its name when it is a well-known one.
    static func name(_ oid: ArraySlice<UInt8>) -> String {
        // Arcs in base 128; a short OID keeps the message short and the arcs in range.
        guard !oid.isEmpty, oid.count <= 32, oid.last! & 0x80 == 0 else { return "an unreadable OID" }
        var arcs: [UInt64] = []
        var arc: UInt64 = 0
        for byte in oid {
            guard arc >> 56 == 0 else { return "an unreadable OID" }
            arc = arc << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(arc)
                arc = 0
            }
        }
        let first = min(arcs[0] / 40, 2)
        let dotted = ([first, arcs[0] - 40 * first] + arcs.dropFirst()).map(String.init).joined(separator: ".")
        return names[dotted].map { "\($0) (\(dotted))" } ?? dotted
    }
}
