/// Why a key, a key file or a key's identifiers were refused: one line naming what was
/// found and, where a common mistake explains it, how to fix it. Every associated string
/// is already escaped and cut (`UserText`) by whoever throws: it may repeat file text.
public enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A private scalar not 32 bytes, zero, or not below the group order n.
    case privateScalarOutOfRange
    /// A public point not in the uncompressed 65-byte form; what it was instead.
    case publicPointEncoding(String)
    /// A public point with a coordinate not below p, or not on the curve.
    case publicPointNotOnCurve
    /// No `-----BEGIN …-----` line.
    case notPEM
    /// A PEM block of another kind (its label, escaped), with a hint when one helps.
    case unsupportedPEMLabel(String)
    /// Broken armor: what is wrong with it.
    case malformedPEM(String)
    /// The DER inside does not have the structure of the key: what was expected where.
    case malformedDER(String)
    /// A key of another algorithm or curve: which (its OID, named when well known).
    case unsupportedAlgorithm(String)
    /// A PKCS#8 file whose stored public key is not d·G for its private key.
    case publicKeyMismatch
    /// A team id or key id that is not Apple's 10 characters of A–Z and 0–9: which, as typed.
    case badIdentifier(kind: String, value: String)
    /// Two accepted keys with one key id.
    case duplicateKeyID(String)

    /// One line naming what is wrong and, for a common near miss, the fix.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .privateScalarOutOfRange:
            "the private key is not a P-256 scalar (32 bytes, from 1 to n − 1)"
        case .publicPointEncoding(let what):
            "the public key is not an uncompressed P-256 point: \(what)"
        case .publicPointNotOnCurve:
            "the public key is not a point of P-256"
        case .notPEM:
            "not a PEM key file: no -----BEGIN line (expected PRIVATE KEY, as Apple's .p8 file, or PUBLIC KEY)"
        case .unsupportedPEMLabel(let label):
            "a \(label) block, expected PRIVATE KEY (Apple's .p8 file) or PUBLIC KEY" + hint(label)
        case .malformedPEM(let what):
            "broken PEM armor: \(what)"
        case .malformedDER(let what):
            "the key's DER structure is broken: \(what)"
        case .unsupportedAlgorithm(let what):
            "not a P-256 (prime256v1) EC key: \(what)"
        case .publicKeyMismatch:
            "the key file's public key does not belong to its private key"
        case .badIdentifier(let kind, let value):
            "the \(kind) \(value) is not 10 characters of A–Z and 0–9, as Apple's are"
        case .duplicateKeyID(let keyID):
            "the key id \(keyID) is given twice"
        }
    }

    /// How to convert the common near misses `openssl` writes.
    private func hint(_ label: String) -> String {
        switch label {
        case "EC PRIVATE KEY", "EC PARAMETERS":
            "; convert a SEC 1 key with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.p8"
        case "ENCRYPTED PRIVATE KEY":
            "; decrypt it with: openssl pkcs8 -in KEY -out KEY.p8"
        default:
            ""
        }
    }
}
