/// HPACK's static table (RFC 7541 Appendix A): 61 entries, index 1 first. Fields
/// whose name or whole line is here cost the encoder one index instead of literals.
enum StaticTable {
    static let entries: [(name: String, value: String)] = [
        (":authority", ""), // 1
        (":method", "GET"), // 2
        (":method", "POST"), // 3
        (":path", "/"), // 4
        (":path", "/index.html"), // 5
        (":scheme", "http"), // 6
        (":scheme", "https"), // 7
        (":status", "200"), // 8
        (":status", "204"), // 9
        (":status", "206"), // 10
        (":status", "304"), // 11
        (":status", "400"), // 12
        (":status", "404"), // 13
        (":status", "500"), // 14
        ("accept-charset", ""), // 15
        ("accept-encoding", "gzip, deflate"), // 16
        ("accept-language", ""), // 17
        ("accept-ranges", ""), // 18
        ("accept", ""), // 19
        ("access-control-allow-origin", ""), // 20
        ("age", ""), // 21
        ("allow", ""), // 22
        ("authorization", ""), // 23
        ("cache-control", ""), // 24
        ("content-disposition", ""), // 25
        ("content-encoding", ""), // 26
        ("content-language", ""), // 27
        ("content-length", ""), // 28
        ("content-location", ""), // 29
        ("content-range", ""), // 30
        ("content-type", ""), // 31
        ("cookie", ""), // 32
        ("date", ""), // 33
        ("etag", ""), // 34
        ("expect", ""), // 35
        ("expires", ""), // 36
        ("from", ""), // 37
        ("host", ""), // 38
        ("if-match", ""), // 39
        ("if-modified-since", ""), // 40
        ("if-none-match", ""), // 41
        ("if-range", ""), // 42
        ("if-unmodified-since", ""), // 43
        ("last-modified", ""), // 44
        ("link", ""), // 45
        ("location", ""), // 46
        ("max-forwards", ""), // 47
        ("proxy-authenticate", ""), // 48
        ("proxy-authorization", ""), // 49
        ("range", ""), // 50
        ("referer", ""), // 51
        ("refresh", ""), // 52
        ("retry-after", ""), // 53
        ("server", ""), // 54
        ("set-cookie", ""), // 55
        ("strict-transport-security", ""), // 56
        ("transfer-encoding", ""), // 57
        ("user-agent", ""), // 58
        ("vary", ""), // 59
        ("via", ""), // 60
        ("www-authenticate", ""), // 61
    ]

    /// Entries as octets, index 1 at position 0.
    static let fields: [HeaderField] = entries.map { HeaderField($0.name, $0.value) }

    /// The names and values of the entries, one after another: what lookups compare.
    static let octets: [UInt8] = entries.flatMap { Array($0.name.utf8) + Array($0.value.utf8) }

    /// Entries of one name: where the name is in `octets`, its lowest index, and where its
    /// entries are in `valuesOfNames`.
    struct NameGroup {
        var nameStart: Int
        var firstIndex: Int
        var values: Range<Int>
    }

    /// An entry's value in `octets`, and its index.
    struct ValueEntry {
        var start: Int
        var count: Int
        var index: Int
    }

    /// The names by their length (a name is only compared with names as long as it), and
    /// each name's values: all of trivial types, read without reference counting.
    static let (groupsByNameLength, valuesOfNames): ([[NameGroup]], [ValueEntry]) = {
        var groups = [[NameGroup]](repeating: [], count: 28)
        var values: [ValueEntry] = []
        var start = 0
        var previousName = ""
        for (position, entry) in entries.enumerated() {
            let nameCount = entry.name.utf8.count
            if entry.name != previousName {
                groups[nameCount].append(NameGroup(nameStart: start, firstIndex: position + 1, values: values.count..<values.count))
                previousName = entry.name
            }
            values.append(ValueEntry(start: start + nameCount, count: entry.value.utf8.count, index: position + 1))
            groups[nameCount][groups[nameCount].count - 1].values = groups[nameCount][groups[nameCount].count - 1].values.lowerBound..<values.count
            start += nameCount + entry.value.utf8.count
        }
        return (groups, values)
    }()

    static var count: Int { entries.count }

    /// The lowest index of an entry named `name`, and of the entry with `name` and `value`
    /// if there is one: the encoder's lookup, by octets (hashing a field cost more than
    /// comparing it with the few names of its length).
    /// - Complexity: O(1): at most 6 names of one length, and 7 values of one name, are compared.
    static func match(name: UnsafeBufferPointer<UInt8>,
                      value: UnsafeBufferPointer<UInt8>) -> (nameIndex: Int, fieldIndex: Int?)? {
        guard let first = name.first, name.count < groupsByNameLength.count else { return nil }
        return octets.withUnsafeBufferPointer { all -> (nameIndex: Int, fieldIndex: Int?)? in
            for group in groupsByNameLength[name.count]
            where all[group.nameStart] == first && Octets.equal(UnsafeBufferPointer(rebasing: all[group.nameStart..<(group.nameStart + name.count)]), name) {
                for position in group.values {
                    let candidate = valuesOfNames[position]
                    if Octets.equal(UnsafeBufferPointer(rebasing: all[candidate.start..<(candidate.start + candidate.count)]), value) {
                        return (group.firstIndex, candidate.index)
                    }
                }
                return (group.firstIndex, nil)
            }
            return nil
        }
    }

    /// The lowest index of an entry named `name`.
    /// - Complexity: O(1).
    static func indexOfName(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        match(name: name, value: UnsafeBufferPointer(start: nil, count: 0))?.nameIndex
    }
}
