/// One field of a field block (RFC 9113 §8.2): a name and a value as octets, which is
/// what HPACK carries (a value may hold obs-text that is not UTF-8), with how an encoder
/// should represent it.
///
/// Name and value share one buffer: a field costs one allocation, and a copy one retain
/// (the dynamic tables hold fields, and a decoded reference to one copies it).
public struct HeaderField: Hashable, Sendable, CustomStringConvertible {
    /// The name's octets, then the value's.
    private(set) var octets: [UInt8]
    /// Where the name ends in `octets`.
    private(set) var nameCount: Int
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
        var octets: [UInt8] = []
        octets.reserveCapacity(name.utf8.count + value.utf8.count)
        octets.append(contentsOf: name.utf8)
        nameCount = octets.count
        octets.append(contentsOf: value.utf8)
        self.octets = octets
        self.indexing = indexing
    }

    /// - Complexity: O(n), n the octets of name and value.
    public init(name: [UInt8], value: [UInt8], indexing: Indexing = .incremental) {
        octets = name + value
        nameCount = name.count
        self.indexing = indexing
    }

    /// A field from octets borrowed from elsewhere (a decoded block, the static table).
    /// - Complexity: O(n), n the octets of name and value.
    init(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, indexing: Indexing = .incremental) {
        var octets: [UInt8] = []
        octets.reserveCapacity(name.count + value.count)
        octets.append(contentsOf: name)
        octets.append(contentsOf: value)
        self.octets = octets
        nameCount = name.count
        self.indexing = indexing
    }

    /// The name's octets (a copy: `withOctets` reads them in place).
    /// - Complexity: O(n), n the octets of the name.
    public var name: [UInt8] {
        get { Array(octets[..<nameCount]) }
        set {
            octets.replaceSubrange(..<nameCount, with: newValue)
            nameCount = newValue.count
        }
    }

    /// The value's octets (a copy: `withOctets` reads them in place).
    /// - Complexity: O(n), n the octets of the value.
    public var value: [UInt8] {
        get { Array(octets[nameCount...]) }
        set { octets.replaceSubrange(nameCount..., with: newValue) }
    }

    /// Calls `body` with the name's and the value's octets, in place.
    /// - Complexity: O(1) besides `body`.
    public func withOctets<Result, Failure: Error>(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try octets.withUnsafeBufferPointer { all throws(Failure) in
            try body(UnsafeBufferPointer(rebasing: all[..<nameCount]), UnsafeBufferPointer(rebasing: all[nameCount...]))
        }
    }

    /// Calls `body` with the name's octets followed by the value's, in place.
    /// - Complexity: O(1) besides `body`.
    func withAllOctets<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        octets.withUnsafeBufferPointer(body)
    }

    /// The name as text (field names are ASCII once validated).
    /// - Complexity: O(n).
    public var nameString: String { withOctets { name, _ in String(decoding: name, as: UTF8.self) } }
    /// The value as text; octets that are not UTF-8 become U+FFFD.
    /// - Complexity: O(n).
    public var valueString: String { withOctets { _, value in String(decoding: value, as: UTF8.self) } }

    /// The size HPACK charges for an entry (RFC 7541 §4.1): octets of name and value plus 32.
    /// SETTINGS_MAX_HEADER_LIST_SIZE counts fields the same way (RFC 9113 §6.5.2).
    /// - Complexity: O(1).
    public var size: Int { octets.count + 32 }

    /// Whether the name starts with a colon: a pseudo-header field (RFC 9113 §8.3).
    /// - Complexity: O(1).
    public var isPseudo: Bool { nameCount > 0 && octets[0] == UInt8(ascii: ":") }

    public static func == (lhs: HeaderField, rhs: HeaderField) -> Bool {
        lhs.nameCount == rhs.nameCount && lhs.octets == rhs.octets
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nameCount)
        hasher.combine(octets)
    }

    public var description: String { "\(nameString): \(valueString)" }
}
