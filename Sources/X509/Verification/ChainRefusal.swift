/// Why a certificate chain was refused: every reason the verifier gives, declared once, each
/// naming the certificate concerned by its subject (escaped, so a message may repeat it).
public enum ChainRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Its notAfter is before the time of the check.
    case expired(DistinguishedName, notAfter: CertificateTime, at: CertificateTime)
    /// Its notBefore is after the time of the check.
    case notYetValid(DistinguishedName, notBefore: CertificateTime, at: CertificateTime)
    /// No trusted root and no intermediate given has its issuer's name as subject.
    case issuerNotFound(DistinguishedName, issuer: DistinguishedName)
    /// Its issuer's key does not verify its signature.
    case badSignature(DistinguishedName, issuer: DistinguishedName)
    /// Signed with an algorithm this module does not verify.
    case unsupportedSignatureAlgorithm(DistinguishedName, SignatureAlgorithm)
    /// Signed with an algorithm of another family than its issuer's key (RSA over an EC key …).
    case algorithmDoesNotFitKey(DistinguishedName, SignatureAlgorithm, issuerKey: SubjectPublicKey)
    /// The issuer's key cannot be used: a point off the curve, an RSA key out of range, another algorithm.
    case unusableIssuerKey(DistinguishedName, issuerKey: SubjectPublicKey)
    /// It issued a certificate but is not a CA (no basicConstraints cA, or a v1/v2 intermediate).
    case issuerNotCA(DistinguishedName)
    /// It issued a certificate but its keyUsage lacks keyCertSign.
    case issuerMayNotSignCertificates(DistinguishedName)
    /// More intermediates below it than its pathLenConstraint allows.
    case pathLengthExceeded(DistinguishedName, allowed: Int, found: Int)
    /// More certificates in the path than `ChainVerifier.maximumPathLength`.
    case pathTooLong
    /// A critical extension this module does not understand (RFC 5280 §4.2: refuse it).
    case unhandledCriticalExtension(DistinguishedName, OID)
    /// The leaf's extKeyUsage does not allow the purpose asked for.
    case purposeNotAllowed(DistinguishedName, purpose: OID)
    /// The leaf's keyUsage lacks digitalSignature, which a TLS peer's key signs with.
    case leafMayNotSign(DistinguishedName)

    /// One line naming the certificate and what is wrong with it.
    /// - Complexity: O(n) in the names.
    public var description: String {
        switch self {
        case .expired(let subject, let notAfter, let time):
            "the certificate \"\(subject)\" expired at \(notAfter) (checked at \(time))"
        case .notYetValid(let subject, let notBefore, let time):
            "the certificate \"\(subject)\" is not valid before \(notBefore) (checked at \(time))"
        case .issuerNotFound(let subject, let issuer):
            "the issuer \"\(issuer)\" of \"\(subject)\" is neither a trusted root nor among the certificates given"
        case .badSignature(let subject, let issuer):
            "the signature on \"\(subject)\" does not verify with the key of \"\(issuer)\""
        case .unsupportedSignatureAlgorithm(let subject, let algorithm):
            "\"\(subject)\" is signed with \(algorithm), which is not verified here (ECDSA P-256, RSA PKCS #1 v1.5 or PSS with SHA-2 are)"
        case .algorithmDoesNotFitKey(let subject, let algorithm, let key):
            "\"\(subject)\" is signed with \(algorithm) but its issuer's key is \(key)"
        case .unusableIssuerKey(let subject, let key):
            "the issuer of \"\(subject)\" has a \(key) key that cannot verify (off the curve, out of range, or unsupported)"
        case .issuerNotCA(let issuer):
            "\"\(issuer)\" issued a certificate but is not a CA (basicConstraints cA is not true)"
        case .issuerMayNotSignCertificates(let issuer):
            "\"\(issuer)\" issued a certificate but its keyUsage lacks keyCertSign"
        case .pathLengthExceeded(let issuer, let allowed, let found):
            "\"\(issuer)\" allows \(allowed) intermediate(s) below it (pathLenConstraint), the chain has \(found)"
        case .pathTooLong:
            "the chain is longer than \(ChainVerifier.maximumPathLength) certificates"
        case .unhandledCriticalExtension(let subject, let oid):
            "\"\(subject)\" has a critical extension \(oid) that is not understood here"
        case .purposeNotAllowed(let subject, let purpose):
            "\"\(subject)\"'s extKeyUsage does not allow \(purpose)"
        case .leafMayNotSign(let subject):
            "\"\(subject)\"'s keyUsage lacks digitalSignature"
        }
    }
}
