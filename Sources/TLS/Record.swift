/// One record as read from the wire (RFC 8446 §5.1): its outer type and its fragment (a
/// plaintext, or an encrypted_record still sealed), with the header kept for the AEAD.
package struct Record {
    /// The outer content type's byte (unknown types are refused by the reader).
    package let contentType: ContentType
    /// The five header bytes: a protected record's additional data (§5.2).
    package let header: [UInt8]
    package let fragment: [UInt8]

    package init(contentType: ContentType, header: [UInt8], fragment: [UInt8]) {
        self.contentType = contentType
        self.header = header
        self.fragment = fragment
    }
}

/// Cuts the client's bytes into records, as they come in pieces of any size. A record's
/// length is checked from its header, before its fragment is buffered.
struct RecordReader {
    private var buffer: [UInt8] = []
    private var start = 0

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet taken as records.
    var bufferedByteCount: Int { buffer.count - start }

    /// The next whole record, nil until one is; a header announcing more than `maxFragment`
    /// bytes (2^14 for plaintext, 2^14 + 256 once protected) or an unknown type throws.
    mutating func next(maxFragment: Int) throws(TLSFailure) -> Record? {
        let available = buffer.count - start
        guard available >= TLSLimits.recordHeaderBytes else { return nil }
        guard let type = ContentType(rawValue: buffer[start]) else { throw .unknownContentType }
        let length = Int(buffer[start + 3]) << 8 | Int(buffer[start + 4])
        guard length <= maxFragment else { throw .recordTooLong }
        guard available >= TLSLimits.recordHeaderBytes + length else { return nil }
        let header = Array(buffer[start..<(start + TLSLimits.recordHeaderBytes)])
        let fragment = Array(buffer[(start + TLSLimits.recordHeaderBytes)..<(start + TLSLimits.recordHeaderBytes + length)])
        start += TLSLimits.recordHeaderBytes + length
        if start > 1 << 16 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return Record(contentType: type, header: header, fragment: fragment)
    }
}

/// The plaintext record header: type, legacy_record_version 0x0303, length (§5.1).
func recordHeader(_ type: ContentType, length: Int) -> [UInt8] {
    [type.rawValue, 0x03, 0x03, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
}
