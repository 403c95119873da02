import HTTP2
import Testing
import TestThreads
import Transport

/// A connection on which nothing moves is closed after the idle timeout (short here: the
/// tests wait for the close, bounded, and do not measure it).
@Suite("Idle connections", .ownThread, .timeLimit(.minutes(1)))
struct IdleTimeoutTests {
    static var configuration: TransportConfiguration {
        var configuration = TransportConfiguration()
        configuration.idleTimeout = .milliseconds(200)
        return configuration
    }

    @Test("a client that connects to the HTTP/2 listener and says nothing is closed without a word: SETTINGS wait for its preface")
    func silentHTTP2Client() throws {
        let running = try RunningServer(configuration: Self.configuration)
        let client = try RawClient(port: running.port)
        let (bytes, end) = client.readUntilClosed()
        client.close()
        let statistics = running.stop()
        #expect(end == .closed && bytes.isEmpty)
        #expect(statistics.connectionsClosedIdle == 1)
    }

    @Test("an HTTP/2 client that sent its preface and SETTINGS, then nothing, gets SETTINGS, then GOAWAY NO_ERROR, then the close")
    func silentAfterPreface() throws {
        let running = try RunningServer(configuration: Self.configuration)
        let client = try RawClient(port: running.port)
        try client.send(H2Wire.start)
        let (bytes, end) = client.readUntilClosed()
        client.close()
        let statistics = running.stop()
        #expect(end == .closed)
        let frames = try #require(H2Wire.frames(bytes))
        guard case .settings(ack: false, _)? = frames.first?.payload else { Issue.record("no SETTINGS first: \(frames)"); return }
        #expect(H2Wire.goAways(frames).map(\.code) == [.noError])
        #expect(statistics.connectionsClosedIdle == 1)
    }

    @Test("a client that connects to the listener that speaks both and says nothing is closed without a word")
    func silentUndecidedClient() throws {
        let running = try RunningServer(configuration: Self.configuration, listeners: [("127.0.0.1", .http1OrHTTP2)])
        let client = try RawClient(port: running.port)
        let (bytes, end) = client.readUntilClosed()
        client.close()
        let statistics = running.stop()
        #expect(end == .closed && bytes.isEmpty)
        #expect(statistics.connectionsClosedIdle == 1)
    }

    @Test("an HTTP/1.1 keep-alive connection is served, then closed once idle; a half-sent request does not keep it open")
    func idleKeepAlive() throws {
        let running = try RunningServer(configuration: Self.configuration, listeners: [("127.0.0.1", .http1OrHTTP2)])
        let client = try RawClient(port: running.port)
        try client.send("GET /one HTTP/1.1\r\nHost: a\r\n\r\nGET /two HTTP/1.1\r\nHost: a\r\n")
        let (bytes, end) = client.readUntilClosed()
        client.close()
        let statistics = running.stop()
        #expect(end == .closed)
        #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count == 2)
        #expect(running.service.snapshot.requests.map(\.path) == ["/one"])
        #expect(statistics.connectionsClosedIdle == 1)
    }

    @Test("an HTTP/2 client with a stream open and nothing moving gets GOAWAY, then is closed after a second idle wait")
    func stalledStream() throws {
        let running = try RunningServer(configuration: Self.configuration)
        let client = try RawClient(port: running.port)
        var wire = H2Wire()
        try client.send(H2Wire.start + H2Wire.settingsAcknowledgement + wire.headers(stream: 1, path: "/never-ends", endStream: false))
        let (bytes, end) = client.readUntilClosed()
        client.close()
        let statistics = running.stop()
        #expect(end == .closed)
        let frames = try #require(H2Wire.frames(bytes))
        #expect(H2Wire.goAways(frames).map(\.lastStream) == [1])
        #expect(running.service.requestCount == 0)
        #expect(statistics.connectionsClosedIdle == 1)
    }
}
