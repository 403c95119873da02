/// One extension as the certificate holds it (RFC 5280 §4.1.2.9).
public struct Extension: Equatable, Sendable {
    public let oid: OID
    public let isCritical: Bool
    /// The extnValue OCTET STRING's contents: the extension's own DER.
    public let value: [UInt8]

    /// - Complexity: O(1).
    public init(oid: OID, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}

/// basicConstraints (RFC 5280 §4.2.1.9).
public struct BasicConstraints: Equatable, Sendable {
    public let isCA: Bool
    /// How many non-self-issued intermediates may follow this CA in a path; nil: no limit.
    public let pathLength: Int?

    /// - Complexity: O(1).
    public init(isCA: Bool, pathLength: Int? = nil) {
        self.isCA = isCA
        self.pathLength = pathLength
    }
}

/// keyUsage (RFC 5280 §4.2.1.3): bit 0 is digitalSignature.
public struct KeyUsage: OptionSet, Equatable, Sendable {
    public let rawValue: UInt16
    /// - Complexity: O(1).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// The named bits in BIT STRING order.
    var bits: [Bool] { (0..<9).map { rawValue & (1 << $0) != 0 } }
}

/// The extensions this module reads, each read once (RFC 5280 §4.2: an extension appears at
/// most once), and all of them as they came, so a verifier can refuse an unknown critical one.
public struct CertificateExtensions: Equatable, Sendable {
    public let all: [Extension]
    public let basicConstraints: BasicConstraints?
    public let keyUsage: KeyUsage?
    /// extKeyUsage's purposes (serverAuth, clientAuth …); nil when absent (any purpose).
    public let extendedKeyUsage: [OID]?
    public let subjectAlternativeNames: [GeneralName]
    public let subjectKeyIdentifier: [UInt8]?
    public let authorityKeyIdentifier: [UInt8]?

    /// The extensions this module understands: a critical one not among them must refuse the certificate.
    public static let understood: Set<OID> = [.basicConstraints, .keyUsage, .extKeyUsage, .subjectAltName,
                                              .subjectKeyIdentifier, .authorityKeyIdentifier]

    /// Critical extensions this module does not understand.
    /// - Complexity: O(n).
    public var unhandledCritical: [OID] { all.filter { $0.isCritical && !Self.understood.contains($0.oid) }.map(\.oid) }

    /// No extensions (a v1 certificate).
    static let none = CertificateExtensions(all: [], basicConstraints: nil, keyUsage: nil, extendedKeyUsage: nil,
                                            subjectAlternativeNames: [], subjectKeyIdentifier: nil, authorityKeyIdentifier: nil)

    /// The Extensions SEQUENCE's contents.
    /// - Complexity: O(n).
    static func read(_ reader: inout DERReader) throws(DERError) -> CertificateExtensions {
        var list = try reader.sequence("the extensions")
        var all: [Extension] = []
        repeat {
            var item = try list.sequence("an extension")
            let oid = try item.objectIdentifier("an extension's id")
            let critical = item.next(is: .boolean) ? try item.boolean("extension \(oid)'s critical flag") : false
            let value = try item.read(.octetString, "extension \(oid)'s value")
            try item.expectEnd("extension \(oid)")
            guard !all.contains(where: { $0.oid == oid }) else { throw DERError("extension \(oid)", .unexpectedValue("it appears twice")) }
            all.append(Extension(oid: oid, isCritical: critical, value: Array(value)))
        } while !list.isAtEnd
        return try CertificateExtensions(all: all, depth: list.depth)
    }

    private init(all: [Extension], depth: Int) throws(DERError) {
        func contents(_ oid: OID) -> DERReader? {
            all.first { $0.oid == oid }.map { DERReader($0.value[...], depth: depth + 1) }
        }
        self.all = all
        basicConstraints = try contents(.basicConstraints).map(Self.basicConstraints)
        keyUsage = try contents(.keyUsage).map(Self.keyUsage)
        extendedKeyUsage = try contents(.extKeyUsage).map(Self.extendedKeyUsage)
        subjectAlternativeNames = try contents(.subjectAltName).map(Self.alternativeNames) ?? []
        subjectKeyIdentifier = try contents(.subjectKeyIdentifier).map { reader throws(DERError) in
            var reader = reader
            let identifier = try reader.read(.octetString, "subjectKeyIdentifier")
            try reader.expectEnd("subjectKeyIdentifier")
            return Array(identifier)
        }
        authorityKeyIdentifier = try contents(.authorityKeyIdentifier).flatMap(Self.authorityKeyIdentifier)
    }

    init(all: [Extension], basicConstraints: BasicConstraints?, keyUsage: KeyUsage?, extendedKeyUsage: [OID]?,
         subjectAlternativeNames: [GeneralName], subjectKeyIdentifier: [UInt8]?, authorityKeyIdentifier: [UInt8]?) {
        self.all = all
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
        self.subjectAlternativeNames = subjectAlternativeNames
        self.subjectKeyIdentifier = subjectKeyIdentifier
        self.authorityKeyIdentifier = authorityKeyIdentifier
    }

    /// BasicConstraints { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }.
    private static func basicConstraints(_ reader: DERReader) throws(DERError) -> BasicConstraints {
        var reader = reader
        var fields = try reader.sequence("basicConstraints")
        try reader.expectEnd("basicConstraints")
        // An explicit FALSE is not DER (a DEFAULT is omitted) but common; it reads the same.
        let isCA = fields.next(is: .boolean) ? try fields.boolean("basicConstraints' cA") : false
        let pathLength = fields.next(is: .integer) ? try fields.smallInteger("basicConstraints' pathLenConstraint") : nil
        try fields.expectEnd("basicConstraints")
        return BasicConstraints(isCA: isCA, pathLength: pathLength)
    }

    /// KeyUsage ::= BIT STRING of named bits 0–8.
    private static func keyUsage(_ reader: DERReader) throws(DERError) -> KeyUsage {
        var reader = reader
        let (bytes, _) = try reader.bitString("keyUsage")
        try reader.expectEnd("keyUsage")
        var usage: UInt16 = 0
        for (index, byte) in bytes.prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 && index * 8 + bit < 9 { usage |= 1 << (index * 8 + bit) }
        }
        return KeyUsage(rawValue: usage)
    }

    /// ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId.
    private static func extendedKeyUsage(_ reader: DERReader) throws(DERError) -> [OID] {
        var reader = reader
        var list = try reader.sequence("extKeyUsage")
        try reader.expectEnd("extKeyUsage")
        var purposes: [OID] = []
        repeat { purposes.append(try list.objectIdentifier("an extKeyUsage purpose")) } while !list.isAtEnd
        return purposes
    }

    /// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName.
    private static func alternativeNames(_ reader: DERReader) throws(DERError) -> [GeneralName] {
        var reader = reader
        var list = try reader.sequence("subjectAltName")
        try reader.expectEnd("subjectAltName")
        var names: [GeneralName] = []
        repeat { names.append(try GeneralName.read(&list, "a subjectAltName entry")) } while !list.isAtEnd
        return names
    }

    /// AuthorityKeyIdentifier { keyIdentifier [0] OPTIONAL, … }: the key identifier.
    private static func authorityKeyIdentifier(_ reader: DERReader) throws(DERError) -> [UInt8]? {
        var reader = reader
        var fields = try reader.sequence("authorityKeyIdentifier")
        try reader.expectEnd("authorityKeyIdentifier")
        let identifier = fields.next(is: .context(0, constructed: false))
            ? Array(try fields.read(.context(0, constructed: false), "authorityKeyIdentifier's keyIdentifier")) : nil
        // The issuer's name and serial [1] and [2] are not used here; they must still be DER.
        while !fields.isAtEnd { _ = try fields.element("authorityKeyIdentifier's issuer") }
        return identifier
    }
}
