import HTTP2
import Testing
import TestThreads
import Transport

/// `maxConnections`, per listener: a new connection on a full listener closes the one that
/// waited longest, one never served before one served; another listener is not affected.
@Suite("The connection limit", .ownThread, .timeLimit(.minutes(1)))
struct ConnectionLimitTests {
    /// Whether the server speaks on `client`: after our preface, its SETTINGS arrive (it
    /// says nothing before the preface). A client closed at once fails the send or reads nothing.
    static func isServed(_ client: RawClient) -> Bool {
        guard (try? client.send(H2Wire.start)) != nil else { return false }
        let bytes = client.read { H2Wire.frames($0)?.isEmpty == false }
        guard case .settings? = H2Wire.frames(bytes)?.first?.payload else { return false }
        return true
    }

    /// Whether a request on `stream` of `client` (preface already sent) is answered.
    static func isAnswered(_ client: RawClient, stream: UInt32, path: String) -> Bool {
        var wire = H2Wire()
        guard (try? client.send(wire.headers(stream: stream, path: path, endStream: true))) != nil else { return false }
        let bytes = client.read { H2Wire.frames($0)?.contains { frame in
            if case .data(_, true, _) = frame.payload { frame.stream == StreamID(stream) } else { false }
        } == true }
        return H2Wire.frames(bytes)?.contains { $0.stream == StreamID(stream) } == true
    }

    @Test("with a limit of 2, a third client closes the one never served, with GOAWAY; the served one and the third are served")
    func newestReplacesIdle() throws {
        var configuration = TransportConfiguration()
        configuration.maxConnections = 2
        let running = try RunningServer(configuration: configuration)
        defer { running.stop() }
        let served = try RawClient(port: running.port)
        #expect(Self.isServed(served) && Self.isAnswered(served, stream: 1, path: "/first"))
        let idle = try RawClient(port: running.port)
        #expect(Self.isServed(idle))

        let third = try RawClient(port: running.port)
        #expect(Self.isServed(third))
        let (bytes, end) = idle.readUntilClosed()
        #expect(end != .timedOut)
        #expect(H2Wire.frames(bytes).map { H2Wire.goAways($0).map(\.code) } ?? [] == [.noError])
        #expect(Self.isAnswered(served, stream: 3, path: "/still-served"))
        #expect(Self.isAnswered(third, stream: 1, path: "/third"))
        let statistics = running.stop()
        #expect(statistics.connectionsEvicted == 1 && statistics.connectionsRefused == 0)
        #expect(statistics.peakConnections == 2)
    }

    @Test("of two served clients the one whose last request is older is closed first")
    func leastRecentlyActiveGoes() throws {
        var configuration = TransportConfiguration()
        configuration.maxConnections = 2
        let running = try RunningServer(configuration: configuration)
        defer { running.stop() }
        let older = try RawClient(port: running.port)
        let newer = try RawClient(port: running.port)
        #expect(Self.isServed(older) && Self.isServed(newer))
        #expect(Self.isAnswered(newer, stream: 1, path: "/a") && Self.isAnswered(older, stream: 1, path: "/b"))
        #expect(Self.isAnswered(newer, stream: 3, path: "/c"))
        let third = try RawClient(port: running.port)
        #expect(Self.isServed(third))
        #expect(older.readUntilClosed().end != .timedOut)
        #expect(Self.isAnswered(newer, stream: 5, path: "/d"))
    }

    @Test("each listener has its own limit: a full one does not touch the other's connections")
    func perListener() throws {
        var configuration = TransportConfiguration()
        configuration.maxConnections = 1
        let running = try RunningServer(configuration: configuration,
                                        listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http2PriorKnowledge)])
        defer { running.stop() }
        let other = try RawClient(port: running.ports[1])
        #expect(Self.isServed(other))
        var crowd: [RawClient] = []
        for _ in 0..<5 { crowd.append(try RawClient(port: running.ports[0])) }
        #expect(Self.isServed(crowd[4]))
        #expect(Self.isAnswered(other, stream: 1, path: "/other-listener"))
        let statistics = running.stop()
        #expect(statistics.connectionsEvicted == 4)
    }
}
