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
    private var phase = Phase.head(HeadScanner())

    private enum Phase: Sendable {
        case head(HeadScanner)
        /// A `Content-Length` body, copied once whole.
        case body(Head, length: Int)
        case chunked(Head, ChunkedDecoder)
        case closed
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
        HeadScanner.append(bytes, to: &buffer, start: &start)
    }

    /// Adds received octets.
    /// - Complexity: amortised O(n), n the octets added.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Octets received and not yet handed out in a request.
    /// - Complexity: O(1).
    public var bufferedByteCount: Int { buffer.count - start }

    /// The octets the parser holds for requests not yet handed out: those received and
    /// not yet handed out, and a chunked body decoded so far. What a server counts against
    /// its memory budget.
    /// - Complexity: O(1).
    public var heldByteCount: Int {
        if case .chunked(_, let decoder) = phase { return bufferedByteCount + decoder.body.count }
        return bufferedByteCount
    }

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
        phase = head.framing.keepAlive ? .head(HeadScanner()) : .closed
        return .request(Request(method: head.line.method, target: head.line.target, version: head.line.version,
                                fields: head.fields, body: body, keepAlive: head.framing.keepAlive))
    }

    /// Searches for the end of the head, answering a broken limit with its status.
    private mutating func findHead(_ scan: inout HeadScanner) throws(RequestError) -> Bool {
        let bounds = HeadScanner.Limits(maxStartLineLength: limits.maxRequestLineLength,
                                        maxHeaderSectionSize: limits.maxHeaderSectionSize, maxFieldCount: limits.maxFieldCount)
        do {
            return try scan.scan(buffer, start: &start, limits: bounds)
        } catch {
            switch error {
            case .startLine: throw requestLineTooLong
            case .headerSection: throw headerSectionTooLarge
            case .fieldCount: throw .fieldsTooLarge("more than \(limits.maxFieldCount) header fields")
            }
        }
    }

    private var requestLineTooLong: RequestError { .uriTooLong("a request line longer than \(limits.maxRequestLineLength) octets") }
    private var headerSectionTooLarge: RequestError {
        .fieldsTooLarge("a header section larger than \(limits.maxHeaderSectionSize) octets")
    }

    /// Parses the head `findHead` delimited and consumes it.
    private mutating func readHead(_ scan: HeadScanner) throws(RequestError) -> Head {
        let line = try RequestLine.parse(scan.startLine(in: buffer, start: start))
        var fields: [Field] = []
        for fieldLine in scan.fieldLines(in: buffer, start: start) { fields.append(try FieldLine.parse(fieldLine)) }
        start += scan.headLength
        let framing = try MessageFraming.of(version: line.version, fields: fields, limits: limits)
        return Head(line: line, fields: fields, framing: framing)
    }
}
