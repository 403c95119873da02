@testable import HTTP2
import Testing

/// A server dropping its connection as a failing APNs does (`goAway(lastStream:)`): GOAWAY
/// naming a stream below the last one handed over, the streams above it forgotten unanswered.
@Suite("Dropping a connection with GOAWAY below its streams")
struct DroppingTests {
    @Test("GOAWAY names the stream asked for; streams above it are forgotten, those below finish, new ones are ignored")
    func dropsTheStreamsAbove() throws {
        var client = ConnectionTests.connected()
        client.request(1)
        client.request(3)
        client.request(5)
        _ = client.received()
        let dropped = client.server.goAway(lastStream: 3)
        #expect(dropped == [5])
        #expect(client.received() == [Frame(stream: .connection, payload: .goAway(lastStream: 3, code: .noError, debug: []))])
        #expect(client.server.openStreamCount == 2)
        #expect(throws: SendError.unknownStream(5)) { try client.server.respond(to: 5, status: 200) }
        try client.server.respond(to: 1, status: 200)
        try client.server.respond(to: 3, status: 200)
        _ = client.received()
        #expect(client.server.isFinished)
        // A stream the client opens after the GOAWAY is ignored (RFC 9113 §6.8).
        client.request(7)
        #expect(client.server.openStreamCount == 0)
    }

    @Test("the last stream is never raised: above the last handed over, or above an earlier GOAWAY's")
    func neverRaised() {
        var client = ConnectionTests.connected()
        client.request(1)
        _ = client.received()
        #expect(client.server.goAway(lastStream: 99).isEmpty)
        #expect(client.received() == [Frame(stream: .connection, payload: .goAway(lastStream: 1, code: .noError, debug: []))])
        #expect(client.server.goAway(lastStream: 0) == [1])
        #expect(client.received() == [Frame(stream: .connection, payload: .goAway(lastStream: 0, code: .noError, debug: []))])
        #expect(client.server.isFinished)
    }
}
