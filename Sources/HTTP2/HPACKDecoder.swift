/// Decodes field blocks (RFC 7541 §3, §6) against a dynamic table that lives as long as
/// the connection: blocks must be decoded in the order they were received, every one of
/// them, or the table no longer matches the peer's encoder.
public struct HPACKDecoder: Sendable {
    /// The dynamic table as the peer's encoder has built it.
    public private(set) var table: DynamicTable
    /// The largest size a size update may set: our SETTINGS_HEADER_TABLE_SIZE.
    public private(set) var maxAllowedTableSize: Int
    /// The largest header list decoded (RFC 9113 §6.5.2); beyond it decoding stops.
    public var maxHeaderListSize: Int
    /// Set when our SETTINGS lowered the table size below the table's current maximum: the
    /// next block must start with a size update (RFC 7541 §4.2).
    private var sizeUpdateRequired = false

    /// - Parameters:
    ///   - maxTableSize: our SETTINGS_HEADER_TABLE_SIZE (4 096 unless announced otherwise).
    ///   - maxHeaderListSize: the largest header list accepted, counted as RFC 9113 §6.5.2 does.
    /// - Complexity: O(1).
    public init(maxTableSize: Int = 4_096, maxHeaderListSize: Int = .max) {
        table = DynamicTable(maxSize: maxTableSize)
        maxAllowedTableSize = maxTableSize
        self.maxHeaderListSize = maxHeaderListSize
    }

    /// Takes a new SETTINGS_HEADER_TABLE_SIZE once the peer has acknowledged it. Lower
    /// than the table's current maximum, the peer's next block must start with a size
    /// update that brings it down.
    /// - Complexity: O(1).
    public mutating func setMaxAllowedTableSize(_ size: Int) {
        maxAllowedTableSize = size
        if table.maxSize > size { sizeUpdateRequired = true }
    }

    /// Decodes one complete field block.
    /// - Complexity: O(n + f), n the block's octets and f the octets of the fields.
    public mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [HeaderField] {
        try block.withUnsafeBufferPointer { bytes throws(HPACKError) in try decode(bytes) }
    }

    /// Decodes one complete field block.
    /// - Complexity: O(n + f), n the block's octets and f the octets of the fields.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(HPACKError) -> [HeaderField] {
        var list = HeaderList()
        try decode(bytes, into: &list)
        return Array(list)
    }

    /// Decodes one complete field block, appending its fields to `list`: their octets are
    /// copied into its one buffer, whether literals or references to a table. After an
    /// error `list` holds some of the block's fields; the connection is over then.
    /// - Complexity: O(n + f), n the block's octets and f the octets of the fields.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, into list: inout HeaderList) throws(HPACKError) {
        var index = 0
        var listSize = 0
        var sizeUpdates = 0
        var sawField = false
        list.entries.reserveCapacity(list.entries.count + 16)
        list.reserveOctets(bytes.count * 2 + 128) // what such a block usually decodes to
        while index < bytes.count {
            let first = bytes[index]
            if first & 0xe0 == 0x20 {
                // Dynamic table size update (§6.3): only before the first field (§4.2); two
                // suffice for any change of SETTINGS (the smallest size, then the last).
                guard !sawField, sizeUpdates < 2 else { throw .misplacedTableSizeUpdate }
                let size = try HPACKInteger.decode(bytes, at: &index, prefix: 5)
                guard size <= maxAllowedTableSize else { throw .tableSizeAboveMaximum(size, maximum: maxAllowedTableSize) }
                table.setMaxSize(size)
                sizeUpdates += 1
                sizeUpdateRequired = false
                continue
            }
            guard !sizeUpdateRequired else { throw .missingTableSizeUpdate }
            sawField = true
            let start = list.used
            if first & 0x80 != 0 {
                // Indexed field (§6.1).
                let field = try self.field(at: HPACKInteger.decode(bytes, at: &index, prefix: 7))
                // Counted before it is copied: a block of references to one large entry is
                // only a few octets per field (the HPACK bomb).
                listSize += field.size
                guard listSize <= maxHeaderListSize else { throw .headerListTooLarge(limit: maxHeaderListSize) }
                field.withAllOctets { list.appendOctets($0) }
                list.appendEntry(start: start, nameCount: field.nameCount, indexing: .incremental)
            } else {
                // Literal field (§6.2): with incremental indexing (01), without (0000) or never (0001).
                let indexing: HeaderField.Indexing = first & 0x40 != 0 ? .incremental : first & 0x10 != 0 ? .never : .withoutIndexing
                let nameIndex = try HPACKInteger.decode(bytes, at: &index, prefix: indexing == .incremental ? 6 : 4)
                if nameIndex == 0 {
                    try string(bytes, at: &index, into: &list)
                } else {
                    try field(at: nameIndex).withOctets { name, _ in list.appendOctets(name) }
                }
                let nameCount = list.used - start
                try string(bytes, at: &index, into: &list)
                listSize += list.used - start + 32
                guard listSize <= maxHeaderListSize else { throw .headerListTooLarge(limit: maxHeaderListSize) }
                list.appendEntry(start: start, nameCount: nameCount, indexing: indexing)
                if indexing == .incremental { table.insert(list[list.count - 1]) }
            }
        }
        if sizeUpdateRequired { throw .missingTableSizeUpdate }
        table.checkInvariants()
    }

    /// The entry at wire index `index`: static 1...61, then dynamic, newest first (§2.3.3).
    private func field(at index: Int) throws(HPACKError) -> HeaderField {
        guard index > 0 else { throw .zeroIndex }
        if index <= StaticTable.count { return StaticTable.fields[index - 1] }
        let dynamicIndex = index - StaticTable.count - 1
        guard dynamicIndex < table.count else { throw .indexOutOfRange(index) }
        return table[dynamicIndex]
    }

    /// Appends a string literal (§5.2) to `list`'s octets: H bit, 7-bit-prefix length,
    /// octets raw or Huffman-coded.
    private func string(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int,
                        into list: inout HeaderList) throws(HPACKError) {
        guard index < bytes.count else { throw .truncated }
        let huffman = bytes[index] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &index, prefix: 7)
        guard length <= bytes.count - index else { throw .truncated }
        let content = UnsafeBufferPointer(rebasing: bytes[index..<(index + length)])
        index += length
        guard huffman else { return list.appendOctets(content) }
        try list.appendOctets(upTo: Huffman.maximumDecodedLength(length)) { out throws(HPACKError) in
            guard let count = Huffman.decode(content, into: out) else { throw .invalidHuffman }
            return count
        }
    }
}
