@testable import HTTP1
import Testing

/// `RequestLimits`: what a peer can make the parser hold, each refused with its status as
/// soon as it is over, not when the line or section ends (a peer need never end it).
@Suite("HTTP/1.1 request limits")
struct LimitsTests {
    static var small: RequestLimits {
        var limits = RequestLimits()
        limits.maxRequestLineLength = 64
        limits.maxHeaderSectionSize = 128
        limits.maxFieldCount = 4
        limits.maxBodySize = 16
        return limits
    }

    @Test("a request line over the limit is 414, also while it has no end yet; at the limit it is served")
    func requestLine() {
        let target = "/" + String(repeating: "a", count: 64 - "GET / HTTP/1.1".count)
        #expect(parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n", limits: Self.small).requests.count == 1)
        #expect(refusal("GET \(target)a HTTP/1.1\r\nHost: h\r\n\r\n", limits: Self.small) == 414)
        #expect(refusal("GET /" + String(repeating: "a", count: 100), limits: Self.small) == 414)
    }

    @Test("a header section over the limit is 431, also while it has no end yet")
    func headerSection() {
        let field = "X: " + String(repeating: "v", count: 100) + "\r\n"
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n\(field)\r\n", limits: Self.small).requests.count == 1)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\n\(field)\(field)\r\n", limits: Self.small) == 431)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: 200), limits: Self.small) == 431)
    }

    @Test("more fields than the limit is 431")
    func fieldCount() {
        let fields = (0..<4).map { "F\($0): 1\r\n" }.joined()
        #expect(parse("GET / HTTP/1.0\r\n\(fields)\r\n", limits: Self.small).requests.count == 1)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n", limits: Self.small) == 431)
    }

    @Test("a Content-Length over the body limit is 413 before any of the body comes, however many digits")
    func bodySize() {
        #expect(parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 16\r\n\r\n" + String(repeating: "b", count: 16),
                      limits: Self.small).requests.first?.body.count == 16)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n", limits: Self.small) == 413)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999999\r\n\r\n") == 413)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2097152\r\n\r\n") == 413) // 2 MiB, default 1 MiB
    }

    @Test("a head sent one octet at a time is read in time linear in its size: each octet is searched once")
    func dribbledHead() {
        var limits = RequestLimits()
        limits.maxFieldCount = 1_000
        let fields = (0..<700).map { "X-\($0): \($0)\r\n" }.joined()
        let text = "GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n"
        #expect(text.utf8.count < limits.maxHeaderSectionSize)
        #expect(parse(text, limits: limits, chunkSize: 1).requests.first?.fields.count == 701)
    }

    @Test("the buffer does not keep a large body's capacity once it is handed out")
    func bufferShrinks() throws {
        var parser = RequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 500000\r\n\r\n".utf8) + [UInt8](repeating: 1, count: 500_000))
        #expect(try parser.next() != nil)
        #expect(parser.bufferedByteCount == 0)
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(try parser.next() != nil)
    }
}
