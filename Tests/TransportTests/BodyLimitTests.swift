import HTTP2
import Testing
import TestThreads
import Transport

/// `maxRequestBodyBytes`: a larger body is answered 413 by the transport, and the client
/// can read that answer even while it is still sending (the connection lingers).
@Suite("The request body limit", .ownThread, .timeLimit(.minutes(1)))
struct BodyLimitTests {
    @Test("HTTP/1.1: a 2 MiB body sent whole after its head still gets to read the 413, then the close")
    func http1SendsItAll() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(2 << 20)\r\n\r\n")
        try client.send([UInt8](repeating: 0x62, count: 2 << 20))
        let (bytes, end) = client.readUntilClosed()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(text.contains("connection: close\r\n"))
        #expect(end == .closed)
        #expect(running.service.requestCount == 0)
    }

    @Test("HTTP/2: content-length over the limit gets 413 on its stream at once, the rest of its DATA is dropped, and the connection serves on")
    func http2ContentLength() throws {
        var configuration = TransportConfiguration()
        configuration.maxRequestBodyBytes = 1_000
        let running = try RunningServer(configuration: configuration)
        defer { running.stop() }
        let client = try RawClient(port: running.port)
        defer { client.close() }
        var wire = H2Wire()
        try client.send(H2Wire.start + H2Wire.settingsAcknowledgement
                        + wire.headers(stream: 1, path: "/echo", endStream: false, extra: [HeaderField("content-length", "1001")])
                        + H2Wire.data(stream: 1, [UInt8](repeating: 1, count: 1_001), endStream: true)
                        + wire.headers(stream: 3, path: "/echo", endStream: false)
                        + H2Wire.data(stream: 3, [UInt8](repeating: 2, count: 600), endStream: false)
                        + H2Wire.data(stream: 3, [UInt8](repeating: 2, count: 600), endStream: true)
                        + wire.headers(stream: 5, path: "/echo", endStream: false)
                        + H2Wire.data(stream: 5, [UInt8](repeating: 3, count: 1_000), endStream: true))
        let bytes = client.read { H2Wire.frames($0)?.contains { $0.stream == StreamID(5) && $0.payload.isEndOfStream } == true }
        let frames = try #require(H2Wire.frames(bytes))
        var decoder = HPACKDecoder()
        var statuses: [UInt32: String] = [:]
        for frame in frames {
            guard case .headers(let fragment, _, _, _, _) = frame.payload else { continue }
            statuses[frame.stream.rawValue] = try decoder.decode(fragment).first { $0.nameString == ":status" }?.valueString
        }
        #expect(statuses == [1: "413", 3: "413", 5: "200"])
        #expect(H2Wire.goAways(frames).isEmpty)
        #expect(running.service.snapshot.requests.map(\.body.count) == [1_000])
    }
}
