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
        var fields: [HeaderField] = []
        var index = 0
        var listSize = 0
        var sizeUpdates = 0
        var sawField = false
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
            let field: HeaderField
            if first & 0x80 != 0 {
                // Indexed field (§6.1).
                field = try entry(at: HPACKInteger.decode(bytes, at: &index, prefix: 7))
            } else {
                // Literal field (§6.2): with incremental indexing (01), without (0000) or never (0001).
                let indexing: HeaderField.Indexing = first & 0x40 != 0 ? .incremental : first & 0x10 != 0 ? .never : .withoutIndexing
                let nameIndex = try HPACKInteger.decode(bytes, at: &index, prefix: indexing == .incremental ? 6 : 4)
                let name = nameIndex == 0 ? try string(bytes, at: &index) : try entry(at: nameIndex).name
                let value = try string(bytes, at: &index)
                field = HeaderField(name: name, value: value, indexing: indexing)
                if indexing == .incremental { table.insert(field) }
            }
            listSize += field.size
            // Stop at once: a block of references to one large entry is only a few octets
            // per field, and would otherwise expand to megabytes (the HPACK bomb).
            guard listSize <= maxHeaderListSize else { throw .headerListTooLarge(limit: maxHeaderListSize) }
            fields.append(field)
        }
        if sizeUpdateRequired { throw .missingTableSizeUpdate }
        table.checkInvariants()
        return fields
    }

    /// The entry at wire index `index`: static 1...61, then dynamic, newest first (§2.3.3).
    private func entry(at index: Int) throws(HPACKError) -> HeaderField {
        guard index > 0 else { throw .zeroIndex }
        if index <= StaticTable.count { return StaticTable.fields[index - 1] }
        let dynamicIndex = index - StaticTable.count - 1
        guard dynamicIndex < table.count else { throw .indexOutOfRange(index) }
        return table[dynamicIndex]
    }

    /// A string literal (§5.2): H bit, 7-bit-prefix length, octets raw or Huffman-coded.
    private func string(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(HPACKError) -> [UInt8] {
        guard index < bytes.count else { throw .truncated }
        let huffman = bytes[index] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &index, prefix: 7)
        guard length <= bytes.count - index else { throw .truncated }
        let content = UnsafeBufferPointer(rebasing: bytes[index..<(index + length)])
        index += length
        guard huffman else { return Array(content) }
        var decoded: [UInt8] = []
        try Huffman.decode(content, into: &decoded)
        return decoded
    }
}
