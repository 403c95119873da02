import HTTP2
import Testing
import TestThreads
@testable import Transport

/// What a listener makes of a connection's first octets: the HTTP/2 preface, an HTTP/1.1
/// request, or garbage.
@Suite("Listener protocols: prior knowledge and sniffing", .ownThread, .timeLimit(.minutes(1)))
struct ProtocolChoiceTests {
    @Test("the sniffer waits while the octets match the preface, decides HTTP/2 on the whole preface, HTTP/1.1 on the first difference")
    func sniffer() {
        let preface = FrameParser.clientPreface
        #expect(ProtocolSniffer.verdict([]) == .undecided)
        #expect(ProtocolSniffer.verdict(Array(preface.prefix(17))) == .undecided)
        #expect(ProtocolSniffer.verdict(preface) == .http2)
        #expect(ProtocolSniffer.verdict(preface + [0, 0, 0]) == .http2)
        #expect(ProtocolSniffer.verdict(Array("POST".utf8)) == .http1)
        #expect(ProtocolSniffer.verdict(Array("PRI * HTTP/2.0\r\n\r\nXX".utf8)) == .http1)
        #expect(ProtocolSniffer.verdict(Array("G".utf8)) == .http1)
    }

    @Test("garbage instead of the preface on the HTTP/2 listener gets SETTINGS then GOAWAY PROTOCOL_ERROR, then the connection closes",
          arguments: ["\u{16}\u{03}\u{01}\u{00}\u{a5}\u{01}\u{00}\u{00}", "PRI * HTTP/2.0\r\n\r\nXX"])
    func garbageOnPriorKnowledge(_ garbage: String) throws {
        let running = try RunningServer()
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        try client.send(garbage)
        let (bytes, end) = client.readUntilClosed()
        #expect(end == .closed)
        let frames = try #require(H2Wire.frames(bytes), "the server's octets are not frames")
        guard case .settings(ack: false, _)? = frames.first?.payload else { Issue.record("no SETTINGS first: \(frames)"); return }
        let goAways = H2Wire.goAways(frames)
        #expect(goAways.count == 1 && goAways.first?.code == .protocolError && goAways.first?.lastStream == 0)
        #expect(running.service.requestCount == 0)
    }

    @Test("an HTTP/1.1 request on the HTTP/2 listener gets an HTTP/1.1 505 saying to speak HTTP/2, then the connection closes",
          arguments: ["GET / HTTP/1.1\r\nHost: a\r\n\r\n", "POST /3/device/ab HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
                      "OPTIONS * HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\n\r\n"])
    func http1OnPriorKnowledge(_ request: String) throws {
        let running = try RunningServer()
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        // The request line's method arrives in pieces: the verdict waits for its space.
        for piece in [String(request.prefix(2)), String(request.dropFirst(2))] { try client.send(piece) }
        let (bytes, end) = client.readUntilClosed()
        #expect(end == .closed)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), "\(text)")
        #expect(text.contains("connection: close\r\n") && text.hasSuffix("\r\n\r\n" + HTTP1RefusalSession.advice))
        #expect(running.service.requestCount == 0)
    }

    @Test("HEAD on the HTTP/2 listener gets the 505's head alone")
    func headOnPriorKnowledge() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        try client.send("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n")
        let text = String(decoding: client.readUntilClosed().bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 505 ") && text.hasSuffix("\r\n\r\n"))
    }

    @Test("on the HTTP/2 listener the verdict waits for a method's space; PRI, a non-token octet or an overlong method is HTTP/2's to refuse")
    func priorKnowledgeSniffer() {
        #expect(ProtocolSniffer.priorKnowledgeVerdict([]) == .undecided)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(FrameParser.clientPreface) == .http2)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array("GET".utf8)) == .undecided)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array("GET ".utf8)) == .http1)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array("PRI * HTTP/2.0\r\n\r\nXX".utf8)) == .http2)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array("PRI / HTTP/1.1\r\n".utf8)) == .http2)
        #expect(ProtocolSniffer.priorKnowledgeVerdict([0x16, 0x03, 0x01]) == .http2)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array(" GET".utf8)) == .http2)
        #expect(ProtocolSniffer.priorKnowledgeVerdict(Array(String(repeating: "A", count: 33).utf8)) == .http2)
    }

    @Test("the preface sent an octet at a time on the listener that speaks both still makes the connection HTTP/2")
    func prefaceInPieces() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        var wire = H2Wire()
        for octet in H2Wire.start { try client.send([octet]) }
        try client.send(H2Wire.settingsAcknowledgement + wire.headers(stream: 1, path: "/sniffed", endStream: true))
        let bytes = client.read { H2Wire.frames($0)?.contains { if case .data(_, true, _) = $0.payload { true } else { false } } == true }
        let frames = try #require(H2Wire.frames(bytes))
        #expect(frames.contains { if case .headers = $0.payload { $0.stream == StreamID(1) } else { false } })
        #expect(running.service.snapshot.requests.map(\.path) == ["/sniffed"])
    }

    @Test("garbage on the listener that speaks both is read as HTTP/1.1: one 400 with connection: close, then the connection closes")
    func garbageOnSniffingListener() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        try client.send("\u{16}\u{03}\u{01} nonsense\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        let (bytes, end) = client.readUntilClosed()
        #expect(end == .closed)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(text.contains("connection: close\r\n"))
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "more than one response: \(text)")
        #expect(running.service.requestCount == 0)
    }

    @Test("an HTTP/2.0 request line on the listener that speaks both is 505")
    func wrongVersion() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        try client.send("GET / HTTP/2.0\r\nHost: a\r\n\r\n")
        let (bytes, end) = client.readUntilClosed()
        #expect(end == .closed)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"))
    }
}
