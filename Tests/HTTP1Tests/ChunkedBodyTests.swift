@testable import HTTP1
import Testing

/// The chunked transfer coding (RFC 9112 §7.1), in any split.
@Suite("HTTP/1.1 chunked bodies")
struct ChunkedBodyTests {
    static let request = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nhello\r\n1;name=value;flag\r\n,\r\nA \t; ext=\"quoted\"\r\n0123456789\r\n0\r\nX-Trailer: ignored\r\n\r\n"
        + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"

    @Test("chunks are joined, extensions skipped, trailers dropped, and the next request follows")
    func decodes() {
        let parsed = parse(Self.request)
        #expect(parsed.error == nil)
        #expect(parsed.requests.map(\.body) == [Array("hello,0123456789".utf8), []])
        #expect(parsed.requests.last?.target == "/next")
    }

    @Test("the same requests come out whatever the split, down to one octet at a time", arguments: [1, 2, 3, 7, 16, 64])
    func anySplit(_ chunkSize: Int) {
        #expect(parse(Self.request, chunkSize: chunkSize) == parse(Self.request))
    }

    @Test("hexadecimal sizes in either case, leading zeros and an empty body")
    func sizes() {
        let body = String(repeating: "x", count: 0x1f)
        #expect(parse(Self.head + "001F\r\n\(body)\r\n0\r\n\r\n").requests.first?.body.count == 31)
        #expect(parse(Self.head + "1f\r\n\(body)\r\n00\r\n\r\n").requests.first?.body.count == 31)
        #expect(parse(Self.head + "0\r\n\r\n").requests.first?.body == [])
    }

    static let head = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test("malformed chunked bodies are 400",
          arguments: ["g\r\n", "\r\n", "-1\r\n", "5 \r\nhello\r\n0\r\n\r\n", "5x\r\nhello\r\n0\r\n\r\n",
                      "3\r\nhello\r\n0\r\n\r\n", "3\r\nabc0\r\n\r\n", "0\r\nbad trailer\r\n\r\n", "5;a\u{1}\r\nhello\r\n0\r\n\r\n"])
    func malformed(_ body: String) {
        #expect(refusal(Self.head + body) == 400)
    }

    @Test("a chunk-size line longer than 4096 octets is 400 before it ends")
    func longSizeLine() {
        #expect(refusal(Self.head + "1;" + String(repeating: "e", count: 5_000)) == 400)
    }

    @Test("chunks adding up past the body limit are 413 as soon as a size says so, even a size of 40 hex digits")
    func tooLarge() {
        var limits = RequestLimits()
        limits.maxBodySize = 10
        #expect(refusal(Self.head + "6\r\nabcdef\r\n5\r\n", limits: limits) == 413)
        #expect(refusal(Self.head + String(repeating: "f", count: 40) + "\r\n", limits: limits) == 413)
        #expect(parse(Self.head + "6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n", limits: limits).requests.first?.body.count == 10)
    }

    @Test("a trailer section larger than the header section limit is 431")
    func largeTrailers() {
        var limits = RequestLimits()
        limits.maxHeaderSectionSize = 100
        #expect(refusal(Self.head + "0\r\nX: " + String(repeating: "t", count: 200), limits: limits) == 431)
        #expect(refusal(Self.head + "0\r\n" + String(repeating: "X: t\r\n", count: 30) + "\r\n", limits: limits) == 431)
    }
}
