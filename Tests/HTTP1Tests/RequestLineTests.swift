@testable import HTTP1
import Testing

/// The request line (RFC 9112 §3): method, target and version with single spaces.
@Suite("HTTP/1.1 request line")
struct RequestLineTests {
    @Test("a request line gives its method, target and version as sent")
    func wellFormed() throws {
        let request = try #require(parse("GET /status?verbose=1 HTTP/1.1\r\nHost: a\r\n\r\n").requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/status?verbose=1")
        #expect(request.version == .http1_1)
    }

    @Test("absolute-form, asterisk-form and authority-form targets are kept as sent")
    func targetForms() {
        let forms = ["GET http://example.com/x HTTP/1.1", "OPTIONS * HTTP/1.1", "CONNECT example.com:443 HTTP/1.1"]
        for line in forms {
            let target = String(line.split(separator: " ")[1])
            #expect(parse(line + "\r\nHost: example.com\r\n\r\n").requests.first?.target == target, "\(line)")
        }
    }

    @Test("HTTP/1.0 is 1.0 and a later 1.x is read as 1.1 (RFC 9112 §2.3)")
    func minorVersions() {
        #expect(parse("GET / HTTP/1.0\r\n\r\n").requests.first?.version == .http1_0)
        #expect(parse("GET / HTTP/1.9\r\nHost: a\r\n\r\n").requests.first?.version == .http1_1)
    }

    @Test("another major version is 505, HTTP/2's preface included")
    func otherMajorVersions() {
        #expect(refusal("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == 505)
        #expect(refusal("GET / HTTP/3.1\r\n\r\n") == 505)
        #expect(refusal("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == 505)
    }

    @Test("malformed request lines are 400",
          arguments: ["GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "GET / http/1.1\r\n\r\n",
                      "GET / HTTP/1\r\n\r\n", "GET / HTTP/1.10\r\n\r\n", "GE(T / HTTP/1.1\r\n\r\n", " GET / HTTP/1.1\r\n\r\n",
                      "GET /a\u{7f} HTTP/1.1\r\n\r\n", "GET /caf\u{e9} HTTP/1.1\r\n\r\n", "GET /a\rb HTTP/1.1\r\n\r\n",
                      "GET\t/ HTTP/1.1\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\r\n\r\n"])
    func malformed(_ text: String) {
        #expect(refusal(text) == 400)
    }

    @Test("empty lines before the request line are ignored (RFC 9112 §2.2)")
    func leadingEmptyLines() {
        #expect(parse("\r\n\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").requests.map(\.target) == ["/"])
    }

    @Test("a bare LF ends a line as CRLF does (RFC 9112 §2.2 allows it)")
    func bareLineFeed() {
        let request = parse("POST /x HTTP/1.1\nHost: a\nContent-Length: 2\n\nok").requests.first
        #expect(request?.body == Array("ok".utf8))
    }
}
