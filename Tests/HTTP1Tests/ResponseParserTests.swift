@testable import HTTP1
import Testing

/// What a response parser made of some input: the responses it handed out, then the
/// error that closed it (or the end of input's verdict), if any.
struct ParsedResponses: Equatable {
    var responses: [Response] = []
    var error: ResponseParseError?
    var closed = false
}

/// Feeds `bytes` to a response parser in chunks of `chunkSize`, taking every response
/// after each chunk as a client does, one per method in `methods` (GET when they run
/// out); then, with `ended`, tells it the connection ended.
func parseResponses(_ bytes: [UInt8], methods: [String] = [], limits: ResponseLimits = ResponseLimits(),
                    chunkSize: Int = .max, ended: Bool = false) -> ParsedResponses {
    var parser = ResponseParser(limits: limits)
    var parsed = ParsedResponses()
    var offset = 0
    func method() -> String { parsed.responses.count < methods.count ? methods[parsed.responses.count] : "GET" }
    repeat {
        let end = offset + Swift.min(chunkSize, bytes.count - offset)
        parser.append(Array(bytes[offset..<end]))
        offset = end
        do {
            while let response = try parser.next(requestMethod: method()) { parsed.responses.append(response) }
        } catch {
            parsed.error = error
            parsed.closed = parser.isClosed
            return parsed
        }
    } while offset < bytes.count
    if ended {
        do {
            if let response = try parser.finish() { parsed.responses.append(response) }
        } catch {
            parsed.error = error
        }
    }
    parsed.closed = parser.isClosed
    return parsed
}

func parseResponses(_ text: String, methods: [String] = [], limits: ResponseLimits = ResponseLimits(), chunkSize: Int = .max,
                    ended: Bool = false) -> ParsedResponses {
    parseResponses(Array(text.utf8), methods: methods, limits: limits, chunkSize: chunkSize, ended: ended)
}

@Suite("HTTP/1.1 response parser")
struct ResponseParserTests {
    @Test("Content-Length, chunked and close-delimited bodies, whole and one octet at a time, give the same responses")
    func bodies() {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
            + "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n"
            + "HTTP/1.1 500 \r\n\r\nthe rest until the end"
        for chunk in [Int.max, 1, 2, 7] {
            let parsed = parseResponses(text, chunkSize: chunk, ended: true)
            #expect(parsed.error == nil, "chunks of \(chunk)")
            #expect(parsed.responses.map(\.status) == [200, 201, 500])
            #expect(parsed.responses.first?.fields == [Field("content-type", "application/json"), Field("content-length", "7")])
            #expect(parsed.responses.map { String(decoding: $0.body, as: UTF8.self) } == ["{\"a\":1}", "abcde", "the rest until the end"])
            #expect(parsed.closed, "a body delimited by the connection's end closes it")
        }
    }

    @Test("keep-alive: HTTP/1.1 persists unless Connection: close; HTTP/1.0 only with keep-alive; nothing is read past a closing response")
    func keepAlive() {
        #expect(!parseResponses("HTTP/1.1 204 No Content\r\n\r\n").closed)
        #expect(parseResponses("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\nHTTP/1.1 200 OK\r\n\r\n").responses.count == 1)
        #expect(parseResponses("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").closed)
        #expect(!parseResponses("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").closed)
    }

    @Test("1xx answers are skipped (100 Continue, 103 with fields); 101, never asked for, is refused")
    func informational() {
        let parsed = parseResponses("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(parsed.responses == [Response(status: 200, fields: [Field("content-length", "2")], body: Array("ok".utf8))])
        #expect(parseResponses("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n").error.map { if case .malformed = $0 { true } else { false } } == true)
        var limits = ResponseLimits()
        limits.maxInformationalResponses = 2
        #expect(parseResponses(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3), limits: limits).error
            == .tooLarge("more than 2 informational responses"))
    }

    @Test("no body for HEAD, 204 and 304 whatever the fields say")
    func bodiless() {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        let parsed = parseResponses(text, methods: ["HEAD", "GET", "GET"])
        #expect(parsed.error == nil && parsed.responses.map(\.status) == [200, 304, 204] && parsed.responses.allSatisfy(\.body.isEmpty))
    }

    @Test("framing that needs a guess is refused: both Transfer-Encoding and Content-Length, gzip, lengths that differ or are not numbers")
    func framingRefused() {
        for text in ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"] {
            let parsed = parseResponses(text)
            #expect(parsed.error.map { if case .malformed = $0 { true } else { false } } == true, "\(text.debugDescription)")
            #expect(parsed.closed)
        }
        #expect(parseResponses("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc").responses.count == 1)
    }

    @Test("malformed status lines are refused: another major version, a short code, a missing space, a control octet in the reason")
    func statusLines() {
        for line in ["HTTP/2.0 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1200 OK", "HTTP/1.1 200 O\u{1}K", "ICY 200 OK", "HTTP/1.1 099 Low"] {
            #expect(parseResponses(line + "\r\n\r\n").error != nil, "\(line.debugDescription)")
        }
        #expect(parseResponses("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n").responses.map(\.status) == [404], "no reason, no space")
    }

    @Test("limits: a long status line, a large header section, too many fields, a body over the limit (announced, chunked, or until close)")
    func limits() {
        var limits = ResponseLimits()
        limits.maxStatusLineLength = 40
        limits.maxHeaderSectionSize = 100
        limits.maxFieldCount = 3
        limits.maxBodySize = 10
        let cases = ["HTTP/1.1 200 " + String(repeating: "k", count: 60),
                     "HTTP/1.1 200 OK\r\nX: " + String(repeating: "v", count: 120),
                     "HTTP/1.1 200 OK\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nb\r\n",
                     "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11)]
        for text in cases {
            for chunk in [Int.max, 1] {
                let error = parseResponses(text, limits: limits, chunkSize: chunk).error
                #expect(error.map { if case .tooLarge = $0 { true } else { false } } == true, "\(text.prefix(40).debugDescription) in chunks of \(chunk): \(String(describing: error))")
            }
        }
    }

    @Test("the connection ends mid-response: incomplete; between responses: nothing; a response cut short never comes out")
    func endOfInput() {
        #expect(parseResponses("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", ended: true).error == .incomplete)
        #expect(parseResponses("HTTP/1.1 200 OK\r\nContent-Le", ended: true).error == .incomplete)
        #expect(parseResponses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab", ended: true).error == .incomplete)
        let between = parseResponses("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", ended: true)
        #expect(between.error == nil && between.responses.count == 1)
    }
}

@Suite("HTTP/1.1 request writer")
struct RequestEncodingTests {
    @Test("a request is written as a client sends it and the server's parser reads it back the same")
    func roundTrip() throws {
        let request = Request(method: "POST", target: "/devices/3?x=1", fields: [Field("host", "127.0.0.1:2198"), Field("content-type", "application/json")],
                              body: Array("{\"token\":\"ab\"}".utf8))
        var bytes: [UInt8] = []
        try request.encode(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "POST /devices/3?x=1 HTTP/1.1\r\nhost: 127.0.0.1:2198\r\ncontent-type: application/json\r\ncontent-length: 14\r\n\r\n{\"token\":\"ab\"}")
        let read = parse(bytes)
        #expect(read.requests.first?.body == request.body && read.requests.first?.target == request.target)
        var closing = Request(method: "GET", target: "/", fields: [Field("host", "h")], keepAlive: false)
        bytes = []
        try closing.encode(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n")
        closing.method = "PUT"
        bytes = []
        try closing.encode(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("content-length: 0\r\n"), "PUT says its empty body")
    }

    @Test("what would split or reframe the request is refused and nothing is written: CR LF in a value, an owned field, a space in the target, no host")
    func refusals() {
        let host = Field("host", "h")
        let requests = [Request(method: "GET", target: "/", fields: [host, Field("x", "a\r\nx-injected: 1")]),
                        Request(method: "GET", target: "/", fields: [host, Field("Content-Length", "5")]),
                        Request(method: "GET", target: "/a b", fields: [host]),
                        Request(method: "G T", target: "/", fields: [host]),
                        Request(method: "GET", target: "/"),
                        Request(method: "GET", target: "/", fields: [host, host])]
        for request in requests {
            var bytes: [UInt8] = []
            #expect(throws: RequestEncodingError.self) { try request.encode(into: &bytes) }
            #expect(bytes.isEmpty)
        }
    }
}
