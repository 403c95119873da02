import TLS
import X509

/// Judges a provider's client certificate as APNs does before it takes a request: its chain
/// to one of the CAs the team named (`--client-ca`), valid at the wall clock, for client
/// authentication; and its CertificateVerify, a signature by the certificate's key (ECDSA
/// P-256, or RSA-PSS with 2048–4096-bit keys: TLS 1.3 allows no PKCS#1 v1.5 there, though the
/// chain's certificates may be signed with it). The topic is judged later, per request.
struct ClientCertificateCheck: ClientCertificateVerifier {
    let verifier: ChainVerifier
    /// The wall clock, in seconds since the epoch: certificates are valid or not now.
    let now: @Sendable () -> Int64

    /// - Complexity: O(p · c) signature verifications for a path of p and c candidates, plus one.
    func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict {
        var certificates: [Certificate] = []
        for der in chain {
            guard let certificate = try? Certificate(der: der) else {
                return .refused(.badCertificate, reason: "a client certificate does not parse")
            }
            certificates.append(certificate)
        }
        do {
            _ = try verifier.verify(certificates[0], intermediates: Array(certificates.dropFirst()),
                                    at: CertificateTime(secondsSinceEpoch: now()), purpose: .clientAuth)
        } catch {
            return .refused(Self.alert(for: error), reason: error.description)
        }
        guard let algorithm = Self.algorithm(of: scheme) else {
            return .refused(.illegalParameter, reason: "CertificateVerify scheme 0x\(String(scheme.rawValue, radix: 16)) is not verified here")
        }
        guard certificates[0].publicKey.isValidSignature(signature, over: signedContent, algorithm: algorithm) else {
            return .refused(.decryptError, reason: "the client's CertificateVerify signature does not verify with its certificate's key")
        }
        return .accepted
    }

    /// The X.509 algorithm of a TLS 1.3 CertificateVerify scheme the server offers.
    /// - Complexity: O(1).
    static func algorithm(of scheme: SignatureScheme) -> SignatureAlgorithm? {
        switch scheme {
        case .ecdsaSecp256r1SHA256: .ecdsa(.sha256)
        case .rsaPSSRSAESHA256: .rsaPSS(.sha256, saltLength: 32)
        case .rsaPSSRSAESHA384: .rsaPSS(.sha384, saltLength: 48)
        case .rsaPSSRSAESHA512: .rsaPSS(.sha512, saltLength: 64)
        default: nil  // SignatureScheme is a code point, not an enum: every other one is refused.
        }
    }

    /// RFC 8446 §6.2's alert for a refused chain: unknown_ca when no trusted root issued it
    /// (none by its issuer's name, or one by that name whose key did not sign it: another
    /// local CA of the same name),
    /// certificate_expired for time, unsupported_certificate for its use, bad_certificate else.
    /// - Complexity: O(1).
    static func alert(for refusal: ChainRefusal) -> AlertDescription {
        switch refusal {
        case .issuerNotFound, .badSignature: .unknownCA
        case .expired, .notYetValid: .certificateExpired
        case .purposeNotAllowed, .leafMayNotSign: .unsupportedCertificate
        case .unsupportedSignatureAlgorithm, .algorithmDoesNotFitKey, .unusableIssuerKey, .issuerNotCA,
             .issuerMayNotSignCertificates, .pathLengthExceeded, .pathTooLong, .unhandledCriticalExtension:
            .badCertificate
        }
    }
}
