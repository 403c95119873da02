/// What a leaf certificate is to be used for: its extKeyUsage must allow it (when present),
/// and its keyUsage must allow signing (when present), since a TLS 1.3 peer proves its key
/// by a CertificateVerify signature.
public enum KeyPurpose: Equatable, Sendable {
    case serverAuth, clientAuth

    /// - Complexity: O(1).
    public var oid: OID {
        switch self {
        case .serverAuth: .serverAuth
        case .clientAuth: .clientAuth
        }
    }
}

/// Verifies a chain from a leaf through intermediates to a root the team trusts (RFC 5280
/// §6.1, the parts a TLS peer's chain needs): names match issuer to subject, each signature
/// verifies with its issuer's key, every certificate (the root too, as openssl does) is valid
/// at the time given, each issuer is a CA allowed to sign certificates within its path
/// length, no critical extension is left unread. Not done: revocation (CRL, OCSP), name
/// and policy constraints (a critical one is refused as not understood).
public struct ChainVerifier: Sendable {
    /// The most certificates a path may hold, leaf and root included.
    public static let maximumPathLength = 8

    public let trustedRoots: [Certificate]

    /// - Complexity: O(1).
    public init(trustedRoots: [Certificate]) { self.trustedRoots = trustedRoots }

    /// The path from `leaf` to a trusted root (leaf first), or why there is none.
    /// `intermediates` may come in any order and hold extras (the root itself, as TLS peers
    /// often send it); the first issuer whose signature verifies is taken.
    /// - Complexity: O(p · c) signature verifications at most, for a path of p and c candidates.
    public func verify(_ leaf: Certificate, intermediates: [Certificate] = [], at time: CertificateTime,
                       purpose: KeyPurpose? = nil) throws(ChainRefusal) -> [Certificate] {
        if let purpose { try Self.check(leaf, for: purpose) }
        var path = [leaf]
        var current = leaf
        while true {
            try Self.checkValidity(current, at: time)
            if let unread = current.extensions.unhandledCritical.first { throw .unhandledCriticalExtension(current.subject, unread) }
            if trustedRoots.contains(current) { return path }
            guard path.count < Self.maximumPathLength else { throw .pathTooLong }
            let issuer = try self.issuer(of: current, among: intermediates, excluding: path)
            try Self.checkIssuer(issuer, intermediatesBelow: path.count - 1, trusted: trustedRoots.contains(issuer))
            path.append(issuer)
            current = issuer
        }
    }

    /// The first certificate named as `certificate`'s issuer whose key verifies its signature:
    /// trusted roots first, then the intermediates not yet on the path.
    private func issuer(of certificate: Certificate, among intermediates: [Certificate],
                        excluding path: [Certificate]) throws(ChainRefusal) -> Certificate {
        let candidates = (trustedRoots + intermediates.filter { !path.contains($0) }).filter { $0.subject == certificate.issuer }
        var firstFailure: ChainRefusal?
        for candidate in candidates {
            guard let failure = SignatureCheck.failure(of: certificate, by: candidate) else { return candidate }
            firstFailure = firstFailure ?? failure
        }
        throw firstFailure ?? .issuerNotFound(certificate.subject, issuer: certificate.issuer)
    }

    private static func checkValidity(_ certificate: Certificate, at time: CertificateTime) throws(ChainRefusal) {
        guard time >= certificate.notBefore else { throw .notYetValid(certificate.subject, notBefore: certificate.notBefore, at: time) }
        guard time <= certificate.notAfter else { throw .expired(certificate.subject, notAfter: certificate.notAfter, at: time) }
    }

    /// An issuer must be a CA: basicConstraints cA (a v1 certificate passes only as a trusted
    /// root, as openssl lets it), keyCertSign when keyUsage is there, and a pathLenConstraint
    /// no smaller than the intermediates below it.
    private static func checkIssuer(_ issuer: Certificate, intermediatesBelow: Int, trusted: Bool) throws(ChainRefusal) {
        if let constraints = issuer.extensions.basicConstraints {
            guard constraints.isCA else { throw .issuerNotCA(issuer.subject) }
            if let allowed = constraints.pathLength, intermediatesBelow > allowed {
                throw .pathLengthExceeded(issuer.subject, allowed: allowed, found: intermediatesBelow)
            }
        } else if !(trusted && issuer.version == 1) {
            throw .issuerNotCA(issuer.subject)
        }
        if let usage = issuer.extensions.keyUsage, !usage.contains(.keyCertSign) { throw .issuerMayNotSignCertificates(issuer.subject) }
    }

    private static func check(_ leaf: Certificate, for purpose: KeyPurpose) throws(ChainRefusal) {
        if let purposes = leaf.extensions.extendedKeyUsage, !purposes.contains(purpose.oid), !purposes.contains(.anyExtendedKeyUsage) {
            throw .purposeNotAllowed(leaf.subject, purpose: purpose.oid)
        }
        if let usage = leaf.extensions.keyUsage, !usage.contains(.digitalSignature) { throw .leafMayNotSign(leaf.subject) }
    }
}

extension Certificate {
    /// Throws unless this certificate's signature verifies with `issuer`'s key (names and
    /// validity not checked: `ChainVerifier` does the rest).
    /// - Complexity: one signature verification.
    public func verifySignature(issuedBy issuer: Certificate) throws(ChainRefusal) {
        if let failure = SignatureCheck.failure(of: self, by: issuer) { throw failure }
    }
}
