import Testing
import TestThreads
import Transport

/// A client that sends without reading fills its own socket, not the server's memory, and
/// holds up no one else; once it reads, it gets every answer, in order.
@Suite("Backpressure", .ownThread, .timeLimit(.minutes(1)))
struct BackpressureTests {
    @Test("200 pipelined HTTP/1.1 requests for 64 KiB answers, unread: another client is served meanwhile; then all 200 come, in order")
    func pipelinedWithoutReading() throws {
        var configuration = TransportConfiguration()
        configuration.maxQueuedWriteBytes = 256 << 10
        let running = try RunningServer(configuration: configuration, listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let greedy = try RawClient(port: running.port)
        defer { greedy.close() }
        let requests = (0..<200).map { "GET /big/\($0) HTTP/1.1\r\nHost: h\r\n\r\n" }.joined()
        try greedy.send(requests + "GET /last HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")

        let other = try RawClient(port: running.port)
        try other.send("GET /other HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: other.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        // The greedy client's answers wait: the server stopped reading its requests.
        #expect(running.service.requestCount < 150)

        let (bytes, end) = greedy.readUntilClosed(limit: 1 << 25)
        #expect(end == .closed)
        var offset = 0
        var bodies: [UInt8] = []
        let separator = Array("\r\n\r\n".utf8)
        while offset < bytes.count, let headEnd = bytes[offset...].firstRange(of: separator)?.upperBound {
            let head = String(decoding: bytes[offset..<headEnd], as: UTF8.self).lowercased()
            guard let lengthLine = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length: ") }),
                  let length = Int(lengthLine.dropFirst("content-length: ".count)) else { break }
            if length == 65_536 { bodies.append(bytes[headEnd]) }
            offset = headEnd + length
        }
        #expect(offset == bytes.count)
        #expect(bodies == (0..<200).map { UInt8($0) })
        #expect(running.service.requestCount == 202)
    }
}
