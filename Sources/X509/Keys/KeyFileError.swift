/// Why a P-256 private key file was refused: its armor, its label, its DER, or its values.
public enum KeyFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case pem(PEMError)
    /// A PEM block other than PRIVATE KEY (PKCS#8) or EC PRIVATE KEY (SEC 1): its label.
    case unsupportedLabel(String)
    case malformed(DERError)
    /// A key of another algorithm or curve, or explicit curve parameters.
    case notP256
    /// A PKCS#8 version other than 0, or an ECPrivateKey version other than 1.
    case unsupportedVersion
    /// A scalar not 32 bytes in [1, n − 1].
    case scalarOutOfRange
    /// A stored public key that is not the private scalar's, or not a point of P-256.
    case publicKeyMismatch

    /// One line naming what is wrong.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .pem(let error): "broken PEM armor: \(error)"
        case .unsupportedLabel(let label): "a \(PEMError.cut(label)) block, expected PRIVATE KEY (PKCS#8) or EC PRIVATE KEY (SEC 1)"
        case .malformed(let error): "the key's DER structure is broken: \(error)"
        case .notP256: "not a P-256 (prime256v1) EC key"
        case .unsupportedVersion: "a key structure of another version than PKCS#8 v1 or ECPrivateKey v1"
        case .scalarOutOfRange: "the private key is not a P-256 scalar (32 bytes, from 1 to n − 1)"
        case .publicKeyMismatch: "the key file's public key does not belong to its private key"
        }
    }
}
