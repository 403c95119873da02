/// One field of a field block (RFC 9113 §8.2): a name and a value as octets, which is
/// what HPACK carries (a value may hold obs-text that is not UTF-8), with how an encoder
/// should represent it.
public struct HeaderField: Hashable, Sendable, CustomStringConvertible {
    public var name: [UInt8]
    public var value: [UInt8]
    /// How the encoder writes the field; the decoder reports how it was written.
    /// Not part of equality: it says how to send a field, not what the field is.
    public var indexing: Indexing

    /// The three literal representations of RFC 7541 §6.2, as a choice for the encoder.
    public enum Indexing: Hashable, Sendable {
        /// Added to the dynamic table (§6.2.1): repeated fields then cost one octet.
        case incremental
        /// Not added (§6.2.2), and sent as a literal without looking it up whole: a value that
        /// never repeats, like `apns-id`.
        case withoutIndexing
        /// Never added, by us or any intermediary (§6.2.3): secrets, like `authorization`.
        case never
    }

    /// - Complexity: O(n), n the octets of name and value.
    public init(_ name: String, _ value: String, indexing: Indexing = .incremental) {
        self.name = Array(name.utf8)
        self.value = Array(value.utf8)
        self.indexing = indexing
    }

    /// - Complexity: O(1).
    public init(name: [UInt8], value: [UInt8], indexing: Indexing = .incremental) {
        self.name = name
        self.value = value
        self.indexing = indexing
    }

    /// The name as text (field names are ASCII once validated).
    /// - Complexity: O(n).
    public var nameString: String { String(decoding: name, as: UTF8.self) }
    /// The value as text; octets that are not UTF-8 become U+FFFD.
    /// - Complexity: O(n).
    public var valueString: String { String(decoding: value, as: UTF8.self) }

    /// The size HPACK charges for an entry (RFC 7541 §4.1): octets of name and value plus 32.
    /// SETTINGS_MAX_HEADER_LIST_SIZE counts fields the same way (RFC 9113 §6.5.2).
    /// - Complexity: O(1).
    public var size: Int { name.count + value.count + 32 }

    /// Whether the name starts with a colon: a pseudo-header field (RFC 9113 §8.3).
    /// - Complexity: O(1).
    public var isPseudo: Bool { name.first == UInt8(ascii: ":") }

    public static func == (lhs: HeaderField, rhs: HeaderField) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }

    public var description: String { "\(nameString): \(valueString)" }
}
