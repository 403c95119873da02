/// Finds where a message's head ends — the start line (a request line or a status line),
/// the field lines, the empty line — in octets that arrive in pieces, enforcing the head's
/// limits on the way. Each octet is searched once, however the head is split: what was
/// searched is kept as offsets from the message's start, which stay valid when the
/// buffer is compacted. `RequestParser` and `ResponseParser` both read heads with it.
struct HeadScanner: Sendable {
    /// The bounds a head must keep.
    struct Limits: Sendable {
        var maxStartLineLength: Int
        var maxHeaderSectionSize: Int
        var maxFieldCount: Int
    }

    /// Which bound a head broke, for the parser to answer in its own terms.
    enum Overflow: Error, Hashable, Sendable {
        case startLine
        case headerSection
        case fieldCount
    }

    private(set) var scanned = 0
    private(set) var lineStart = 0
    /// The start line's length without its line ending, once found.
    private(set) var startLineLength: Int?
    /// Where the header section starts, once the start line is found.
    private(set) var fieldsStart = 0
    private(set) var fieldCount = 0

    /// Searches `buffer[start...]` for the empty line that ends the head: true once found
    /// (the head then spans `headLength` octets from `start`). Empty lines before the start
    /// line are dropped (RFC 9112 §2.2), moving `start`. A line ends at LF; a CR before it
    /// is dropped with it.
    /// - Complexity: O(n), n the octets not searched before.
    mutating func scan(_ buffer: [UInt8], start: inout Int, limits: Limits) throws(Overflow) -> Bool {
        var index = start + scanned
        while index < buffer.count {
            guard buffer[index] == CharacterClass.lineFeed else {
                index += 1
                continue
            }
            let lineBegin = start + lineStart
            let length = index - lineBegin - (index > lineBegin && buffer[index - 1] == CharacterClass.carriageReturn ? 1 : 0)
            if startLineLength == nil {
                if length == 0 {
                    start = index + 1
                    self = HeadScanner()
                    index = start
                    continue
                }
                guard length <= limits.maxStartLineLength else { throw .startLine }
                startLineLength = length
                fieldsStart = index + 1 - start
            } else if length == 0 {
                scanned = index + 1 - start
                lineStart = scanned
                return true
            } else {
                fieldCount += 1
                guard fieldCount <= limits.maxFieldCount else { throw .fieldCount }
            }
            index += 1
            lineStart = index - start
            guard startLineLength == nil || lineStart - fieldsStart <= limits.maxHeaderSectionSize else { throw .headerSection }
        }
        scanned = index - start
        // A line still open may already be over its limit: no need to wait for its end. The
        // one octet of slack is a CR whose LF has not come: the verdict must not depend on
        // where the input was split.
        if startLineLength == nil {
            guard scanned - lineStart <= limits.maxStartLineLength + 1 else { throw .startLine }
        } else {
            guard scanned - fieldsStart <= limits.maxHeaderSectionSize + 1 else { throw .headerSection }
        }
        return false
    }

    /// The octets of a whole head, from its start to after its empty line.
    var headLength: Int { lineStart }

    /// The start line of a whole head found at `start`, without its line ending.
    func startLine(in buffer: [UInt8], start: Int) -> ArraySlice<UInt8> {
        buffer[start..<(start + (startLineLength ?? 0))]
    }

    /// The field lines of a whole head found at `start`, without their line endings.
    /// - Complexity: O(n), n the octets of the header section.
    func fieldLines(in buffer: [UInt8], start: Int) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        lines.reserveCapacity(fieldCount)
        var lineBegin = start + fieldsStart
        let end = start + lineStart
        while lineBegin < end {
            var lineEnd = lineBegin
            while buffer[lineEnd] != CharacterClass.lineFeed { lineEnd += 1 }
            var line = buffer[lineBegin..<lineEnd]
            if line.last == CharacterClass.carriageReturn { line = line.dropLast() }
            if !line.isEmpty { lines.append(line) }
            lineBegin = lineEnd + 1
        }
        return lines
    }

    /// Appends received octets to `buffer`, whose unread octets are `buffer[start...]`,
    /// first dropping what was read once it is most of the buffer: a long connection
    /// neither grows the buffer nor shifts it on every message.
    /// - Complexity: amortised O(n), n the octets added.
    static func append(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8], start: inout Int) {
        if start == buffer.count {
            // A large body's capacity is not kept for the connection's life.
            if buffer.capacity > 1 << 16 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            start = 0
        } else if start >= 4_096 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }
}
