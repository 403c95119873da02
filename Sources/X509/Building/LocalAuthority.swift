import TLSCrypto

/// A certificate and its private key, as issued, with both as PEM to write to files.
public struct IssuedCertificate: Sendable {
    public let certificate: Certificate
    public let privateKey: P256.PrivateKey

    /// The certificate as PEM.
    /// - Complexity: O(n).
    public var certificatePEM: String { certificate.pem }
    /// The key as PKCS#8 PEM.
    /// - Complexity: O(1).
    public var privateKeyPEM: String { P256KeyPEM.encode(privateKey) }
}

/// Why a local authority could not be loaded or could not issue.
public enum LocalAuthorityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key given is not the certificate's.
    case keyDoesNotMatchCertificate
    /// The certificate given is not a CA able to sign certificates, or its key is not P-256.
    case notAnAuthority(DistinguishedName)
    /// A server certificate without any name.
    case noNames
    /// A DNS name that is not letters, digits, hyphens and dots (a leading `*.` allowed).
    case badDNSName(String)
    /// An address that is neither dotted IPv4 nor IPv6 text.
    case badIPAddress(String)

    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .keyDoesNotMatchCertificate: "the CA's key does not belong to its certificate"
        case .notAnAuthority(let subject): "\"\(subject)\" is not a P-256 CA that may sign certificates"
        case .noNames: "a server certificate needs at least one DNS name or IP address"
        case .badDNSName(let name): "\"\(ShownText.escape(name))\" is not a DNS name (letters, digits, hyphens, dots)"
        case .badIPAddress(let address): "\"\(ShownText.escape(address))\" is not an IPv4 or IPv6 address"
        }
    }
}

/// A local certificate authority for a test server on loopback: a P-256 key and a self-signed
/// CA certificate, issuing server certificates for the names a client will ask for (serve's
/// APNs host names, localhost, loopback addresses) and, for tests, APNs-style client
/// certificates with `UID=<topic>`. Every certificate is signed with ECDSA P-256 over SHA-256,
/// carries a random 16-byte serial and a stated validity: from an hour before `now` (a client
/// whose clock is a little behind still accepts it) for the lifetime given.
public struct LocalAuthority: Sendable {
    /// The names `pushsim serve --tls` answers to: APNs's three hosts and loopback.
    public static let serveDNSNames = ["api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com", "localhost"]
    public static let serveIPAddresses = ["127.0.0.1", "::1"]
    /// How far before `now` a certificate's validity starts.
    public static let backdating: Int64 = 3_600
    /// The CA's lifetime by default: ten years of 365 days.
    public static let authorityLifetime: Int64 = 10 * 365 * 86_400
    /// A leaf's lifetime by default: 397 days, within the 398 that Apple's platforms accept for
    /// a TLS server certificate.
    public static let leafLifetime: Int64 = 397 * 86_400

    public let privateKey: P256.PrivateKey
    public let certificate: Certificate

    /// A new authority: a key from `generator` and a self-signed CA certificate (CA, path
    /// length 0, keyCertSign and cRLSign) named `commonName`.
    /// - Complexity: one key generation and one signature.
    public init(commonName: String = "PushSim Local CA", now: CertificateTime, lifetime: Int64 = authorityLifetime,
                using generator: inout some RandomNumberGenerator) {
        let key = P256.PrivateKey(using: &generator)
        let name = DistinguishedName([NameAttribute(.organization, "PushSim"), NameAttribute(.commonName, commonName)])
        var template = CertificateTemplate(serialNumber: CertificateTemplate.randomSerial(using: &generator), issuer: name, subject: name,
                                           notBefore: now.adding(seconds: -Self.backdating), notAfter: now.adding(seconds: lifetime),
                                           publicKey: key.publicKey)
        template.basicConstraints = BasicConstraints(isCA: true, pathLength: 0)
        template.keyUsage = [.keyCertSign, .cRLSign]
        privateKey = key
        certificate = template.signed(by: key)
    }

    /// An authority made before, from its key and certificate (as `serve --tls` reuses one).
    /// - Complexity: O(1).
    public init(privateKey: P256.PrivateKey, certificate: Certificate) throws(LocalAuthorityError) {
        guard case .p256(let point) = certificate.publicKey, certificate.extensions.basicConstraints?.isCA == true,
              certificate.extensions.keyUsage?.contains(.keyCertSign) ?? true else { throw .notAnAuthority(certificate.subject) }
        guard point == privateKey.publicKey.x963Representation else { throw .keyDoesNotMatchCertificate }
        self.privateKey = privateKey
        self.certificate = certificate
    }

    /// A server certificate (serverAuth, digitalSignature) for `dnsNames` and `ipAddresses`
    /// (text), with a new key; its subject's CN is the first name.
    /// - Complexity: one key generation and one signature.
    public func issueServerCertificate(dnsNames: [String] = serveDNSNames, ipAddresses: [String] = serveIPAddresses, now: CertificateTime,
                                       lifetime: Int64 = leafLifetime,
                                       using generator: inout some RandomNumberGenerator) throws(LocalAuthorityError) -> IssuedCertificate {
        var names: [GeneralName] = []
        for name in dnsNames {
            guard Self.isDNSName(name) else { throw .badDNSName(name) }
            names.append(.dnsName(name))
        }
        for address in ipAddresses {
            guard let bytes = IPAddressText.parse(address) else { throw .badIPAddress(address) }
            names.append(.ipAddress(bytes))
        }
        guard let first = dnsNames.first ?? ipAddresses.first else { throw .noNames }
        return issue(subject: DistinguishedName([NameAttribute(.commonName, first)]), purpose: .serverAuth, names: names, now: now,
                     lifetime: lifetime, using: &generator)
    }

    /// A client certificate shaped like Apple's APNs provider certificates: subject
    /// `UID=<topic>, CN=<commonName>` (CN by default "Apple Push Services: <topic>"),
    /// clientAuth and digitalSignature, with a new key.
    /// - Complexity: one key generation and one signature.
    public func issueClientCertificate(topic: String, commonName: String? = nil, now: CertificateTime, lifetime: Int64 = leafLifetime,
                                       using generator: inout some RandomNumberGenerator) -> IssuedCertificate {
        let subject = DistinguishedName([NameAttribute(.userID, topic), NameAttribute(.commonName, commonName ?? "Apple Push Services: \(topic)")])
        return issue(subject: subject, purpose: .clientAuth, names: [], now: now, lifetime: lifetime, using: &generator)
    }

    private func issue(subject: DistinguishedName, purpose: KeyPurpose, names: [GeneralName], now: CertificateTime, lifetime: Int64,
                       using generator: inout some RandomNumberGenerator) -> IssuedCertificate {
        let key = P256.PrivateKey(using: &generator)
        var template = CertificateTemplate(serialNumber: CertificateTemplate.randomSerial(using: &generator), issuer: certificate.subject,
                                           subject: subject, notBefore: now.adding(seconds: -Self.backdating),
                                           notAfter: now.adding(seconds: lifetime), publicKey: key.publicKey)
        template.basicConstraints = BasicConstraints(isCA: false)
        template.keyUsage = .digitalSignature
        template.extendedKeyUsage = [purpose.oid]
        template.subjectAlternativeNames = names
        template.authorityKeyIdentifier = certificate.extensions.subjectKeyIdentifier
        return IssuedCertificate(certificate: template.signed(by: privateKey), privateKey: key)
    }

    /// RFC 1123 host name characters in labels of 1–63, at most 253 in all; `*.` may lead.
    private static func isDNSName(_ name: String) -> Bool {
        let labels = (name.hasPrefix("*.") ? String(name.dropFirst(2)) : name).split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 253 && !labels.isEmpty && labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || $0 == UInt8(ascii: "-")) }
        }
    }
}
