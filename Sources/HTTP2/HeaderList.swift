/// The fields of one field block: every name and value in one buffer, with where each
/// one is. A block costs two allocations however many fields it has, and its fields are
/// read in place: the decoder writes requests' fields into one, a server writes its
/// responses' fields from one (kept and refilled, so an answer allocates nothing here).
///
/// A collection of `HeaderField`s for code that wants values; reading a field that way
/// copies it, `withOctets(at:)` and the text accessors do not.
public struct HeaderList: Hashable, Sendable, RandomAccessCollection, CustomStringConvertible {
    /// Where one field's name and value are in `octets`, and its representation.
    struct Entry: Sendable {
        var start: Int
        var nameCount: Int
        var valueCount: Int
        var indexing: HeaderField.Indexing

        var valueStart: Int { start + nameCount }
        var end: Int { start + nameCount + valueCount }
        /// RFC 7541 §4.1, as `HeaderField.size`.
        var size: Int { nameCount + valueCount + 32 }
    }

    /// Names and values, where `entries` say, in `octets[..<used]`; octets no entry names
    /// may lie between them (the pseudo-header fields a request head no longer lists).
    /// Beyond `used` is room already made: octets are written there through a pointer, an
    /// `Array.append` per field cost more than the copy.
    private(set) var octets: [UInt8] = []
    private(set) var used = 0
    /// Where the fields are: `entries[first...]`, the first ones no longer listed (a
    /// request's pseudo-header fields, once read, are dropped without moving the rest).
    var entries: [Entry] = []
    var first = 0

    /// The memory the list holds: its octets' and its entries' storage, what a server
    /// counts of a request's header list against its memory budget (HPACK can expand a
    /// few octets on the wire to the whole `SETTINGS_MAX_HEADER_LIST_SIZE`).
    /// - Complexity: O(1).
    public var storageBytes: Int { octets.capacity + entries.capacity * MemoryLayout<Entry>.stride }

    /// The entries of the listed fields.
    var listed: ArraySlice<Entry> { entries[first...] }

    /// An empty list.
    /// - Complexity: O(1).
    public init() {}

    /// The list of `fields`, in order.
    /// - Complexity: O(n), n the octets of the fields.
    public init(_ fields: some Sequence<HeaderField>) {
        for field in fields { append(field) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count - first }

    /// The field at `position`, copied out.
    /// - Complexity: O(n), n the field's octets.
    public subscript(position: Int) -> HeaderField {
        withOctets(at: position) { name, value in HeaderField(name: name, value: value, indexing: entries[first + position].indexing) }
    }

    /// Calls `body` with the name's and the value's octets of the field at `position`, in place.
    /// - Complexity: O(1) besides `body`.
    public func withOctets<Result, Failure: Error>(
        at position: Int, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let entry = entries[first + position]
        return try octets.withUnsafeBufferPointer { all throws(Failure) in
            try body(UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart]),
                     UnsafeBufferPointer(rebasing: all[entry.valueStart..<entry.end]))
        }
    }

    /// Calls `body` with each field's name and value octets, in order, in place. Not
    /// generic, so a caller in another module calls it as compiled here.
    /// - Complexity: O(f) calls, f the fields.
    public func forEachField(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        octets.withUnsafeBufferPointer { all in
            for entry in listed {
                body(UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart]), UnsafeBufferPointer(rebasing: all[entry.valueStart..<entry.end]))
            }
        }
    }

    /// The representation the field at `position` came in, or is to be sent in.
    /// - Complexity: O(1).
    public func indexing(at position: Int) -> HeaderField.Indexing { entries[first + position].indexing }

    /// The name of the field at `position` as text. A name of the static table (RFC 7541
    /// Appendix A) is its constant there: no string is built.
    /// - Complexity: O(n), n the name's octets.
    public func name(at position: Int) -> String {
        withOctets(at: position) { name, _ in
            if let index = StaticTable.indexOfName(name) { return StaticTable.entries[index - 1].name }
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// The value of the field at `position` as text; octets that are not UTF-8 become U+FFFD.
    /// - Complexity: O(n), n the value's octets.
    public func value(at position: Int) -> String {
        withOctets(at: position) { _, value in String(decoding: value, as: UTF8.self) }
    }

    /// The position of the first field named `name` (lowercase), if any.
    /// - Complexity: O(n), n the octets of the names.
    public func firstIndex(named name: String) -> Int? {
        var name = name
        return name.withUTF8 { key in
            octets.withUnsafeBufferPointer { all in
                listed.firstIndex { entry in
                    entry.nameCount == key.count && Octets.equal(UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart]), key)
                }.map { $0 - first }
            }
        }
    }

    /// The value of the first field named `name` (lowercase), as text.
    /// - Complexity: O(n), n the octets of the fields.
    public func value(_ name: String) -> String? { firstIndex(named: name).map(value(at:)) }

    // MARK: Building

    /// Appends a field.
    /// - Complexity: O(n), n the field's octets.
    public mutating func append(_ field: HeaderField) {
        let start = used
        field.withAllOctets { appendOctets($0) }
        appendEntry(start: start, nameCount: field.nameCount, indexing: field.indexing)
    }

    /// Appends a field given as text.
    /// - Complexity: O(n), n the field's octets.
    public mutating func append(name: String, value: String, indexing: HeaderField.Indexing = .incremental) {
        let start = used
        appendText(name)
        let nameCount = used - start
        appendText(value)
        appendEntry(start: start, nameCount: nameCount, indexing: indexing)
    }

    /// Appends a field whose value is a non-negative integer in decimal (`content-length`),
    /// without building its text.
    /// - Precondition: `value >= 0`.
    /// - Complexity: O(n), n the field's octets.
    public mutating func append(name: String, decimal value: Int, indexing: HeaderField.Indexing = .incremental) {
        precondition(value >= 0, "a negative decimal field value")
        let start = used
        appendText(name)
        let nameCount = used - start
        appendOctets(upTo: 19) { out in
            // At most 19 digits: counted, then written from the last.
            var digits = 1
            var rest = value / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            rest = value
            for position in stride(from: digits - 1, through: 0, by: -1) {
                out[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digits
        }
        appendEntry(start: start, nameCount: nameCount, indexing: indexing)
    }

    /// Appends a field from octets borrowed from elsewhere.
    /// - Complexity: O(n), n the field's octets.
    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, indexing: HeaderField.Indexing) {
        let start = used
        appendOctets(name)
        appendOctets(value)
        appendEntry(start: start, nameCount: name.count, indexing: indexing)
    }

    // MARK: Writing octets in place

    /// Makes room for `count` more octets after the used ones, at least doubling the room.
    /// - Complexity: O(1) when there is room; O(n) to grow.
    mutating func reserveOctets(_ count: Int) {
        guard octets.count - used < count else { return }
        var grown = [UInt8](repeating: 0, count: Swift.max(used + count, octets.count * 2, 64))
        grown.withUnsafeMutableBufferPointer { out in
            octets.withUnsafeBufferPointer { old in
                _ = UnsafeMutableBufferPointer(rebasing: out[..<used]).update(fromContentsOf: UnsafeBufferPointer(rebasing: old[..<used]))
            }
        }
        octets = grown
    }

    /// Appends `source`'s octets.
    /// - Complexity: O(n), n the octets.
    mutating func appendOctets(_ source: UnsafeBufferPointer<UInt8>) {
        guard !source.isEmpty else { return }
        reserveOctets(source.count)
        let start = used
        octets.withUnsafeMutableBufferPointer { out in
            _ = UnsafeMutableBufferPointer(rebasing: out[start..<(start + source.count)]).update(fromContentsOf: source)
        }
        used += source.count
    }

    /// Appends what `write` writes into room for at most `most` octets; it returns how many it wrote.
    /// - Complexity: O(`most`) to make room, plus `write`.
    mutating func appendOctets<Failure: Error>(upTo most: Int,
                                               _ write: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Int) throws(Failure) {
        reserveOctets(most)
        let start = used
        let written = try octets.withUnsafeMutableBufferPointer { out throws(Failure) in
            try write(UnsafeMutableBufferPointer(rebasing: out[start..<(start + most)]))
        }
        used += written
    }

    /// Appends a string's UTF-8 octets.
    private mutating func appendText(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendOctets($0) }
        if done == nil { Array(text.utf8).withUnsafeBufferPointer { appendOctets($0) } }
    }

    /// Lists a field whose name and value were appended from `start` on, the name `nameCount` octets.
    mutating func appendEntry(start: Int, nameCount: Int, indexing: HeaderField.Indexing) {
        entries.append(Entry(start: start, nameCount: nameCount, valueCount: used - start - nameCount, indexing: indexing))
    }

    /// Empties the list, keeping its storage for the next block.
    /// - Complexity: O(1).
    public mutating func removeAll() {
        used = 0
        entries.removeAll(keepingCapacity: true)
        first = 0
    }

    /// Drops the first `count` fields from the list (their octets and entries stay, unlisted).
    /// - Complexity: O(1).
    mutating func removeFirst(_ count: Int) {
        precondition(count <= self.count, "dropping more fields than listed")
        first += count
    }

    /// The size of the list as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2).
    /// - Complexity: O(n), n the fields.
    public var size: Int { listed.reduce(0) { $0 + $1.size } }

    // MARK: Equality and text

    /// Equal when the fields are, in order (the representation is not part of a field's equality).
    public static func == (lhs: HeaderList, rhs: HeaderList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.octets.withUnsafeBufferPointer { left in
            rhs.octets.withUnsafeBufferPointer { right in
                zip(lhs.listed, rhs.listed).allSatisfy { a, b in
                    a.nameCount == b.nameCount && a.valueCount == b.valueCount
                        && UnsafeBufferPointer(rebasing: left[a.start..<a.end]).elementsEqual(UnsafeBufferPointer(rebasing: right[b.start..<b.end]))
                }
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        octets.withUnsafeBufferPointer { all in
            for entry in listed {
                hasher.combine(entry.nameCount)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[entry.start..<entry.end])))
            }
        }
    }

    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}
