import Foundation
import HTTP2
import Testing
import TestThreads
import Transport

/// What the transport promises a `Service`: whole requests with their connection and
/// listener, `tick` on every turn with a monotonic time, `connectionClosed` once per
/// connection, and a 500 in place of an answer the protocol cannot carry.
@Suite("The service contract", .ownThread, .timeLimit(.minutes(1)))
struct ServiceContractTests {
    @Test("requests carry their listener and connection: one number per connection, shared by its requests, told once when it closes")
    func connectionNumbers() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http1OrHTTP2)])
        for _ in 0..<3 {
            let client = try RawClient(port: running.ports[1])
            try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            _ = client.readUntilClosed()
        }
        let client = try RawClient(port: running.ports[0])
        var wire = H2Wire()
        try client.send(H2Wire.start + wire.headers(stream: 1, path: "/c", endStream: true) + wire.headers(stream: 3, path: "/d", endStream: true))
        _ = client.read { H2Wire.frames($0)?.filter(\.payload.isEndOfStream).count == 2 }
        client.close()
        running.stop()
        let record = running.service.snapshot
        let numbers = record.requests.map(\.connection)
        #expect(numbers.count == 8)
        #expect(Set(numbers).count == 4)
        for pair in stride(from: 0, to: 8, by: 2) { #expect(numbers[pair] == numbers[pair + 1]) }
        #expect(record.requests.map(\.listener) == [1, 1, 1, 1, 1, 1, 0, 0])
        #expect(record.closedConnections.sorted() == Set(numbers).sorted())
        #expect(record.requests[0].authority == "h" && record.requests[6].authority == "localhost")
    }

    @Test("tick is called on every turn with a time that never goes back")
    func ticks() throws {
        let running = try RunningServer()
        // Each client is answered only after a turn that accepted it, so each is one turn at least.
        for index in 0..<5 {
            let client = try RawClient(port: running.port)
            try client.send(H2Wire.start)
            let answer = client.read { H2Wire.frames($0)?.isEmpty == false }
            try #require(H2Wire.frames(answer)?.isEmpty == false, "client \(index) got no frame within the read timeout")
        }
        running.stop()
        let record = running.service.snapshot
        #expect(record.ticks >= 5, "\(record.ticks) ticks for 5 connections answered")
        #expect(!record.elapsedWentBack)
        #expect(record.lastElapsed > .zero)
    }

    @Test("an answer the protocol cannot carry becomes 500: a CR LF in a value (both), a capital in a name (HTTP/2)")
    func unsendableAnswers() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let client = try RawClient(port: running.ports[1])
        try client.send("GET /unsendable HTTP/1.1\r\nHost: h\r\n\r\nGET /uppercase HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let text = String(decoding: client.readUntilClosed().bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\nX-Capital: 1\r\n"))
        #expect(!text.contains("x-injected"))

        let http2 = try RawClient(port: running.ports[0])
        defer { http2.close() }
        var wire = H2Wire()
        try http2.send(H2Wire.start + wire.headers(stream: 1, path: "/unsendable", endStream: true)
                       + wire.headers(stream: 3, path: "/uppercase", endStream: true))
        let frames = H2Wire.frames(http2.read { H2Wire.frames($0)?.filter(\.payload.isEndOfStream).count == 2 }) ?? []
        var decoder = HPACKDecoder()
        var statuses: [String] = []
        for frame in frames {
            guard case .headers(let fragment, _, _, _, _) = frame.payload else { continue }
            statuses += try decoder.decode(fragment).filter { $0.nameString == ":status" }.map(\.valueString)
        }
        #expect(statuses == ["500", "500"])
    }
}
