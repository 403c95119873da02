/// The server side of HTTP/1.1 (RFC 9112) as a state machine without I/O: received octets
/// go in with `append`, whole requests come out of `next`, in the order they were sent
/// (pipelined requests included), each with its body decoded.
///
/// Malformed or oversized input is a `RequestError` carrying the status to answer (400,
/// 413, 414, 431, 501, 505); after it, and after a request that does not keep the
/// connection alive, the parser is closed: `next` returns nil and the transport closes the
/// connection once its answer is written. It never traps on any input.
///
/// It holds at most one request's head and body (both bounded by `RequestLimits`) plus
/// what was appended beyond it: a transport that appends only when `next` returned nil
/// bounds it to one read more.
public struct RequestParser: Sendable {
    /// What `next` hands out.
    public enum Event: Hashable, Sendable {
        /// A whole request.
        case request(Request)
        /// The request whose head was just read asks for `100 Continue` before sending its
        /// body (`Expect: 100-continue`) and none of the body has come: answer
        /// `Response.continue` and read on.
        case continueExpected
    }

    public let limits: RequestLimits

    /// Unread octets are `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var phase = Phase.head(HeadScan())

    private enum Phase: Sendable {
        case head(HeadScan)
        /// A `Content-Length` body, copied once whole.
        case body(Head, length: Int)
        case chunked(Head, ChunkedDecoder)
        case closed
    }

    /// How far the search for the end of the head got, as offsets from `start` (which
    /// stay valid when the buffer is compacted). Searched octets are not searched again,
    /// so a head that arrives an octet at a time costs its length, not its square.
    private struct HeadScan: Sendable {
        var scanned = 0
        var lineStart = 0
        /// The request line's length without its line ending, once found.
        var requestLineLength: Int?
        /// Where the header section starts, once the request line is found.
        var fieldsStart = 0
        var fieldCount = 0
    }

    /// A request whose head is read and whose body is on its way.
    private struct Head: Sendable {
        var line: RequestLine
        var fields: [Field]
        var framing: MessageFraming
    }

    /// - Complexity: O(1).
    public init(limits: RequestLimits = RequestLimits()) {
        self.limits = limits
    }

    /// Adds received octets.
    /// - Complexity: amortised O(n), n the octets added.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
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

    /// Adds received octets.
    /// - Complexity: amortised O(n), n the octets added.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Octets received and not yet handed out in a request.
    /// - Complexity: O(1).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether a request has begun and is not whole: octets of it are buffered or its body
    /// is on its way. A server stopping may close a connection without one at once.
    /// - Complexity: O(1).
    public var hasPartialRequest: Bool {
        switch phase {
        case .head: start < buffer.count
        case .body, .chunked: true
        case .closed: false
        }
    }

    /// Whether no more requests will come out: after an error, or a request that closes the connection.
    /// - Complexity: O(1).
    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// The next request, a request for `100 Continue`, or nil until more octets come (or
    /// for good, once closed). A thrown error closes the parser.
    /// - Complexity: O(n), n the octets examined; each is examined once.
    public mutating func next() throws(RequestError) -> Event? {
        do {
            return try advance()
        } catch {
            phase = .closed
            throw error
        }
    }

    private mutating func advance() throws(RequestError) -> Event? {
        while true {
            switch phase {
            case .closed:
                return nil
            case .head(var scan):
                guard try findHead(&scan) else {
                    phase = .head(scan)
                    return nil
                }
                let head = try readHead(scan)
                switch head.framing.body {
                case .none:
                    return finish(head, body: [])
                case .length(let length):
                    phase = .body(head, length: length)
                case .chunked:
                    phase = .chunked(head, ChunkedDecoder(maxBodySize: limits.maxBodySize,
                                                          maxTrailerSectionSize: limits.maxHeaderSectionSize))
                }
                // §10.1.1: a client that sent some of the body already is not waiting.
                if head.framing.expectsContinue && start == buffer.count { return .continueExpected }
            case .body(let head, let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<(start + length)])
                start += length
                return finish(head, body: body)
            case .chunked(let head, var decoder):
                phase = .closed // the decoder's body stays uniquely referenced while it grows
                start += try decoder.decode(buffer[start...])
                guard decoder.isDone else {
                    phase = .chunked(head, decoder)
                    return nil
                }
                return finish(head, body: decoder.body)
            }
        }
    }

    private mutating func finish(_ head: Head, body: [UInt8]) -> Event {
        phase = head.framing.keepAlive ? .head(HeadScan()) : .closed
        return .request(Request(method: head.line.method, target: head.line.target, version: head.line.version,
                                fields: head.fields, body: body, keepAlive: head.framing.keepAlive))
    }

    /// Searches for the empty line that ends the head, enforcing the limits on the way:
    /// true once found (`scan` then spans it). Empty lines before the request line are
    /// dropped (RFC 9112 §2.2). A line ends at LF; a CR before it is dropped with it.
    private mutating func findHead(_ scan: inout HeadScan) throws(RequestError) -> Bool {
        var index = start + scan.scanned
        while index < buffer.count {
            guard buffer[index] == CharacterClass.lineFeed else {
                index += 1
                continue
            }
            let lineStart = start + scan.lineStart
            let length = index - lineStart - (index > lineStart && buffer[index - 1] == CharacterClass.carriageReturn ? 1 : 0)
            if scan.requestLineLength == nil {
                if length == 0 {
                    start = index + 1
                    scan = HeadScan()
                    index = start
                    continue
                }
                guard length <= limits.maxRequestLineLength else { throw requestLineTooLong }
                scan.requestLineLength = length
                scan.fieldsStart = index + 1 - start
            } else if length == 0 {
                scan.scanned = index + 1 - start
                scan.lineStart = scan.scanned
                return true
            } else {
                scan.fieldCount += 1
                guard scan.fieldCount <= limits.maxFieldCount else {
                    throw .fieldsTooLarge("more than \(limits.maxFieldCount) header fields")
                }
            }
            index += 1
            scan.lineStart = index - start
            guard scan.requestLineLength == nil || scan.lineStart - scan.fieldsStart <= limits.maxHeaderSectionSize else {
                throw headerSectionTooLarge
            }
        }
        scan.scanned = index - start
        // A line still open may already be over its limit: no need to wait for its end. The
        // one octet of slack is a CR whose LF has not come: the verdict must not depend on
        // where the input was split.
        if scan.requestLineLength == nil {
            guard scan.scanned - scan.lineStart <= limits.maxRequestLineLength + 1 else { throw requestLineTooLong }
        } else {
            guard scan.scanned - scan.fieldsStart <= limits.maxHeaderSectionSize + 1 else { throw headerSectionTooLarge }
        }
        return false
    }

    private var requestLineTooLong: RequestError { .uriTooLong("a request line longer than \(limits.maxRequestLineLength) octets") }
    private var headerSectionTooLarge: RequestError {
        .fieldsTooLarge("a header section larger than \(limits.maxHeaderSectionSize) octets")
    }

    /// Parses the head `findHead` delimited and consumes it.
    private mutating func readHead(_ scan: HeadScan) throws(RequestError) -> Head {
        let line = try RequestLine.parse(buffer[start..<(start + (scan.requestLineLength ?? 0))])
        var fields: [Field] = []
        fields.reserveCapacity(scan.fieldCount)
        var lineStart = start + scan.fieldsStart
        let end = start + scan.lineStart
        while lineStart < end {
            var lineEnd = lineStart
            while buffer[lineEnd] != CharacterClass.lineFeed { lineEnd += 1 }
            var fieldLine = buffer[lineStart..<lineEnd]
            if fieldLine.last == CharacterClass.carriageReturn { fieldLine = fieldLine.dropLast() }
            if !fieldLine.isEmpty { fields.append(try FieldLine.parse(fieldLine)) }
            lineStart = lineEnd + 1
        }
        start = end
        let framing = try MessageFraming.of(version: line.version, fields: fields, limits: limits)
        return Head(line: line, fields: fields, framing: framing)
    }
}
