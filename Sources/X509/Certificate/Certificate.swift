/// An X.509 v1–v3 certificate (RFC 5280 §4.1), read from DER, with the exact bytes its
/// signature covers.
public struct Certificate: Equatable, Sendable, CustomStringConvertible {
    /// The whole certificate's DER.
    public let der: [UInt8]
    /// tbsCertificate's DER, tag and length included: what the issuer signed.
    public let tbsBytes: [UInt8]
    /// 1, 2 or 3.
    public let version: Int
    /// The serial number's INTEGER contents (two's complement; positive in conforming certificates).
    public let serialNumber: [UInt8]
    /// The signature algorithm (the outer one, which must be the tbsCertificate's).
    public let signatureAlgorithm: SignatureAlgorithm
    public let issuer: DistinguishedName
    public let notBefore: CertificateTime
    public let notAfter: CertificateTime
    public let subject: DistinguishedName
    public let publicKey: SubjectPublicKey
    public let extensions: CertificateExtensions
    /// signatureValue's bytes: DER ECDSA-Sig-Value for ECDSA, the RSA signature block for RSA.
    public let signature: [UInt8]

    /// The certificate in `der`, which must hold it and nothing more.
    /// - Complexity: O(n).
    public init(der: [UInt8]) throws(CertificateError) {
        do {
            try self.init(reading: der)
        } catch {
            throw .malformed(error)
        }
    }

    /// The one CERTIFICATE block of a PEM file.
    /// - Complexity: O(n).
    public init(pem: [UInt8]) throws(CertificateError) {
        let block: PEMBlock
        do {
            block = try PEM.block(pem, labels: ["CERTIFICATE"])
        } catch {
            if case .unexpectedLabel(let label) = error { throw .notACertificate(label: label) }
            throw .pem(error)
        }
        try self.init(der: block.der)
    }

    /// Every CERTIFICATE block of a PEM file (a chain, a bundle of roots), in order; text
    /// between blocks is ignored, a block of another label refused.
    /// - Complexity: O(n).
    public static func chain(pem: [UInt8]) throws(CertificateError) -> [Certificate] {
        let blocks: [PEMBlock]
        do { blocks = try PEM.blocks(pem) } catch { throw .pem(error) }
        var certificates: [Certificate] = []
        for block in blocks {
            guard block.label == "CERTIFICATE" else { throw .notACertificate(label: block.label) }
            certificates.append(try Certificate(der: block.der))
        }
        return certificates
    }

    /// The certificate as PEM.
    /// - Complexity: O(n).
    public var pem: String { PEM.encode(PEMBlock(label: "CERTIFICATE", der: der)) }

    /// Certificate { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }.
    private init(reading der: [UInt8]) throws(DERError) {
        var file = DERReader(der)
        var certificate = try file.sequence("the certificate")
        try file.expectEnd("the certificate")
        let tbs = try certificate.element(.sequence, "tbsCertificate")
        var fields = DERReader(tbs.contents, depth: certificate.depth + 1)
        let outerStart = certificate.remaining
        signatureAlgorithm = try SignatureAlgorithm.read(&certificate, "the signature algorithm")
        let outer = outerStart.prefix(outerStart.count - certificate.remaining.count)
        signature = Array(try certificate.byteAlignedBitString("the signature"))
        try certificate.expectEnd("the certificate")
        self.der = der
        tbsBytes = Array(tbs.encoded)

        // TBSCertificate: version [0] DEFAULT v1, serial, signature, issuer, validity, subject, key.
        version = try Self.version(&fields)
        serialNumber = Array(try fields.integerContents("the serial number"))
        let innerStart = fields.remaining
        _ = try SignatureAlgorithm.read(&fields, "tbsCertificate's signature algorithm")
        guard innerStart.prefix(innerStart.count - fields.remaining.count).elementsEqual(outer) else {
            throw DERError("tbsCertificate's signature algorithm", .unexpectedValue("not the certificate's signature algorithm"))
        }
        issuer = try DistinguishedName.read(&fields, "the issuer")
        var validity = try fields.sequence("the validity")
        notBefore = try validity.time("notBefore")
        notAfter = try validity.time("notAfter")
        try validity.expectEnd("the validity")
        subject = try DistinguishedName.read(&fields, "the subject")
        publicKey = try SubjectPublicKey.read(&fields, "the subject public key")
        extensions = try Self.extensions(&fields, version: version)
        try fields.expectEnd("tbsCertificate")
    }

    /// version [0] EXPLICIT INTEGER DEFAULT v1 (0); v1 written out is not DER but is seen.
    private static func version(_ fields: inout DERReader) throws(DERError) -> Int {
        guard fields.next(is: .context(0, constructed: true)) else { return 1 }
        var explicit = try fields.constructed(.context(0, constructed: true), "the version")
        let value = try explicit.smallInteger("the version")
        try explicit.expectEnd("the version")
        guard (0...2).contains(value) else { throw DERError("the version", .unexpectedValue("\(value + 1), not 1, 2 or 3")) }
        return value + 1
    }

    /// issuerUniqueID [1] and subjectUniqueID [2] skipped, extensions [3] (v3 only).
    private static func extensions(_ fields: inout DERReader, version: Int) throws(DERError) -> CertificateExtensions {
        for number: UInt8 in [1, 2] where fields.next(is: .context(number, constructed: false)) {
            guard version >= 2 else { throw DERError("a unique identifier", .unexpectedValue("in a v1 certificate")) }
            _ = try fields.element("a unique identifier")
        }
        guard fields.next(is: .context(3, constructed: true)) else { return .none }
        guard version == 3 else { throw DERError("the extensions", .unexpectedValue("in a v\(version) certificate")) }
        var explicit = try fields.constructed(.context(3, constructed: true), "the extensions")
        let extensions = try CertificateExtensions.read(&explicit)
        try explicit.expectEnd("the extensions")
        return extensions
    }

    /// `subject (issued by issuer)`, escaped: for messages.
    public var description: String { "\(subject) (issued by \(issuer))" }
}
