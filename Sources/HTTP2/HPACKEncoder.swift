/// Encodes field blocks (RFC 7541) for what we send: response headers and trailers.
///
/// Each field is written as an index when a table holds it whole, else as a literal with
/// the table's name when there is one (static first, as RFC 7541 Appendix C does), added
/// to the dynamic table unless its `indexing` says otherwise. Blocks must reach the peer
/// in the order they were encoded.
public struct HPACKEncoder: Sendable {
    /// When string literals are Huffman-coded.
    public enum HuffmanPolicy: Hashable, Sendable {
        case never
        case always
        /// When the code is no longer than the octets (RFC 7541 Appendix C's choice).
        case whenNotLonger
    }

    public var huffman: HuffmanPolicy
    /// The table as the peer's decoder will hold it.
    public private(set) var table: DynamicTable
    /// The largest table we keep, whatever the peer allows: memory is ours to bound.
    public let tableSizeLimit: Int
    /// A change of size the next block must announce (RFC 7541 §4.2): the smallest size
    /// reached since the last block, then the size now.
    private var pendingUpdate: (smallest: Int, last: Int)?

    /// - Parameters:
    ///   - maxTableSize: the peer's SETTINGS_HEADER_TABLE_SIZE as it stands (4 096 initially).
    ///   - tableSizeLimit: the most we keep even if the peer allows more.
    ///   - huffman: when to Huffman-code string literals.
    /// - Complexity: O(1).
    public init(maxTableSize: Int = 4_096, tableSizeLimit: Int = 4_096, huffman: HuffmanPolicy = .whenNotLonger) {
        self.tableSizeLimit = tableSizeLimit
        self.huffman = huffman
        table = DynamicTable(maxSize: Swift.min(maxTableSize, tableSizeLimit))
    }

    /// Takes the peer's new SETTINGS_HEADER_TABLE_SIZE; the next block starts with the
    /// size updates it calls for.
    /// - Complexity: O(1).
    public mutating func setPeerMaxTableSize(_ size: Int) {
        let newSize = Swift.min(size, tableSizeLimit)
        let smallest = Swift.min(pendingUpdate?.smallest ?? table.maxSize, newSize)
        pendingUpdate = (smallest, newSize)
    }

    /// Encodes `fields` as one block.
    /// - Complexity: O(f · d), f the fields and d the dynamic table's entries.
    public mutating func encode(_ fields: [HeaderField]) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(fields, into: &bytes)
        return bytes
    }

    /// Appends the block of `fields` to `bytes`.
    /// - Complexity: O(f · d), f the fields and d the dynamic table's entries.
    public mutating func encode(_ fields: [HeaderField], into bytes: inout [UInt8]) {
        beginBlock(into: &bytes)
        for field in fields {
            field.withOctets { name, value in encode(name: name, value: value, indexing: field.indexing, into: &bytes) }
        }
        table.checkInvariants()
    }

    /// Appends the block of `list` to `bytes`.
    /// - Complexity: O(f · d), f the fields and d the dynamic table's entries.
    public mutating func encode(_ list: HeaderList, into bytes: inout [UInt8]) {
        beginBlock(into: &bytes)
        encodeFields(of: list, into: &bytes)
        table.checkInvariants()
    }

    /// Appends the block of a response's HEADERS: `:status`, then `list`. A status of the
    /// static table (200, 204, 206, 304, 400, 404, 500) is its one-octet index, written
    /// without building the field.
    /// - Precondition: `status` is 100…999.
    /// - Complexity: O(f · d), f the fields and d the dynamic table's entries.
    public mutating func encodeResponse(status: Int, _ list: HeaderList, into bytes: inout [UInt8]) {
        beginBlock(into: &bytes)
        encodeStatus(status, into: &bytes)
        encodeFields(of: list, into: &bytes)
        table.checkInvariants()
    }

    /// Appends the block of a response's HEADERS: `:status`, then `fields`.
    /// - Precondition: `status` is 100…999.
    /// - Complexity: O(f · d), f the fields and d the dynamic table's entries.
    public mutating func encodeResponse(status: Int, _ fields: [HeaderField], into bytes: inout [UInt8]) {
        beginBlock(into: &bytes)
        encodeStatus(status, into: &bytes)
        for field in fields {
            field.withOctets { name, value in encode(name: name, value: value, indexing: field.indexing, into: &bytes) }
        }
        table.checkInvariants()
    }

    /// The size updates a block must start with (RFC 7541 §4.2), once.
    private mutating func beginBlock(into bytes: inout [UInt8]) {
        guard let update = pendingUpdate else { return }
        pendingUpdate = nil
        if update.smallest < table.maxSize { writeSizeUpdate(update.smallest, into: &bytes) }
        if update.last != table.maxSize { writeSizeUpdate(update.last, into: &bytes) }
    }

    private mutating func writeSizeUpdate(_ size: Int, into bytes: inout [UInt8]) {
        HPACKInteger.encode(size, prefix: 5, flags: 0x20, into: &bytes)
        table.setMaxSize(size)
    }

    private mutating func encodeFields(of list: HeaderList, into bytes: inout [UInt8]) {
        list.octets.withUnsafeBufferPointer { all in
            for entry in list.listed {
                encode(name: UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart]),
                       value: UnsafeBufferPointer(rebasing: all[entry.valueStart..<entry.end]), indexing: entry.indexing,
                       into: &bytes)
            }
        }
    }

    private static let statusName = Array(":status".utf8)

    /// `:status` as an index when the static table has it, else as any field.
    private mutating func encodeStatus(_ status: Int, into bytes: inout [UInt8]) {
        switch status {
        case 200: return bytes.append(0x88)
        case 204: return bytes.append(0x89)
        case 206: return bytes.append(0x8a)
        case 304: return bytes.append(0x8b)
        case 400: return bytes.append(0x8c)
        case 404: return bytes.append(0x8d)
        case 500: return bytes.append(0x8e)
        default: break
        }
        let digits: (UInt8, UInt8, UInt8) = (UInt8(ascii: "0") + UInt8(status / 100 % 10), UInt8(ascii: "0") + UInt8(status / 10 % 10),
                                             UInt8(ascii: "0") + UInt8(status % 10))
        withUnsafeBytes(of: digits) { raw in
            Self.statusName.withUnsafeBufferPointer { name in
                encode(name: name, value: raw.bindMemory(to: UInt8.self), indexing: .incremental, into: &bytes)
            }
        }
    }

    /// Appends one field, by octets in place.
    private mutating func encode(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                                 indexing: HeaderField.Indexing, into bytes: inout [UInt8]) {
        let inStatic = StaticTable.match(name: name, value: value)
        let dynamic = table.firstIndex(name: name, value: value)
        switch indexing {
        case .incremental:
            if let index = inStatic?.fieldIndex {
                return HPACKInteger.encode(index, prefix: 7, flags: 0x80, into: &bytes)
            }
            if let dynamic, dynamic.valueMatches {
                return HPACKInteger.encode(StaticTable.count + 1 + dynamic.index, prefix: 7, flags: 0x80, into: &bytes)
            }
        case .withoutIndexing:
            // Asked for a field whose value changes every time (`apns-id`): it is never in a
            // table, so only its name is looked for.
            break
        case .never:
            break // a literal every time: that is what never-indexed promises (RFC 7541 §7.1.3)
        }
        let nameIndex = inStatic?.nameIndex ?? dynamic.map { StaticTable.count + 1 + $0.index } ?? 0
        let size = name.count + value.count + 32
        // A field larger than the table would only empty it (§4.4): sent without indexing.
        let indexed = indexing == .incremental && size <= table.maxSize
        switch (indexed, indexing) {
        case (true, _): HPACKInteger.encode(nameIndex, prefix: 6, flags: 0x40, into: &bytes)
        case (false, .never): HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x10, into: &bytes)
        case (false, .incremental), (false, .withoutIndexing): HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x00, into: &bytes)
        }
        if nameIndex == 0 { writeString(name, into: &bytes) }
        writeString(value, into: &bytes)
        if indexed { table.insert(HeaderField(name: name, value: value)) }
    }

    private func writeString(_ string: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        let codedLength: Int?
        switch huffman {
        case .never: codedLength = nil
        case .always: codedLength = Huffman.encodedLength(string)
        case .whenNotLonger:
            let length = Huffman.encodedLength(string)
            codedLength = length <= string.count ? length : nil
        }
        if let codedLength {
            HPACKInteger.encode(codedLength, prefix: 7, flags: 0x80, into: &bytes)
            Huffman.encode(string, codedLength: codedLength, into: &bytes)
        } else {
            HPACKInteger.encode(string.count, prefix: 7, flags: 0x00, into: &bytes)
            bytes.append(contentsOf: string)
        }
    }
}
