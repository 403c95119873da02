import Testing
import Transport

@Suite("Endpoint URLs")
struct EndpointURLTests {
    @Test("http:// is HTTP/1.1, h2c:// is HTTP/2 with prior knowledge; a path prefix loses its trailing slashes")
    func schemes() throws {
        let plain = try #require(EndpointURL("http://127.0.0.1:8080"))
        #expect(plain.endpoint == Endpoint(host: "127.0.0.1", port: 8080, protocol: .http1) && plain.pathPrefix == "")
        let h2 = try #require(EndpointURL("h2c://localhost:2197/push/"))
        #expect(h2.endpoint == Endpoint(host: "localhost", port: 2197, protocol: .http2PriorKnowledge) && h2.pathPrefix == "/push")
        let v6 = try #require(EndpointURL("http://[::1]:9/a/b"))
        #expect(v6.endpoint.host == "[::1]" && v6.endpoint.port == 9 && v6.pathPrefix == "/a/b")
        #expect(v6.description == "http://[::1]:9/a/b")
    }

    @Test("another scheme, no port, a port out of range, a query, user info or spaces are refused",
          arguments: ["https://127.0.0.1:443", "127.0.0.1:80", "http://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:70000",
                      "http://h:80/?q=1", "http://u@h:80", "http://h:80/a b", "http://:80", "http://[::1:80", "h2c://h:x"])
    func refused(_ text: String) {
        #expect(EndpointURL(text) == nil)
    }
}
