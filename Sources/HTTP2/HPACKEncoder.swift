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
        if let update = pendingUpdate {
            pendingUpdate = nil
            if update.smallest < table.maxSize { writeSizeUpdate(update.smallest, into: &bytes) }
            if update.last != table.maxSize { writeSizeUpdate(update.last, into: &bytes) }
        }
        for field in fields { encode(field, into: &bytes) }
        table.checkInvariants()
    }

    private mutating func writeSizeUpdate(_ size: Int, into bytes: inout [UInt8]) {
        HPACKInteger.encode(size, prefix: 5, flags: 0x20, into: &bytes)
        table.setMaxSize(size)
    }

    private mutating func encode(_ field: HeaderField, into bytes: inout [UInt8]) {
        let dynamic = table.firstIndex(name: field.name, value: field.value)
        switch field.indexing {
        case .incremental:
            if let index = StaticTable.indexOfField[field] {
                return HPACKInteger.encode(index, prefix: 7, flags: 0x80, into: &bytes)
            }
            if let dynamic, dynamic.valueMatches {
                return HPACKInteger.encode(StaticTable.count + 1 + dynamic.index, prefix: 7, flags: 0x80, into: &bytes)
            }
        case .withoutIndexing:
            // Asked for a field whose value changes every time (`apns-id`): it is never in a
            // table, so looking for it whole would only cost the hashing of its octets.
            break
        case .never:
            break // a literal every time: that is what never-indexed promises (RFC 7541 §7.1.3)
        }
        let nameIndex = StaticTable.indexOfName[field.name] ?? dynamic.map { StaticTable.count + 1 + $0.index } ?? 0
        // A field larger than the table would only empty it (§4.4): sent without indexing.
        let indexed = field.indexing == .incremental && field.size <= table.maxSize
        switch (indexed, field.indexing) {
        case (true, _): HPACKInteger.encode(nameIndex, prefix: 6, flags: 0x40, into: &bytes)
        case (false, .never): HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x10, into: &bytes)
        case (false, .incremental), (false, .withoutIndexing): HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x00, into: &bytes)
        }
        if nameIndex == 0 { writeString(field.name, into: &bytes) }
        writeString(field.value, into: &bytes)
        if indexed { table.insert(field) }
    }

    private func writeString(_ string: [UInt8], into bytes: inout [UInt8]) {
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
            Huffman.encode(string, into: &bytes)
        } else {
            HPACKInteger.encode(string.count, prefix: 7, flags: 0x00, into: &bytes)
            bytes.append(contentsOf: string)
        }
    }
}
