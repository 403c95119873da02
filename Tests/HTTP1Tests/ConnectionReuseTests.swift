@testable import HTTP1
import Testing

/// Persistence and pipelining (RFC 9112 §9.3): requests come out in order; after one that
/// closes the connection, or after an error, nothing more does.
@Suite("HTTP/1.1 keep-alive and pipelining")
struct ConnectionReuseTests {
    @Test("pipelined requests come out in the order sent, with their bodies")
    func pipelined() {
        var text = ""
        for index in 0..<20 {
            text += index % 2 == 0
                ? "GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n"
                : "POST /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: \(String(index).count)\r\n\r\n\(index)"
        }
        let parsed = parse(text, chunkSize: 13)
        #expect(parsed.requests.map(\.target) == (0..<20).map { "/\($0)" })
        #expect(parsed.requests.map { String(decoding: $0.body, as: UTF8.self) } == (0..<20).map { $0 % 2 == 0 ? "" : "\($0)" })
    }

    @Test("after Connection: close the parser is closed and later octets are not read")
    func closeEndsTheConnection() {
        var parser = RequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(throws: Never.self) {
            guard case .request(let first)? = try parser.next() else { Issue.record("no first request"); return }
            #expect(first.target == "/a" && !first.keepAlive)
            #expect(try parser.next() == nil)
        }
        #expect(parser.isClosed)
    }

    @Test("after an error the parser is closed: the error once, then nil")
    func errorCloses() {
        var parser = RequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\nBAD\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect((try? parser.next()) != nil)
        #expect(throws: RequestError.self) { try parser.next() }
        #expect(parser.isClosed)
        #expect((try? parser.next()) == .some(nil))
    }

    @Test("a partial request is reported as such, a finished one is not")
    func partialRequest() throws {
        var parser = RequestParser()
        #expect(!parser.hasPartialRequest)
        parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.hasPartialRequest)
        parser.append(Array("cd".utf8))
        #expect(try parser.next() != nil)
        #expect(!parser.hasPartialRequest)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test("Expect: 100-continue asks for Continue before the body, once; not when the body already came or for HTTP/1.0")
    func expectContinue() throws {
        var parser = RequestParser()
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(try parser.next() == .continueExpected)
        #expect(try parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let request)? = try parser.next() else { Issue.record("no request"); return }
        #expect(request.body == Array("abc".utf8))

        #expect(parse("PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc").events.count == 1)
        #expect(parse("PUT /x HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n").events.isEmpty)
        #expect(parse("GET /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n").events.count == 1)
    }
}
