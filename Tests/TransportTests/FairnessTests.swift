import HTTP2
import Testing
import TestThreads
import Transport

/// No connection holds the others up: pipelined HTTP/1.1 requests are answered a share a
/// turn (`maxRequestsPerTurn`), and a flood of frames without effect is cut off.
@Suite("Fairness and floods over sockets", .ownThread, .timeLimit(.minutes(1)))
struct FairnessTests {
    @Test("2,000 requests pipelined in one write are all answered, in order, while another client is answered meanwhile")
    func pipelinedShares() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let pipeliner = try RawClient(port: running.port)
        defer { pipeliner.close() }
        var requests = ""
        for index in 0..<2_000 { requests += "GET /p\(index) HTTP/1.1\r\nHost: a\r\n\r\n" }
        requests += "GET /last HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        try pipeliner.send(requests)
        let other = try RawClient(port: running.port)
        try other.send("GET /other HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: other.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        let (bytes, end) = pipeliner.readUntilClosed()
        #expect(end == .closed)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 2_002)
        let paths = running.service.snapshot.requests.map(\.path).filter { $0 != "/other" }
        #expect(paths == (0..<2_000).map { "/p\($0)" } + ["/last"])
    }

    @Test("a WINDOW_UPDATE flood over a socket is cut off like the other floods: GOAWAY ENHANCE_YOUR_CALM, then the close",
          arguments: [StreamID(0), StreamID(1)])
    func windowUpdateFlood(_ stream: StreamID) throws {
        let running = try RunningServer()
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        var wire = H2Wire()
        var flood = H2Wire.start + H2Wire.settingsAcknowledgement + wire.headers(stream: 1, path: "/answered", endStream: true)
        let update = Frame(stream: stream, payload: .windowUpdate(increment: 1)).encoded
        for _ in 0..<5_000 { flood += update }
        try client.send(flood)
        let (bytes, end) = client.readUntilClosed()
        #expect(end == .closed)
        let frames = try #require(H2Wire.frames(bytes))
        #expect(H2Wire.goAways(frames).map(\.code) == [.enhanceYourCalm])
        #expect(running.service.requestCount == 1)
    }
}
