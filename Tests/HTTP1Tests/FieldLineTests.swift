@testable import HTTP1
import Testing

/// Field lines (RFC 9112 §5): names as tokens, lowercase once read, values trimmed.
@Suite("HTTP/1.1 field lines")
struct FieldLineTests {
    @Test("names come out lowercase and values without surrounding whitespace, in order")
    func namesAndValues() throws {
        let request = try #require(parse("GET / HTTP/1.1\r\nHost: a\r\nX-Token:\t abc def \t\r\nACCEPT:*/*\r\nEmpty:\r\n\r\n").requests.first)
        #expect(request.fields == [Field("host", "a"), Field("x-token", "abc def"), Field("accept", "*/*"), Field("empty", "")])
        #expect(request.value("x-token") == "abc def")
        #expect(request.host == "a")
    }

    @Test("obs-text octets in a value are kept (as U+FFFD when not UTF-8)")
    func obsText() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: caf".utf8)
        bytes += [0xc3, 0xa9, 0x20, 0xff]
        bytes += Array("\r\n\r\n".utf8)
        let request = try #require(parse(bytes).requests.first)
        #expect(request.value("x") == "café \u{fffd}")
    }

    @Test("malformed field lines are 400: folding, whitespace before the colon, no colon, bad names, control octets",
          arguments: ["Host: a\r\nX: 1\r\n  continued", "Host : a", "Host: a\r\nNoColon", "Host: a\r\n: empty-name",
                      "Host: a\r\nBad Name: 1", "Host: a\r\nX: a\u{0}b", "Host: a\r\nX: a\rb", "Host: a\r\nX: \u{7f}",
                      " Host: a", "Host: a\r\nX(y): 1"])
    func malformed(_ fields: String) {
        #expect(refusal("GET / HTTP/1.1\r\n" + fields + "\r\n\r\n") == 400)
    }
}
