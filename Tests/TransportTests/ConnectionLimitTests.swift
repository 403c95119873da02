import HTTP2
import Testing
import Transport

/// `maxConnections`: one more is accepted and closed at once; a freed place serves again.
@Suite("The connection limit", .timeLimit(.minutes(1)))
struct ConnectionLimitTests {
    /// Whether the server speaks on `client`: its SETTINGS arrive.
    static func isServed(_ client: RawClient) -> Bool {
        let bytes = client.read { H2Wire.frames($0)?.isEmpty == false }
        guard case .settings? = H2Wire.frames(bytes)?.first?.payload else { return false }
        return true
    }

    @Test("with a limit of 2, a third client is closed at once without a word, and a fourth is served once one of the two left")
    func overTheLimit() throws {
        var configuration = TransportConfiguration()
        configuration.maxConnections = 2
        let running = try RunningServer(configuration: configuration)
        defer { running.stop() }
        let first = try RawClient(port: running.port)
        let second = try RawClient(port: running.port)
        #expect(Self.isServed(first) && Self.isServed(second))

        let third = try RawClient(port: running.port)
        let (bytes, end) = third.readUntilClosed()
        #expect(end == .closed && bytes.isEmpty)

        // The two served ones still work.
        var wire = H2Wire()
        try second.send(H2Wire.start + wire.headers(stream: 1, path: "/still-served", endStream: true))
        _ = second.read { H2Wire.frames($0)?.contains { $0.stream == StreamID(1) } == true }
        #expect(running.service.snapshot.requests.map(\.path) == ["/still-served"])

        // A place freed is a place taken again. The server sees the close on its next
        // turn, so a connection made just before may still find it full: a few tries.
        first.close()
        var servedAgain = false
        for _ in 0..<50 where !servedAgain {
            let fourth = try RawClient(port: running.port)
            servedAgain = Self.isServed(fourth)
        }
        #expect(servedAgain)
        second.close()
        let statistics = running.stop()
        #expect(statistics.connectionsRefused >= 1)
        #expect(statistics.peakConnections == 2)
    }
}
