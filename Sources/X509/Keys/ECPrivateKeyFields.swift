/// An AlgorithmIdentifier as a key file holds it: the algorithm and, for EC, the named curve
/// (nil for explicit parameters, or none). Checked by whoever reads the key.
public struct KeyAlgorithmFields: Equatable, Sendable {
    public let algorithm: ArraySlice<UInt8>
    public let curve: ArraySlice<UInt8>?

    /// The AlgorithmIdentifier `reader` holds next; any parameters but a named curve skipped.
    /// - Complexity: O(n).
    public init(_ reader: inout DERReader) throws(DERError) {
        var identifier = try reader.sequence("the AlgorithmIdentifier")
        algorithm = try identifier.read(.objectIdentifier, "the algorithm")
        curve = identifier.next(is: .objectIdentifier) ? try identifier.read(.objectIdentifier, "the named curve") : nil
        // Another algorithm's parameters (RSA's NULL), or explicit curve parameters.
        if !identifier.isAtEnd { _ = try identifier.element("the algorithm's parameters") }
        try identifier.expectEnd("the AlgorithmIdentifier")
    }

    /// Whether it is id-ecPublicKey on prime256v1.
    public var isP256: Bool { algorithm.elementsEqual(OID.ecPublicKey.contents) && curve?.elementsEqual(OID.prime256v1.contents) == true }
}

/// An EC private key's fields as DER holds them, before any check of their values: PKCS#8
/// (RFC 5208: Apple's `.p8`, `openssl pkcs8 -topk8`) around an RFC 5915 ECPrivateKey, or the
/// ECPrivateKey alone (SEC 1, `-----BEGIN EC PRIVATE KEY-----`). Shared by ProviderAuth's key
/// files and this module's `P256KeyPEM`, which each check versions, curve and scalar.
public struct ECPrivateKeyFields: Equatable, Sendable {
    /// PKCS#8's version (0 for v1); nil for a SEC 1 file.
    public var pkcs8Version: Int?
    /// PKCS#8's AlgorithmIdentifier; nil for a SEC 1 file.
    public var algorithm: KeyAlgorithmFields?
    /// ECPrivateKey's version (1).
    public var version = 0
    /// The private scalar's octets as stored.
    public var scalar: ArraySlice<UInt8> = []
    /// ECPrivateKey's [0] named curve, when present.
    public var curve: ArraySlice<UInt8>?
    /// ECPrivateKey's [1] public key bytes, when present.
    public var point: ArraySlice<UInt8>?

    /// PrivateKeyInfo { version, AlgorithmIdentifier, privateKey OCTET STRING, [0] attributes
    /// OPTIONAL }, the octets holding the ECPrivateKey (read only when the algorithm is
    /// id-ecPublicKey; for another, the fields stop at `algorithm`).
    /// - Complexity: O(n).
    public init(pkcs8 der: ArraySlice<UInt8>) throws(DERError) {
        var file = DERReader(der)
        var info = try file.sequence("PrivateKeyInfo")
        try file.expectEnd("PrivateKeyInfo")
        pkcs8Version = try info.smallInteger("the PKCS#8 version")
        algorithm = try KeyAlgorithmFields(&info)
        let octets = try info.read(.octetString, "the PKCS#8 privateKey")
        if info.next(is: .context(0, constructed: true)) { _ = try info.read(.context(0, constructed: true), "the PKCS#8 attributes") }
        try info.expectEnd("PrivateKeyInfo")
        // Another algorithm's key (RSA, Ed25519) is not an ECPrivateKey: its caller names the
        // algorithm rather than a structure it was never meant to have.
        guard algorithm?.algorithm.elementsEqual(OID.ecPublicKey.contents) == true else { return }
        try readECPrivateKey(octets)
    }

    /// ECPrivateKey { version 1, privateKey OCTET STRING, [0] named curve OPTIONAL, [1] public
    /// key OPTIONAL }, alone (SEC 1).
    /// - Complexity: O(n).
    public init(sec1 der: ArraySlice<UInt8>) throws(DERError) {
        try readECPrivateKey(der)
    }

    private mutating func readECPrivateKey(_ der: ArraySlice<UInt8>) throws(DERError) {
        var inner = DERReader(der)
        var ec = try inner.sequence("ECPrivateKey")
        try inner.expectEnd("ECPrivateKey")
        version = try ec.smallInteger("the ECPrivateKey version")
        scalar = try ec.read(.octetString, "the ECPrivateKey privateKey")
        if ec.next(is: .context(0, constructed: true)) {
            var parameters = try ec.constructed(.context(0, constructed: true), "the ECPrivateKey parameters")
            curve = try parameters.read(.objectIdentifier, "the ECPrivateKey named curve")
            try parameters.expectEnd("the ECPrivateKey parameters")
        }
        if ec.next(is: .context(1, constructed: true)) {
            var publicKey = try ec.constructed(.context(1, constructed: true), "the ECPrivateKey public key")
            point = try publicKey.byteAlignedBitString("the ECPrivateKey public key")
            try publicKey.expectEnd("the ECPrivateKey public key")
        }
        try ec.expectEnd("ECPrivateKey")
    }

    /// A P-256 key as PKCS#8 v1 (what `openssl pkcs8 -topk8` and Apple write): the named curve
    /// in the AlgorithmIdentifier, the ECPrivateKey with its public key.
    /// - Complexity: O(1).
    public static func pkcs8(p256Scalar scalar: [UInt8], point: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { info in
            info.integer(0)
            info.sequence { identifier in
                identifier.objectIdentifier(.ecPublicKey)
                identifier.objectIdentifier(.prime256v1)
            }
            info.octetString(sec1(scalar: scalar, point: point, namedCurve: false))
        }
        return writer.bytes
    }

    /// An ECPrivateKey (SEC 1, RFC 5915), with the named curve when it stands alone.
    /// - Complexity: O(1).
    public static func sec1(scalar: [UInt8], point: [UInt8], namedCurve: Bool = true) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { ec in
            ec.integer(1)
            ec.octetString(scalar)
            if namedCurve { ec.constructed(.context(0, constructed: true)) { $0.objectIdentifier(.prime256v1) } }
            ec.constructed(.context(1, constructed: true)) { $0.bitString(point) }
        }
        return writer.bytes
    }

    /// A SubjectPublicKeyInfo of a P-256 point (`-----BEGIN PUBLIC KEY-----`).
    /// - Complexity: O(1).
    public static func subjectPublicKeyInfo(p256Point point: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        SubjectPublicKey.writeP256(point, to: &writer)
        return writer.bytes
    }
}
