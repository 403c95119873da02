/// Why bytes were refused as a certificate: broken armor, another kind of PEM block, or DER
/// that is not RFC 5280's structure (which element, what was wrong).
public enum CertificateError: Error, Equatable, Sendable, CustomStringConvertible {
    case pem(PEMError)
    /// A PEM block whose label is not CERTIFICATE (the label).
    case notACertificate(label: String)
    case malformed(DERError)

    /// One line naming what is wrong.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .pem(let error): "broken PEM armor: \(error)"
        case .notACertificate(let label): "a \(PEMError.cut(label)) block, expected CERTIFICATE"
        case .malformed(let error): "not an X.509 certificate: \(error)"
        }
    }
}
