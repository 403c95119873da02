@testable import HTTP1
import Testing

/// How a request's body is delimited (RFC 9112 §6): Content-Length, chunked, or none, and
/// the combinations refused because a guess would let requests be smuggled.
@Suite("HTTP/1.1 message framing")
struct MessageFramingTests {
    @Test("Content-Length delimits the body; what follows is the next request")
    func contentLength() {
        let parsed = parse("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(parsed.requests.map(\.body) == [Array("hello".utf8), []])
        #expect(parsed.requests.map(\.target) == ["/a", "/b"])
    }

    @Test("a request with neither Content-Length nor Transfer-Encoding has no body")
    func noBody() {
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\n\r\n").requests.map(\.body) == [[]])
    }

    @Test("equal Content-Length values, in one field or several, are one length (§6.3)")
    func repeatedEqualLengths() {
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc").requests.first?.body
            == Array("abc".utf8))
    }

    @Test("Content-Length that differs or is not a number is 400",
          arguments: ["Content-Length: 3\r\nContent-Length: 4", "Content-Length: 3, 4", "Content-Length: -1", "Content-Length: +3",
                      "Content-Length: 0x10", "Content-Length:", "Content-Length: 3,", "Content-Length: 1 2"])
    func badLength(_ field: String) {
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\nabcd") == 400)
    }

    @Test("Transfer-Encoding with Content-Length is 400: the two framings could disagree")
    func bothFramings() {
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n") == 400)
    }

    @Test("a transfer coding other than chunked is 501, chunked twice or an empty list 400",
          arguments: [("gzip, chunked", 501), ("identity", 501), ("chunked, gzip", 501), ("x-custom", 501),
                      ("chunked, chunked", 400), (",", 400)])
    func transferCodings(_ value: String, _ status: Int) {
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \(value)\r\n\r\n0\r\n\r\n") == status)
    }

    @Test("Transfer-Encoding in an HTTP/1.0 request is 400 (RFC 9112 §6.1: faulty framing)")
    func transferEncodingInHTTP10() {
        #expect(refusal("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == 400)
    }

    @Test("an HTTP/1.1 request needs exactly one Host (RFC 9112 §3.2); HTTP/1.0 may have none")
    func host() {
        #expect(refusal("GET / HTTP/1.1\r\n\r\n") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(parse("GET / HTTP/1.1\r\nHost:\r\n\r\n").requests.first?.host == "")
        #expect(parse("GET / HTTP/1.0\r\n\r\n").requests.first?.host == nil)
    }

    @Test("keep-alive: HTTP/1.1 unless Connection: close, HTTP/1.0 only with Connection: keep-alive",
          arguments: [("HTTP/1.1", "", true), ("HTTP/1.1", "Connection: close\r\n", false),
                      ("HTTP/1.1", "Connection: Upgrade, CLOSE\r\n", false), ("HTTP/1.0", "", false),
                      ("HTTP/1.0", "Connection: keep-alive\r\n", true), ("HTTP/1.0", "Connection: Keep-Alive, close\r\n", false)])
    func keepAlive(_ version: String, _ field: String, _ expected: Bool) {
        #expect(parse("GET / \(version)\r\nHost: h\r\n\(field)\r\n").requests.first?.keepAlive == expected)
    }
}
