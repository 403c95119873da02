import HTTP2
import Testing
import TestThreads
import Transport

/// Clients that leave in the middle: the half request is dropped (never handed to the
/// service), the connection is closed and reported, and the server serves on.
@Suite("Clients leaving mid-request", .ownThread, .timeLimit(.minutes(1)))
struct ClientDisconnectTests {
    @Test("HTTP/1.1: a head without its body, a head cut in the middle, a body half sent, then close or reset")
    func http1() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        let halves = ["POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n", "GET /half HTTP/1.1\r\nHo",
                      "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n0123456789",
                      "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"]
        for (index, half) in halves.enumerated() {
            let client = try RawClient(port: running.port)
            try client.send(half)
            if index % 2 == 0 { client.close() } else { client.reset() }
        }
        // The server is still there, and answers a whole request.
        let client = try RawClient(port: running.port)
        try client.send("GET /after HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let (bytes, _) = client.readUntilClosed()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        client.close()
        let statistics = running.stop()
        #expect(running.service.snapshot.requests.map(\.path) == ["/after"])
        #expect(statistics.connectionsAccepted == 5)
        #expect(Set(running.service.snapshot.closedConnections).count == 5)
    }

    @Test("HTTP/2: a stream with HEADERS and half its DATA, then close or reset; a stream reset before the answer is forgotten")
    func http2() throws {
        let running = try RunningServer()
        for reset in [false, true] {
            let client = try RawClient(port: running.port)
            var wire = H2Wire()
            try client.send(H2Wire.start + wire.headers(stream: 1, path: "/echo", endStream: false,
                                                        extra: [HeaderField("content-length", "10")])
                            + H2Wire.data(stream: 1, Array("01234".utf8), endStream: false))
            if reset { client.reset() } else { client.close() }
        }
        // RST_STREAM on a stream whose body is on its way: the request is dropped, the
        // connection goes on and serves the next stream.
        let client = try RawClient(port: running.port)
        var wire = H2Wire()
        try client.send(H2Wire.start + H2Wire.settingsAcknowledgement
                        + wire.headers(stream: 1, path: "/echo", endStream: false)
                        + Frame(stream: StreamID(1), payload: .rstStream(.cancel)).encoded
                        + wire.headers(stream: 3, path: "/after-reset", endStream: true))
        let bytes = client.read { H2Wire.frames($0)?.contains { $0.stream == StreamID(3) && $0.payload.isEndOfStream } == true }
        let frames = try #require(H2Wire.frames(bytes))
        #expect(!frames.contains { $0.stream == StreamID(1) })
        #expect(H2Wire.goAways(frames).isEmpty)
        client.close()
        let statistics = running.stop()
        #expect(running.service.snapshot.requests.map(\.path) == ["/after-reset"])
        #expect(statistics.connectionsAccepted == 3 && statistics.protocolErrors == 0)
        #expect(Set(running.service.snapshot.closedConnections).count == 3)
    }
}

extension Frame.Payload {
    /// Whether the frame ends its stream (END_STREAM on HEADERS or DATA).
    var isEndOfStream: Bool {
        switch self {
        case .headers(_, let endStream, _, _, _), .data(_, let endStream, _): endStream
        default: false
        }
    }
}
