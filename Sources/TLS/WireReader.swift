/// Reads RFC 8446's presentation language (§3) from bytes a peer sent: integers and
/// length-prefixed vectors, each bounded by what is left. Running out is `malformed(field)`.
struct WireReader {
    private let bytes: [UInt8]
    private(set) var index: Int
    private let end: Int
    /// What is being read, named in a failure.
    let field: String

    init(_ bytes: [UInt8], field: String) {
        self.init(bytes, from: 0, to: bytes.count, field: field)
    }

    private init(_ bytes: [UInt8], from start: Int, to end: Int, field: String) {
        self.bytes = bytes
        index = start
        self.end = end
        self.field = field
    }

    var isAtEnd: Bool { index == end }
    var remaining: Int { end - index }

    mutating func u8() throws(TLSFailure) -> UInt8 {
        guard remaining >= 1 else { throw .malformed(field) }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() throws(TLSFailure) -> UInt16 {
        guard remaining >= 2 else { throw .malformed(field) }
        defer { index += 2 }
        return UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    mutating func u24() throws(TLSFailure) -> Int {
        guard remaining >= 3 else { throw .malformed(field) }
        defer { index += 3 }
        return Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
    }

    mutating func bytes(_ count: Int) throws(TLSFailure) -> [UInt8] {
        guard remaining >= count else { throw .malformed(field) }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    /// A vector whose length is `lengthBytes` (1, 2 or 3) bytes, between `minimum` and `maximum` long.
    mutating func vector(lengthBytes: Int, minimum: Int = 0, maximum: Int = .max) throws(TLSFailure) -> [UInt8] {
        let count = try length(lengthBytes)
        guard count >= minimum, count <= maximum else { throw .malformed(field) }
        return try bytes(count)
    }

    /// A reader over the next vector (its length `lengthBytes` bytes), named `field`; this
    /// reader moves past it.
    mutating func nested(lengthBytes: Int, minimum: Int = 0, field: String) throws(TLSFailure) -> WireReader {
        let count = try length(lengthBytes)
        guard count >= minimum, remaining >= count else { throw .malformed(field) }
        defer { index += count }
        return WireReader(bytes, from: index, to: index + count, field: field)
    }

    private mutating func length(_ lengthBytes: Int) throws(TLSFailure) -> Int {
        switch lengthBytes {
        case 1: Int(try u8())
        case 2: Int(try u16())
        default: try u24()
        }
    }

    /// Fails unless everything was read.
    func expectEnd() throws(TLSFailure) {
        guard isAtEnd else { throw .malformed(field) }
    }
}

/// Writes RFC 8446's presentation language: integers big-endian, vectors with their length.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func u24(_ value: Int) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }

    /// A vector whose length prefix is `lengthBytes` bytes, its content written by `body`.
    mutating func vector(lengthBytes: Int, _ body: (inout WireWriter) -> Void) {
        var inner = WireWriter()
        body(&inner)
        switch lengthBytes {
        case 1: u8(UInt8(inner.bytes.count))
        case 2: u16(UInt16(inner.bytes.count))
        default: u24(inner.bytes.count)
        }
        append(inner.bytes)
    }

    /// A handshake message (§4): type, 24-bit length, body.
    static func handshake(_ type: HandshakeType, _ body: (inout WireWriter) -> Void) -> [UInt8] {
        var writer = WireWriter()
        writer.u8(type.rawValue)
        writer.vector(lengthBytes: 3, body)
        return writer.bytes
    }

    /// An extension (§4.2): type, then its data as a 16-bit vector.
    mutating func `extension`(_ type: UInt16, _ body: (inout WireWriter) -> Void) {
        u16(type)
        vector(lengthBytes: 2, body)
    }
}
