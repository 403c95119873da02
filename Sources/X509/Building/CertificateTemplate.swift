import TLSCrypto

/// The fields of a certificate to issue with a P-256 key and ecdsa-with-SHA256: what
/// `LocalAuthority` fills in, and what a test changes to make an odd certificate (expired,
/// not a CA, an unknown critical extension).
public struct CertificateTemplate: Sendable {
    /// Positive, at most 20 bytes (RFC 5280 §4.1.2.2); `randomSerial(using:)` makes one.
    public var serialNumber: [UInt8]
    public var issuer: DistinguishedName
    public var subject: DistinguishedName
    public var notBefore: CertificateTime
    public var notAfter: CertificateTime
    public var publicKey: P256.PublicKey
    /// Written critical (RFC 5280 §4.2.1.9 asks it of a CA).
    public var basicConstraints: BasicConstraints?
    /// Written critical.
    public var keyUsage: KeyUsage?
    public var extendedKeyUsage: [OID]?
    public var subjectAlternativeNames: [GeneralName] = []
    /// The issuer's subjectKeyIdentifier, to write as authorityKeyIdentifier.
    public var authorityKeyIdentifier: [UInt8]?
    /// Written after the others, as they are.
    public var otherExtensions: [Extension] = []

    /// - Complexity: O(1).
    public init(serialNumber: [UInt8], issuer: DistinguishedName, subject: DistinguishedName, notBefore: CertificateTime,
                notAfter: CertificateTime, publicKey: P256.PublicKey) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKey = publicKey
    }

    /// 16 random bytes, the top bit clear so the INTEGER is positive without a sign byte, the
    /// first byte not zero so it keeps its length: 120 bits or more of randomness.
    /// - Complexity: O(1).
    public static func randomSerial(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        serial[0] = serial[0] & 0x7F | 0x01
        return serial
    }

    /// RFC 7093 §2's method 1: the leftmost 160 bits of SHA-256 over the key's point.
    /// - Complexity: O(1).
    public static func keyIdentifier(_ key: P256.PublicKey) -> [UInt8] { Array(SHA256.hash(key.x963Representation).prefix(20)) }

    /// The certificate, signed with `key` (ECDSA P-256 over SHA-256, the signature in DER).
    /// - Complexity: one signature, O(n) in the fields.
    public func signed(by key: P256.PrivateKey) -> Certificate {
        let algorithm = SignatureAlgorithm.ecdsa(.sha256)
        let tbs = tbsCertificate(algorithm)
        let signature = key.signature(forDigest: SHA256.hash(tbs)).derRepresentation
        var writer = DERWriter()
        writer.sequence { certificate in
            certificate.encoded(tbs)
            algorithm.write(&certificate)
            certificate.bitString(signature)
        }
        do {
            return try Certificate(der: writer.bytes)
        } catch {
            preconditionFailure("a certificate written here does not read back: \(error)")
        }
    }

    /// TBSCertificate, v3.
    private func tbsCertificate(_ algorithm: SignatureAlgorithm) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { tbs in
            tbs.constructed(.context(0, constructed: true)) { $0.integer(2) }
            tbs.integer(magnitude: serialNumber)
            algorithm.write(&tbs)
            tbs.encoded(issuer.der)
            tbs.sequence { validity in
                validity.time(notBefore)
                validity.time(notAfter)
            }
            tbs.encoded(subject.der)
            SubjectPublicKey.writeP256(publicKey.x963Representation, to: &tbs)
            tbs.constructed(.context(3, constructed: true)) { explicit in
                explicit.sequence { list in
                    for item in extensions() {
                        list.sequence { entry in
                            entry.objectIdentifier(item.oid)
                            if item.isCritical { entry.boolean(true) }
                            entry.octetString(item.value)
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The extensions in the order openssl writes them, each value its own DER.
    private func extensions() -> [Extension] {
        func encoded(_ body: (inout DERWriter) -> Void) -> [UInt8] {
            var writer = DERWriter()
            body(&writer)
            return writer.bytes
        }
        var list: [Extension] = []
        if let constraints = basicConstraints {
            list.append(Extension(oid: .basicConstraints, isCritical: true, value: encoded { writer in
                writer.sequence { fields in
                    if constraints.isCA { fields.boolean(true) }
                    if let length = constraints.pathLength { fields.integer(Int64(length)) }
                }
            }))
        }
        if let usage = keyUsage {
            list.append(Extension(oid: .keyUsage, isCritical: true, value: encoded { $0.namedBits(usage.bits) }))
        }
        if let purposes = extendedKeyUsage {
            list.append(Extension(oid: .extKeyUsage, isCritical: false, value: encoded { writer in
                writer.sequence { list in purposes.forEach { list.objectIdentifier($0) } }
            }))
        }
        if !subjectAlternativeNames.isEmpty {
            // Critical only when the subject is empty (RFC 5280 §4.2.1.6).
            list.append(Extension(oid: .subjectAltName, isCritical: subject.relativeNames.isEmpty, value: encoded { writer in
                writer.sequence { list in subjectAlternativeNames.forEach { $0.write(&list) } }
            }))
        }
        list.append(Extension(oid: .subjectKeyIdentifier, isCritical: false,
                              value: encoded { $0.octetString(Self.keyIdentifier(publicKey)) }))
        if let identifier = authorityKeyIdentifier {
            list.append(Extension(oid: .authorityKeyIdentifier, isCritical: false, value: encoded { writer in
                writer.sequence { $0.element(.context(0, constructed: false), identifier) }
            }))
        }
        return list + otherExtensions
    }
}
