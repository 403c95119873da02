import HTTP2
import Testing
import TestThreads
import Transport

/// `Service.shouldStop`: the server stops accepting, lets what is in flight finish (HTTP/2
/// by a graceful GOAWAY, HTTP/1.1 by answering the request under way with `connection:
/// close`), closes the rest, and `run` returns, within the grace period.
@Suite("Stopping the server", .ownThread, .timeLimit(.minutes(1)))
struct ShutdownTests {
    @Test("HTTP/2: GOAWAY with the largest stream and a PING; the stream under way finishes; then GOAWAY naming it, and the close")
    func gracefulHTTP2() throws {
        let running = try RunningServer()
        let client = try RawClient(port: running.port)
        defer { client.close() }
        var wire = H2Wire()
        try client.send(H2Wire.start + H2Wire.settingsAcknowledgement + wire.headers(stream: 1, path: "/echo", endStream: false))
        _ = client.read { H2Wire.frames($0)?.contains { if case .settings(ack: true, _) = $0.payload { true } else { false } } == true }
        running.service.stop()
        let notice = client.read { H2Wire.frames($0)?.contains { if case .ping(ack: false, _) = $0.payload { true } else { false } } == true }
        let noticeFrames = try #require(H2Wire.frames(notice))
        #expect(H2Wire.goAways(noticeFrames).map(\.lastStream) == [0x7fff_ffff])
        guard case .ping(_, let marker)? = noticeFrames.last(where: { if case .ping = $0.payload { true } else { false } })?.payload
        else { Issue.record("no PING"); return }
        // The client acknowledges the PING and finishes its request; a new stream it opens now is ignored.
        try client.send(H2Wire.pingAcknowledgement(marker) + H2Wire.data(stream: 1, Array("last".utf8), endStream: true)
                        + wire.headers(stream: 3, path: "/too-late", endStream: true))
        let (rest, end) = client.readUntilClosed()
        #expect(end == .closed)
        let frames = try #require(H2Wire.frames(rest))
        #expect(frames.contains { $0.stream == StreamID(1) && $0.payload.isEndOfStream })
        #expect(!frames.contains { $0.stream == StreamID(3) })
        #expect(H2Wire.goAways(frames).map(\.lastStream) == [1])
        #expect(running.waitUntilReturned())
        #expect(running.service.snapshot.requests.map(\.path) == ["/echo"])
        #expect(running.service.snapshot.requests.first?.body == Array("last".utf8))
    }

    @Test("HTTP/1.1: an idle keep-alive connection is closed, the request under way is answered with connection: close, new clients are refused")
    func http1() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        let idle = try RawClient(port: running.port)
        defer { idle.close() }
        try idle.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = idle.read { String(decoding: $0, as: UTF8.self).hasSuffix("listener=0\n") }
        let busy = try RawClient(port: running.port)
        defer { busy.close() }
        try busy.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nab")
        let control = try RawClient(port: running.port)
        try control.send("GET /stop HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: control.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        control.close()

        // The idle connection closes once the server has seen shouldStop: from then on it stops.
        let (idleBytes, idleEnd) = idle.readUntilClosed()
        #expect(idleEnd == .closed && idleBytes.isEmpty)
        try busy.send("cd")
        let (busyBytes, busyEnd) = busy.readUntilClosed()
        let answer = String(decoding: busyBytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.contains("connection: close\r\n") && answer.hasSuffix("\r\n\r\nabcd"))
        #expect(busyEnd == .closed)
        #expect(running.waitUntilReturned())
        #expect(throws: RawClient.Failure.self) { _ = try RawClient(port: running.port) }
    }

    @Test("a client that never finishes its request does not hold the server: run returns after the grace period")
    func graceIsBounded() throws {
        var configuration = TransportConfiguration()
        configuration.shutdownGracePeriod = .milliseconds(300)
        let running = try RunningServer(configuration: configuration, listeners: [("127.0.0.1", .http1OrHTTP2)])
        let stuck = try RawClient(port: running.port)
        defer { stuck.close() }
        try stuck.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 400\r\n\r\nnot all of it")
        let reader = try RawClient(port: running.port) // an HTTP/2 client that never acknowledges the PING
        defer { reader.close() }
        try reader.send(H2Wire.start)
        _ = reader.read { H2Wire.frames($0)?.isEmpty == false }
        let statistics = running.stop()
        #expect(running.returned)
        #expect(stuck.readUntilClosed().end == .closed)
        #expect(statistics.requests == 0)
        #expect(Set(running.service.snapshot.closedConnections).count == 2)
    }
}
