/// What signs the server's CertificateVerify (RFC 8446 §4.4.3): the module knows no private
/// key and no X.509, only the scheme and the signature's bytes.
public protocol CertificateVerifySigner: Sendable {
    /// The scheme the signature is made with (ECDSA P-256 with SHA-256 for PushSim's certificates).
    var scheme: SignatureScheme { get }
    /// The signature of `content` (64 spaces, the context string, a zero byte and the
    /// transcript hash) as CertificateVerify carries it: for ECDSA, a DER ECDSA-Sig-Value.
    func sign(_ content: [UInt8]) -> [UInt8]
}

/// The server's certificate chain (DER, its own first) and what signs for its key.
public struct ServerCredentials: Sendable {
    public var certificateChain: [[UInt8]]
    public var signer: any CertificateVerifySigner

    /// - Complexity: O(1).
    public init(certificateChain: [[UInt8]], signer: any CertificateVerifySigner) {
        self.certificateChain = certificateChain
        self.signer = signer
    }
}

/// What a verifier says of a client's certificate and CertificateVerify.
public enum ClientCertificateVerdict: Sendable, Equatable {
    case accepted
    /// Refused: the alert to send (bad_certificate, unknown_ca, decrypt_error, …) and why.
    case refused(AlertDescription, reason: String)
}

/// Judges a client's certificate chain and its CertificateVerify: the chain against the
/// trusted CAs, and the signature by the leaf's key over `signedContent` (X.509 is another
/// module's; this one hands over the bytes).
public protocol ClientCertificateVerifier: Sendable {
    /// - Parameters:
    ///   - chain: the client's certificates, DER, its own first (never empty).
    ///   - scheme: the CertificateVerify's scheme, one the server offered.
    ///   - signature: its signature bytes.
    ///   - signedContent: what the client signed (RFC 8446 §4.4.3, "TLS 1.3, client CertificateVerify").
    func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict
}

/// Whether the server asks for a client certificate (RFC 8446 §4.3.2).
public enum ClientAuthentication: Sendable {
    case none
    /// Asked for; a client that sends none goes on unauthenticated.
    case optional(any ClientCertificateVerifier)
    /// Asked for; a client that sends none gets certificate_required.
    case required(any ClientCertificateVerifier)
}
