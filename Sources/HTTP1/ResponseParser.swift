/// The client side of HTTP/1.1 (RFC 9112) as a state machine without I/O: received
/// octets go in with `append`, whole responses come out of `next`, one per request sent,
/// in order, each with its body decoded (`Content-Length`, chunked, or up to the
/// connection's end, which `finish` reports). Informational (1xx) responses are skipped.
///
/// Malformed or oversized input is a `ResponseParseError`; after it, and after a response
/// that does not keep the connection alive, the parser is closed: `next` returns nil and
/// the client closes the connection. It never traps on any input. It holds at most one
/// response's head and body (bounded by `ResponseLimits`) plus what was appended beyond it.
public struct ResponseParser: Sendable {
    public let limits: ResponseLimits

    /// Unread octets are `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var phase = Phase.head(HeadScanner())
    /// 1xx responses skipped before the current final one.
    private var informational = 0

    private enum Phase: Sendable {
        case head(HeadScanner)
        case body(Head, length: Int)
        case chunked(Head, ChunkedDecoder)
        case untilClose(Head)
        case closed
    }

    /// A final response whose head is read and whose body is on its way.
    private struct Head: Sendable {
        var status: Int
        var fields: [Field]
        var keepAlive: Bool
    }

    /// - Complexity: O(1).
    public init(limits: ResponseLimits = ResponseLimits()) {
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

    /// Octets received and not yet handed out in a response.
    /// - Complexity: O(1).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether a response has begun and is not whole.
    /// - Complexity: O(1).
    public var hasPartialResponse: Bool {
        switch phase {
        case .head: start < buffer.count || informational > 0
        case .body, .chunked, .untilClose: true
        case .closed: false
        }
    }

    /// Whether no more responses will come out: after an error, or a response that closes
    /// the connection (`Connection: close`, HTTP/1.0 without keep-alive, a body delimited
    /// by the connection's end).
    /// - Complexity: O(1).
    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// The next whole response to a request with method `requestMethod` (a response to
    /// HEAD has no body whatever its fields say), or nil until more octets come (or for
    /// good, once closed). A thrown error closes the parser.
    /// - Complexity: O(n), n the octets examined; each is examined once.
    public mutating func next(requestMethod: String) throws(ResponseParseError) -> Response? {
        do {
            return try advance(requestMethod: requestMethod)
        } catch {
            phase = .closed
            throw error
        }
    }

    /// The connection ended: a body delimited by it is whole now; a response cut short is
    /// `.incomplete`; nothing begun is nil. The parser is closed after it.
    /// - Complexity: O(1).
    public mutating func finish() throws(ResponseParseError) -> Response? {
        defer { phase = .closed }
        switch phase {
        case .untilClose(let head):
            let body = Array(buffer[start...])
            start = buffer.count
            return Response(status: head.status, fields: head.fields, body: body)
        case .head where !hasPartialResponse, .closed:
            return nil
        case .head, .body, .chunked:
            throw .incomplete
        }
    }

    private mutating func advance(requestMethod: String) throws(ResponseParseError) -> Response? {
        while true {
            switch phase {
            case .closed:
                return nil
            case .head(var scan):
                guard try findHead(&scan) else {
                    phase = .head(scan)
                    return nil
                }
                guard let parsed = try readHead(scan, requestMethod: requestMethod) else { continue }
                let (head, framing) = parsed
                switch framing.body {
                case .none: return finish(head, body: [])
                case .length(let length): phase = .body(head, length: length)
                case .chunked:
                    phase = .chunked(head, ChunkedDecoder(maxBodySize: limits.maxBodySize,
                                                          maxTrailerSectionSize: limits.maxHeaderSectionSize))
                case .untilClose: phase = .untilClose(head)
                }
            case .body(let head, let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<(start + length)])
                start += length
                return finish(head, body: body)
            case .chunked(let head, var decoder):
                phase = .closed // the decoder's body stays uniquely referenced while it grows
                do {
                    start += try decoder.decode(buffer[start...])
                } catch {
                    throw ResponseParseError(error)
                }
                guard decoder.isDone else {
                    phase = .chunked(head, decoder)
                    return nil
                }
                return finish(head, body: decoder.body)
            case .untilClose:
                guard buffer.count - start <= limits.maxBodySize else {
                    throw .tooLarge("a body larger than \(limits.maxBodySize) octets")
                }
                return nil
            }
        }
    }

    private mutating func finish(_ head: Head, body: [UInt8]) -> Response {
        phase = head.keepAlive ? .head(HeadScanner()) : .closed
        informational = 0
        return Response(status: head.status, fields: head.fields, body: body)
    }

    private mutating func findHead(_ scan: inout HeadScanner) throws(ResponseParseError) -> Bool {
        let bounds = HeadScanner.Limits(maxStartLineLength: limits.maxStatusLineLength,
                                        maxHeaderSectionSize: limits.maxHeaderSectionSize, maxFieldCount: limits.maxFieldCount)
        do {
            return try scan.scan(buffer, start: &start, limits: bounds)
        } catch {
            switch error {
            case .startLine: throw .tooLarge("a status line longer than \(limits.maxStatusLineLength) octets")
            case .headerSection: throw .tooLarge("a header section larger than \(limits.maxHeaderSectionSize) octets")
            case .fieldCount: throw .tooLarge("more than \(limits.maxFieldCount) header fields")
            }
        }
    }

    /// Parses the head `findHead` delimited and consumes it: the final response's head
    /// and framing, or nil for an informational response, skipped.
    private mutating func readHead(_ scan: HeadScanner, requestMethod: String) throws(ResponseParseError) -> (Head, ResponseFraming)? {
        let line = try StatusLine.parse(scan.startLine(in: buffer, start: start))
        var fields: [Field] = []
        do {
            for fieldLine in scan.fieldLines(in: buffer, start: start) { fields.append(try FieldLine.parse(fieldLine)) }
        } catch {
            throw ResponseParseError(error)
        }
        start += scan.headLength
        if line.status < 200 {
            // We never ask to switch protocols; any other 1xx is followed by the final answer (RFC 9110 §15.2).
            guard line.status != 101 else { throw .malformed("101 Switching Protocols, which was not asked for") }
            informational += 1
            guard informational <= limits.maxInformationalResponses else {
                throw .tooLarge("more than \(limits.maxInformationalResponses) informational responses")
            }
            phase = .head(HeadScanner())
            return nil
        }
        let framing = try ResponseFraming.of(status: line.status, version: line.version, fields: fields,
                                             requestMethod: requestMethod, limits: limits)
        return (Head(status: line.status, fields: fields, keepAlive: framing.keepAlive), framing)
    }
}
