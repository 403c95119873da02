import HTTP2
@testable import Transport
import Testing

/// `HTTPRequest` keeps its fields as octets: `headers` (text, made when read), `value(_:)`
/// and `forEachField` (octets) must always agree, however the request was made.
@Suite("HTTP requests' fields")
struct HTTPRequestTests {
    static let headers = [Header("apns-topic", "com.example.app"), Header("user-agent", "curl/7.88"), Header("x-empty", ""),
                          Header("apns-topic", "second"), Header("x-utf8", "é")]

    @Test("headers, value(_:) and forEachField agree, from text and from a decoded block")
    func agree() {
        let fromText = HTTPRequest(method: "POST", path: "/3/device/ab", headers: Self.headers)
        let fromOctets = HTTPRequest(method: "POST", path: "/3/device/ab", authority: nil,
                                     fields: HeaderList(Self.headers.map { HeaderField($0.name, $0.value) }), body: [],
                                     version: .http2, listener: 0, connection: 0, stream: 0)
        for request in [fromText, fromOctets] {
            #expect(request.headers == Self.headers)
            #expect(request.value("apns-topic") == "com.example.app" && request.value("x-empty") == "")
            #expect(request.value("x-utf8") == "é" && request.value("absent") == nil)
            var seen: [Header] = []
            request.forEachField { name, value in
                seen.append(Header(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            }
            #expect(seen == Self.headers)
        }
        #expect(fromText == fromOctets)
    }

    @Test("setting headers replaces the fields every reader sees")
    func setHeaders() {
        var request = HTTPRequest(method: "GET", path: "/", headers: Self.headers)
        request.headers = [Header("a", "1")]
        #expect(request.headers == [Header("a", "1")] && request.value("apns-topic") == nil && request.value("a") == "1")
        request.headers.append(Header("b", "2"))
        #expect(request.value("b") == "2" && request != HTTPRequest(method: "GET", path: "/", headers: [Header("a", "1")]))
    }
}
