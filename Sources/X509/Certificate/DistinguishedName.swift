/// One attribute of a name: its type (CN, O, UID …) and its value as text.
public struct NameAttribute: Equatable, Hashable, Sendable {
    public let type: OID
    public let value: String
    /// The string type it was (or is to be) encoded as: UTF8String unless said otherwise.
    public let valueTag: DERTag

    /// - Complexity: O(1).
    public init(_ type: OID, _ value: String, as valueTag: DERTag = .utf8String) {
        self.type = type
        self.value = value
        self.valueTag = valueTag
    }
}

/// An X.501 Name (RFC 5280 §4.1.2.4): relative distinguished names in order, each a set of
/// attributes (almost always one). Two names are equal when their DER is, which is how a
/// certificate's issuer is matched to its issuer's subject here: RFC 5280 §7.1's
/// case-folding comparison is not done, since every issuer this module meets copies its
/// subject byte for byte.
public struct DistinguishedName: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The RDNs in the order encoded (most significant first, C or DC usually).
    public let relativeNames: [[NameAttribute]]
    /// The Name's encoding: the SEQUENCE, whole.
    public let der: [UInt8]

    /// A name of one attribute per RDN, in the order given, each encoded as its `valueTag`
    /// (UTF8String, PrintableString or IA5String, and a value of that type's characters: a
    /// programming error otherwise).
    /// - Complexity: O(n).
    public init(_ attributes: [NameAttribute]) {
        for attribute in attributes {
            precondition(DirectoryString.decode(Array(attribute.value.utf8)[...], tag: attribute.valueTag) == attribute.value,
                         "\(attribute.value) cannot be written as a string of tag \(attribute.valueTag)")
        }
        var writer = DERWriter()
        writer.sequence { name in
            for attribute in attributes {
                name.set { rdn in
                    rdn.sequence { pair in
                        pair.objectIdentifier(attribute.type)
                        pair.element(attribute.valueTag, Array(attribute.value.utf8))
                    }
                }
            }
        }
        relativeNames = attributes.map { [$0] }
        der = writer.bytes
    }

    /// The Name that `reader` holds next.
    /// - Complexity: O(n).
    static func read(_ reader: inout DERReader, _ what: String) throws(DERError) -> DistinguishedName {
        let element = try reader.element(.sequence, what)
        var name = DERReader(element.contents, depth: reader.depth + 1)
        var relativeNames: [[NameAttribute]] = []
        while !name.isAtEnd {
            var rdn = try name.set(what + "'s RDN")
            var attributes: [NameAttribute] = []
            repeat {
                var pair = try rdn.sequence(what + "'s attribute")
                let type = try pair.objectIdentifier(what + "'s attribute type")
                let (value, tag) = try pair.string(what + "'s \(KnownOID.name(type) ?? "attribute") value")
                try pair.expectEnd(what + "'s attribute")
                attributes.append(NameAttribute(type, value, as: tag))
            } while !rdn.isAtEnd
            relativeNames.append(attributes)
        }
        return DistinguishedName(relativeNames: relativeNames, der: Array(element.encoded))
    }

    private init(relativeNames: [[NameAttribute]], der: [UInt8]) {
        self.relativeNames = relativeNames
        self.der = der
    }

    /// - Complexity: O(n).
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool { lhs.der == rhs.der }
    /// - Complexity: O(n).
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    /// The values of every attribute of `type`, in order.
    /// - Complexity: O(n).
    public func values(of type: OID) -> [String] { relativeNames.joined().filter { $0.type == type }.map(\.value) }

    /// The first common name (CN).
    /// - Complexity: O(n).
    public var commonName: String? { values(of: .commonName).first }
    /// The first userId (UID): an APNs certificate's topic.
    /// - Complexity: O(n).
    public var userID: String? { values(of: .userID).first }

    /// `UID=com.example.mail, CN=Apple Push Services: com.example.mail`: attributes in
    /// encoded order, `+` between those of one RDN; unknown types dotted; control characters
    /// escaped and long values cut (`ShownText`), so a message may repeat it.
    public var description: String {
        let text = relativeNames.map { rdn in
            rdn.map { "\(KnownOID.name($0.type) ?? $0.type.arcs.map(String.init).joined(separator: "."))=\(ShownText.escape($0.value))" }
                .joined(separator: " + ")
        }.joined(separator: ", ")
        // A name of many attributes is cut too: one message line stays short.
        return text.unicodeScalars.count <= 4 * ShownText.limit ? text : String(text.unicodeScalars.prefix(4 * ShownText.limit)) + "…"
    }
}
