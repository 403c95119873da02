/// The OIDs this module reads and writes, each declared once, with the short name messages
/// and `DistinguishedName`'s text use.
public extension OID {
    // Name attributes (X.520, RFC 4519).
    static let commonName = OID("2.5.4.3")
    static let surname = OID("2.5.4.4")
    static let serialNumberAttribute = OID("2.5.4.5")
    static let country = OID("2.5.4.6")
    static let locality = OID("2.5.4.7")
    static let stateOrProvince = OID("2.5.4.8")
    static let organization = OID("2.5.4.10")
    static let organizationalUnit = OID("2.5.4.11")
    /// RFC 4519's userId, where Apple puts an APNs certificate's topic (the bundle id).
    static let userID = OID("0.9.2342.19200300.100.1.1")
    static let domainComponent = OID("0.9.2342.19200300.100.1.25")
    static let emailAddress = OID("1.2.840.113549.1.9.1")

    // Public key algorithms and curves (RFC 5480, RFC 8017).
    static let ecPublicKey = OID("1.2.840.10045.2.1")
    static let prime256v1 = OID("1.2.840.10045.3.1.7")
    static let secp384r1 = OID("1.3.132.0.34")
    static let rsaEncryption = OID("1.2.840.113549.1.1.1")

    // Signature algorithms (RFC 5758, RFC 8017, RFC 4055).
    static let ecdsaWithSHA256 = OID("1.2.840.10045.4.3.2")
    static let ecdsaWithSHA384 = OID("1.2.840.10045.4.3.3")
    static let ecdsaWithSHA512 = OID("1.2.840.10045.4.3.4")
    static let sha1WithRSAEncryption = OID("1.2.840.113549.1.1.5")
    static let sha256WithRSAEncryption = OID("1.2.840.113549.1.1.11")
    static let sha384WithRSAEncryption = OID("1.2.840.113549.1.1.12")
    static let sha512WithRSAEncryption = OID("1.2.840.113549.1.1.13")
    static let rsassaPSS = OID("1.2.840.113549.1.1.10")
    static let mgf1 = OID("1.2.840.113549.1.1.8")
    static let sha256 = OID("2.16.840.1.101.3.4.2.1")
    static let sha384 = OID("2.16.840.1.101.3.4.2.2")
    static let sha512 = OID("2.16.840.1.101.3.4.2.3")

    // Certificate extensions (RFC 5280 §4.2).
    static let subjectKeyIdentifier = OID("2.5.29.14")
    static let keyUsage = OID("2.5.29.15")
    static let subjectAltName = OID("2.5.29.17")
    static let basicConstraints = OID("2.5.29.19")
    static let authorityKeyIdentifier = OID("2.5.29.35")
    static let extKeyUsage = OID("2.5.29.37")

    // Extended key usages (RFC 5280 §4.2.1.12).
    static let anyExtendedKeyUsage = OID("2.5.29.37.0")
    static let serverAuth = OID("1.3.6.1.5.5.7.3.1")
    static let clientAuth = OID("1.3.6.1.5.5.7.3.2")
}

/// Short names of the OIDs above, for text.
enum KnownOID {
    static let names: [OID: String] = [
        .commonName: "CN", .surname: "SN", .serialNumberAttribute: "serialNumber", .country: "C", .locality: "L",
        .stateOrProvince: "ST", .organization: "O", .organizationalUnit: "OU", .userID: "UID", .domainComponent: "DC",
        .emailAddress: "emailAddress",
        .ecPublicKey: "id-ecPublicKey", .prime256v1: "prime256v1", .secp384r1: "secp384r1", .rsaEncryption: "rsaEncryption",
        .ecdsaWithSHA256: "ecdsa-with-SHA256", .ecdsaWithSHA384: "ecdsa-with-SHA384", .ecdsaWithSHA512: "ecdsa-with-SHA512",
        .sha1WithRSAEncryption: "sha1WithRSAEncryption", .sha256WithRSAEncryption: "sha256WithRSAEncryption",
        .sha384WithRSAEncryption: "sha384WithRSAEncryption", .sha512WithRSAEncryption: "sha512WithRSAEncryption",
        .rsassaPSS: "RSASSA-PSS", .mgf1: "MGF1", .sha256: "SHA-256", .sha384: "SHA-384", .sha512: "SHA-512",
        .subjectKeyIdentifier: "subjectKeyIdentifier", .keyUsage: "keyUsage", .subjectAltName: "subjectAltName",
        .basicConstraints: "basicConstraints", .authorityKeyIdentifier: "authorityKeyIdentifier", .extKeyUsage: "extKeyUsage",
        .anyExtendedKeyUsage: "anyExtendedKeyUsage", .serverAuth: "serverAuth", .clientAuth: "clientAuth",
    ]

    static func name(_ oid: OID) -> String? { names[oid] }
}
