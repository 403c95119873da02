import Base

/// Why `serve --tls` cannot present its certificate or judge clients': one line each, naming
/// the file. A file that cannot be read or is not what it should be is the user's data
/// (exit 65); a folder serve cannot write its local CA into is the machine's (exit 1).
public enum ServeTLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read (missing, a folder, no permission).
    case unreadable(path: String, reason: String)
    /// The file holds no certificate, or a PEM block that is not one, or a certificate that
    /// does not parse.
    case badCertificates(path: String, reason: String)
    /// The key file is not a P-256 private key (PKCS#8 or SEC 1 PEM).
    case badKey(path: String, reason: String)
    /// The first certificate of the chain is not the key's.
    case keyDoesNotMatch(certificate: String, key: String)
    /// The server certificate's key is not P-256: serve signs its CertificateVerify with P-256 only.
    case notP256(path: String)
    /// A file of the local CA's folder is there but is not what serve wrote.
    case badLocalAuthority(path: String, reason: String)
    /// The local CA's folder or one of its files cannot be written: the writer's message,
    /// which names the path and the system's reason.
    case unwritable(String)

    /// Whether the fault is the machine's (exit 1) rather than a file's content (exit 65).
    /// - Complexity: O(1).
    public var isMachineFault: Bool {
        switch self {
        case .unwritable: true
        case .unreadable, .badCertificates, .badKey, .keyDoesNotMatch, .notP256, .badLocalAuthority: false
        }
    }

    /// - Complexity: O(n) in the texts.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(UserText.path(path)): \(reason)"
        case .badCertificates(let path, let reason): "\(UserText.path(path)): not a PEM certificate chain: \(reason)"
        case .badKey(let path, let reason): "\(UserText.path(path)): not a P-256 private key (PKCS#8 or SEC 1 PEM): \(reason)"
        case .keyDoesNotMatch(let certificate, let key):
            "\(UserText.path(key)): the key is not the one of the first certificate of \(UserText.path(certificate))"
        case .notP256(let path):
            "\(UserText.path(path)): the server certificate's key is not P-256 (serve signs its TLS handshake with ECDSA P-256 only)"
        case .badLocalAuthority(let path, let reason):
            "\(UserText.path(path)): \(reason); remove the folder's files and serve --tls makes a new local CA"
        case .unwritable(let message): message
        }
    }
}
