@testable import HTTP1
import Testing

/// The response writer (RFC 9112 §4, §6): status line, fields, framing, and refusing what
/// would split a response or frame it twice.
@Suite("HTTP/1.1 responses")
struct ResponseTests {
    func written(_ response: Response, omittingBody: Bool = false, closingConnection: Bool = false) throws -> String {
        var output: [UInt8] = []
        try response.encode(into: &output, omittingBody: omittingBody, closingConnection: closingConnection)
        return String(decoding: output, as: UTF8.self)
    }

    @Test("status line with the reason phrase, fields in order, content-length, body")
    func whole() throws {
        let response = Response(status: 200, fields: [Field("content-type", "application/json"), Field("x-a", "1")],
                                body: Array(#"{"ok":true}"#.utf8))
        #expect(try written(response)
            == "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-a: 1\r\ncontent-length: 11\r\n\r\n{\"ok\":true}")
    }

    @Test("connection: close when the connection ends after the response")
    func closing() throws {
        #expect(try written(Response(status: 404), closingConnection: true)
            == "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
    }

    @Test("HEAD's answer says the length and sends no body")
    func head() throws {
        #expect(try written(Response(status: 200, body: [1, 2, 3]), omittingBody: true) == "HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n")
    }

    @Test("1xx, 204 and 304 carry no content-length and no body; 100 Continue is the bare status line")
    func bodiless() throws {
        #expect(try written(.continue) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(try written(Response(status: 204, body: [1]), closingConnection: true)
            == "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
        #expect(try written(Response(status: 304)) == "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    @Test("every status the parser refuses with has its RFC 9110 reason phrase; an unregistered code has none")
    func reasonPhrases() throws {
        let phrases = [400: "Bad Request", 413: "Content Too Large", 414: "URI Too Long", 431: "Request Header Fields Too Large",
                       501: "Not Implemented", 505: "HTTP Version Not Supported", 500: "Internal Server Error", 429: "Too Many Requests"]
        for (status, phrase) in phrases { #expect(ReasonPhrase.of(status) == phrase) }
        #expect(try written(Response(status: 299)).hasPrefix("HTTP/1.1 299 \r\n"))
    }

    @Test("a request error's response says its status and reason as text")
    func errorResponse() throws {
        let text = try written(Response(error: RequestError(status: 431, reason: "too many fields")), closingConnection: true)
        #expect(text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(text.hasSuffix("connection: close\r\n\r\ntoo many fields\n"))
    }

    @Test("fields that would split the response or frame it twice are refused, and nothing is written",
          arguments: [Field("x", "a\r\nInjected: 1"), Field("x", "a\nb"), Field("x", "\u{0}"), Field("bad name", "1"), Field("", "1"),
                      Field("Content-Length", "5"), Field("transfer-encoding", "chunked"), Field("connection", "close")])
    func refusedFields(_ field: Field) {
        var output: [UInt8] = []
        #expect(throws: ResponseError.invalidField(name: field.name)) {
            try Response(status: 200, fields: [field]).encode(into: &output)
        }
        #expect(output.isEmpty)
    }

    @Test("a status outside 100…999 is refused")
    func refusedStatus() {
        var output: [UInt8] = []
        #expect(throws: ResponseError.invalidStatus(99)) { try Response(status: 99).encode(into: &output) }
        #expect(throws: ResponseError.invalidStatus(1000)) { try Response(status: 1000).encode(into: &output) }
    }
}
