/// Why a field block could not be decoded (RFC 7541). The connection answers every one
/// with a connection error of its `code`: the decoder's table may no longer match
/// the peer's encoder, so no later block could be trusted (RFC 9113 §4.3).
public enum HPACKError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The block ended inside a representation.
    case truncated
    /// An integer beyond 2³²−1, or with more continuation octets than such a value needs (§5.1).
    case integerOverflow
    /// Index 0, which no entry has (§6.1).
    case zeroIndex
    /// An index past the static and dynamic tables (§2.3.3).
    case indexOutOfRange(Int)
    /// Huffman-coded data with EOS, padding longer than 7 bits, or padding that is not
    /// the most significant bits of EOS (§5.2).
    case invalidHuffman
    /// A dynamic table size update above the maximum our SETTINGS allow (§4.2, §6.3).
    case tableSizeAboveMaximum(Int, maximum: Int)
    /// A size update after the first field of a block (§4.2), or more than two of them.
    case misplacedTableSizeUpdate
    /// Our SETTINGS lowered the table size and the block did not begin by acknowledging it (§4.2).
    case missingTableSizeUpdate
    /// The decoded fields exceed SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2, §10.5.1):
    /// decoding stops there, so a small block that expands hugely costs at most the limit.
    case headerListTooLarge(limit: Int)

    /// The code the connection sends: COMPRESSION_ERROR, except ENHANCE_YOUR_CALM for a
    /// peer that ignores the header list size it was told.
    /// - Complexity: O(1).
    public var code: ErrorCode {
        switch self {
        case .headerListTooLarge: .enhanceYourCalm
        case .truncated, .integerOverflow, .zeroIndex, .indexOutOfRange, .invalidHuffman, .tableSizeAboveMaximum,
             .misplacedTableSizeUpdate, .missingTableSizeUpdate:
            .compressionError
        }
    }

    public var description: String {
        switch self {
        case .truncated: "a field block ends inside a representation"
        case .integerOverflow: "an HPACK integer overflows"
        case .zeroIndex: "an HPACK index of 0"
        case .indexOutOfRange(let index): "HPACK index \(index) is past the tables"
        case .invalidHuffman: "invalid Huffman-coded data"
        case .tableSizeAboveMaximum(let size, let maximum): "a dynamic table size update to \(size), above \(maximum)"
        case .misplacedTableSizeUpdate: "a dynamic table size update that is not at the start of a field block"
        case .missingTableSizeUpdate: "no dynamic table size update after SETTINGS_HEADER_TABLE_SIZE was lowered"
        case .headerListTooLarge(let limit): "a header list larger than SETTINGS_MAX_HEADER_LIST_SIZE \(limit)"
        }
    }
}
