@testable import HTTP2
import Testing

/// The server connection frame by frame, in the spirit of h2spec: one test per rule,
/// named by the behaviour and citing RFC 9113.
@Suite("HTTP/2 server connection")
struct ConnectionTests {
    /// A client that has exchanged prefaces and SETTINGS with a fresh server.
    static func connected(_ configuration: ServerConfiguration = ServerConfiguration(), settings: [Setting] = []) -> TestClient {
        var client = TestClient(configuration: configuration)
        client.connect(settings: settings)
        _ = client.received()
        return client
    }

    /// Sends `bytes` to a connected client and returns the GOAWAY's code.
    static func connectionError(after bytes: [UInt8], configuration: ServerConfiguration = ServerConfiguration()) -> ErrorCode? {
        var client = connected(configuration)
        let events = client.send(bytes)
        let code = client.goAway()?.code
        #expect(events.last?.connectionErrorCode == code, "the last event reports the connection error")
        #expect(client.server.isFinished)
        return code
    }

    /// Sends `frames` and returns the RST_STREAM codes the server answered with.
    static func resets(after frames: (inout TestClient) -> [Frame]) -> [StreamID: ErrorCode] {
        var client = connected()
        let sent = frames(&client)
        client.send(sent)
        let received = client.received()
        #expect(!received.contains { if case .goAway = $0.payload { true } else { false } }, "no GOAWAY")
        return TestClient.resets(in: received)
    }

    // MARK: §3.4 Starting HTTP/2

    @Test("the server's preface is SETTINGS with its limits, then a WINDOW_UPDATE raising the connection window (§3.4, §6.9.2)")
    func serverPreface() throws {
        var client = TestClient()
        let frames = client.received()
        #expect(frames.count == 2)
        guard case .settings(false, let parameters) = frames.first?.payload else { Issue.record("no SETTINGS first"); return }
        #expect(parameters.contains(Setting(.maxConcurrentStreams, 100)))
        #expect(parameters.contains(Setting(.enablePush, 0)))
        #expect(parameters.contains(Setting(.maxHeaderListSize, 16_384)))
        #expect(frames[1] == Frame(stream: 0, payload: .windowUpdate(increment: UInt32((1 << 20) - 65_535))))
        #expect(client.server.isAwaitingSettingsAcknowledgement)
    }

    @Test("the client's SETTINGS is acknowledged, and its acknowledgement of ours is taken (§6.5.3)")
    func settingsExchange() {
        var client = TestClient()
        _ = client.received()
        client.send(FrameParser.clientPreface + Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.maxFrameSize, 20_000)])).encoded)
        #expect(client.received() == [Frame(stream: 0, payload: .settings(ack: true, parameters: []))])
        #expect(client.server.peerSettings.maxFrameSize == 20_000)
        client.send(Frame(stream: 0, payload: .settings(ack: true, parameters: [])))
        #expect(!client.server.isAwaitingSettingsAcknowledgement)
        #expect(client.received().isEmpty)
    }

    @Test("anything but the client preface is a connection error PROTOCOL_ERROR (§3.4)")
    func invalidPreface() {
        var client = TestClient()
        _ = client.received()
        let events = client.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(events.map(\.connectionErrorCode) == [.protocolError])
        #expect(client.goAway()?.code == .protocolError)
        #expect(client.send(FrameParser.clientPreface).isEmpty, "nothing is read after GOAWAY")
    }

    @Test("a first frame other than SETTINGS is PROTOCOL_ERROR (§3.4)")
    func firstFrameNotSettings() {
        var client = TestClient()
        client.send(FrameParser.clientPreface + Frame(stream: 0, payload: .ping(ack: false, data: 1)).encoded)
        #expect(client.goAway()?.code == .protocolError)
    }

    @Test("the preface and frames split across any chunks are the same conversation (§3.4, §4.1)")
    func chunking() {
        var whole = TestClient()
        var bytes = FrameParser.clientPreface + Frame(stream: 0, payload: .settings(ack: false, parameters: [])).encoded
        bytes += whole.headers(TestClient.requestFields(), stream: 1, endStream: false).encoded
        bytes += Frame(stream: 1, payload: .data(bytes: Array("{}".utf8), endStream: true, padding: nil)).encoded
        let expected = whole.send(bytes)
        #expect(expected.count == 2)
        var split = TestClient()
        var events: [ServerEvent] = []
        for byte in bytes { events += split.send([byte]) }
        #expect(events == expected)
    }

    // MARK: §4 Frames

    @Test("frames of unknown types are ignored (§4.1, §5.5)")
    func unknownFrameIgnored() {
        var client = Self.connected()
        #expect(client.send(rawFrame(type: 0xfa, flags: 0xff, stream: 1, payload: [1, 2, 3])).isEmpty)
        #expect(client.request(1).count == 1)
    }

    @Test("an unknown frame inside a header block is PROTOCOL_ERROR (§5.5, §6.10)")
    func unknownFrameInsideHeaderBlock() {
        var client = Self.connected()
        let headers = client.headers(TestClient.requestFields(), stream: 1, endHeaders: false)
        client.send(headers.encoded + rawFrame(type: 0xfa, stream: 1, payload: []))
        #expect(client.goAway()?.code == .protocolError)
    }

    @Test("a frame above our SETTINGS_MAX_FRAME_SIZE is FRAME_SIZE_ERROR (§4.2)")
    func oversizedFrame() {
        let frame = Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 16_385), endStream: false, padding: nil))
        #expect(Self.connectionError(after: frame.encoded) == .frameSizeError)
        var larger = ServerConfiguration()
        larger.maxFrameSize = 32_768
        var client = Self.connected(larger)
        client.request(1, body: [UInt8](repeating: 7, count: 20_000))
        #expect(client.events.filter { if case .data = $0 { true } else { false } }.count == 1)
    }

    @Test("a header block that cannot be decoded is COMPRESSION_ERROR (§4.3)")
    func undecodableHeaderBlock() {
        let frame = Frame(stream: 1, payload: .headers(fragment: [0x80], endStream: true, endHeaders: true, priority: nil, padding: nil))
        #expect(Self.connectionError(after: frame.encoded) == .compressionError)
        let huffman = Frame(stream: 1, payload: .headers(fragment: [0x82, 0x86, 0x84, 0x41, 0x81, 0x00], endStream: true,
                                                         endHeaders: true, priority: nil, padding: nil))
        #expect(Self.connectionError(after: huffman.encoded) == .compressionError)
    }

    // MARK: §5.1 Stream states

    @Test("DATA, RST_STREAM and WINDOW_UPDATE on an idle stream are PROTOCOL_ERROR (§5.1, §6.4, §6.9)")
    func idleStreams() {
        #expect(Self.connectionError(after: Frame(stream: 1, payload: .data(bytes: [1], endStream: false, padding: nil)).encoded) == .protocolError)
        #expect(Self.connectionError(after: Frame(stream: 1, payload: .rstStream(.cancel)).encoded) == .protocolError)
        #expect(Self.connectionError(after: Frame(stream: 1, payload: .windowUpdate(increment: 1)).encoded) == .protocolError)
        #expect(Self.connectionError(after: Frame(stream: 2, payload: .data(bytes: [1], endStream: false, padding: nil)).encoded) == .protocolError)
    }

    @Test("CONTINUATION without a HEADERS before it is PROTOCOL_ERROR (§6.10)")
    func continuationAlone() {
        #expect(Self.connectionError(after: Frame(stream: 1, payload: .continuation(fragment: [0x82], endHeaders: true)).encoded) == .protocolError)
    }

    @Test("PRIORITY on an idle stream is accepted and opens nothing (§5.1, §5.3.2)")
    func priorityOnIdle() {
        var client = Self.connected()
        #expect(client.send(Frame(stream: 5, payload: .priority(Priority(dependency: 0)))).isEmpty)
        #expect(client.request(1).count == 1, "stream 1 may still open: PRIORITY did not move the highest stream")
        #expect(client.received().isEmpty)
    }

    @Test("half-closed (remote): DATA and HEADERS after the client's END_STREAM are stream errors STREAM_CLOSED (§5.1)")
    func halfClosedRemote() {
        let afterData = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: true),
             Frame(stream: 1, payload: .data(bytes: [1], endStream: false, padding: nil))]
        }
        #expect(afterData == [1: .streamClosed])
        let afterHeaders = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: true),
             client.headers([HeaderField("x-trailer", "1")], stream: 1, endStream: true)]
        }
        #expect(afterHeaders == [1: .streamClosed])
    }

    @Test("closed: DATA or HEADERS on a stream both sides ended is a connection error STREAM_CLOSED (§5.1)")
    func closedAfterEndStream() throws {
        for late in 0..<2 {
            var client = Self.connected()
            client.request(1)
            try client.server.respond(to: 1, status: 200)
            _ = client.received()
            if late == 0 {
                client.send(Frame(stream: 1, payload: .data(bytes: [1], endStream: true, padding: nil)))
            } else {
                client.send(client.headers(TestClient.requestFields(), stream: 1))
            }
            #expect(client.goAway()?.code == .streamClosed)
        }
    }

    @Test("closed: WINDOW_UPDATE, RST_STREAM and PRIORITY on a closed stream are ignored (§5.1)")
    func lateControlFramesIgnored() throws {
        var client = Self.connected()
        client.request(1)
        try client.server.respond(to: 1, status: 200)
        _ = client.received()
        let events = client.send([Frame(stream: 1, payload: .windowUpdate(increment: 10)), Frame(stream: 1, payload: .priority(Priority(dependency: 0))),
                                  Frame(stream: 1, payload: .rstStream(.cancel))])
        #expect(events.isEmpty && client.received().isEmpty)
    }

    @Test("frames a client sent before seeing our RST_STREAM are ignored, and their DATA still counts for the connection window (§5.1, §6.9)")
    func framesAfterOurReset() throws {
        var configuration = ServerConfiguration()
        configuration.connectionWindowSize = 65_535
        var client = Self.connected(configuration)
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        try client.server.resetStream(1, code: .cancel)
        #expect(TestClient.resets(in: client.received()) == [1: .cancel])
        let data = Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 1, count: 16_000), endStream: false, padding: nil))
        let events = client.send([data, data, data])
        #expect(events.isEmpty)
        // 48 000 octets consumed: past half the window, so the connection gets it back.
        #expect(client.received() == [Frame(stream: 0, payload: .windowUpdate(increment: 48_000))])
        #expect(throws: SendError.unknownStream(1)) { try client.server.respond(to: 1, status: 200) }
    }

    @Test("frames after the client's RST_STREAM are stream errors STREAM_CLOSED (§5.1)")
    func framesAfterPeerReset() {
        var client = Self.connected()
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        let events = client.send(Frame(stream: 1, payload: .rstStream(.cancel)))
        #expect(events == [.streamReset(1, .cancel)])
        #expect(client.received().isEmpty, "no RST_STREAM answers a RST_STREAM (§5.4.2)")
        client.send(Frame(stream: 1, payload: .data(bytes: [1], endStream: false, padding: nil)))
        #expect(TestClient.resets(in: client.received()) == [1: .streamClosed])
    }

    // MARK: §5.1.1 Stream identifiers

    @Test("a HEADERS on an even-numbered stream is PROTOCOL_ERROR (§5.1.1)")
    func evenStream() {
        var client = TestClient()
        client.connect()
        let frame = client.headers(TestClient.requestFields(), stream: 2)
        client.send(frame)
        #expect(client.goAway()?.code == .protocolError)
    }

    @Test("a stream identifier below one already used is PROTOCOL_ERROR (§5.1.1)")
    func decreasingStreamID() {
        var client = Self.connected()
        client.request(5)
        client.request(3)
        #expect(client.goAway()?.code == .protocolError)
    }

    @Test("the first stream may be any odd identifier; the idle streams it skips are closed (§5.1.1)")
    func firstStreamAboveOne() throws {
        var client = Self.connected()
        #expect(client.request(101).map(\.requestStream) == [101])
        try client.server.respond(to: 101, status: 200)
        #expect(client.responses(in: client.received())[101]?.ended == true)
        client.request(103)
        #expect(client.events.compactMap(\.requestStream) == [101, 103])
        // Stream 7 was skipped: it is closed, so a HEADERS on it is refused.
        client.request(7)
        #expect(client.goAway()?.code == .protocolError)
    }

    // MARK: §5.1.2 Concurrency

    @Test("a stream beyond SETTINGS_MAX_CONCURRENT_STREAMS is refused with REFUSED_STREAM; a finished one frees its slot (§5.1.2)")
    func concurrency() throws {
        var configuration = ServerConfiguration()
        configuration.maxConcurrentStreams = 2
        var client = Self.connected(configuration)
        client.request(1)
        client.request(3)
        client.request(5)
        #expect(TestClient.resets(in: client.received()) == [5: .refusedStream])
        #expect(client.events.compactMap(\.requestStream) == [1, 3])
        #expect(client.server.openStreamCount == 2)
        try client.server.respond(to: 1, status: 200)
        client.request(7)
        #expect(client.events.compactMap(\.requestStream) == [1, 3, 7])
        #expect(TestClient.resets(in: client.received()).isEmpty)
    }

    // MARK: §5.3 Priority

    @Test("a stream that depends on itself is a stream error PROTOCOL_ERROR, in HEADERS or PRIORITY (§5.3.1)")
    func selfDependency() throws {
        let headers = Self.resets { client in
            let block = client.encoder.encode(TestClient.requestFields())
            return [Frame(stream: 1, payload: .headers(fragment: block, endStream: true, endHeaders: true,
                                                       priority: Priority(dependency: 1), padding: nil))]
        }
        #expect(headers == [1: .protocolError])
        let priority = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 3, endStream: false),
             Frame(stream: 3, payload: .priority(Priority(dependency: 3)))]
        }
        #expect(priority == [3: .protocolError])
    }

    @Test("HEADERS with padding and priority fields are a request like any other (§6.2)")
    func paddedPriorityHeaders() {
        var client = Self.connected()
        let block = client.encoder.encode(TestClient.requestFields())
        let events = client.send(Frame(stream: 1, payload: .headers(fragment: block, endStream: true, endHeaders: true,
                                                                    priority: Priority(exclusive: true, dependency: 0, weight: 3), padding: 9)))
        #expect(events.compactMap(\.requestStream) == [1])
    }

    // MARK: §5.4 Error handling

    @Test("a connection error sends GOAWAY with the last stream handed over, and nothing more is read (§5.4.1, §6.8)")
    func goAwayLastStream() throws {
        var client = Self.connected()
        client.request(1)
        client.request(3)
        let events = client.send(Frame(stream: 0, payload: .windowUpdate(increment: 0)))
        guard case .connectionError(let error)? = events.last else { Issue.record("no connection error"); return }
        #expect(error.code == .protocolError)
        let frames = client.received()
        #expect(frames.last == Frame(stream: 0, payload: .goAway(lastStream: 3, code: .protocolError,
                                                                  debug: Array("WINDOW_UPDATE of 0 on the connection".utf8))))
        #expect(client.request(5).isEmpty)
        #expect(throws: SendError.connectionClosed) { try client.server.respond(to: 1, status: 200) }
        #expect(client.server.isFinished && client.server.openStreamCount == 0)
    }

    // MARK: §6.1 DATA

    @Test("request data is handed over as it arrives, padding removed; content-length must match (§6.1, §8.1.1)")
    func requestBody() {
        var client = Self.connected()
        client.send([client.headers(TestClient.requestFields(extra: [HeaderField("content-length", "5")]), stream: 1, endStream: false),
                     Frame(stream: 1, payload: .data(bytes: Array("he".utf8), endStream: false, padding: 10)),
                     Frame(stream: 1, payload: .data(bytes: Array("llo".utf8), endStream: true, padding: nil))])
        #expect(Array(client.events.dropFirst()) == [.data(1, Array("he".utf8), endStream: false), .data(1, Array("llo".utf8), endStream: true)])
        let mismatch = Self.resets { client in
            [client.headers(TestClient.requestFields(extra: [HeaderField("content-length", "2")]), stream: 1, endStream: false),
             Frame(stream: 1, payload: .data(bytes: Array("abc".utf8), endStream: true, padding: nil))]
        }
        #expect(mismatch == [1: .protocolError])
        let short = Self.resets { client in
            [client.headers(TestClient.requestFields(extra: [HeaderField("content-length", "4")]), stream: 1, endStream: false),
             Frame(stream: 1, payload: .data(bytes: Array("abc".utf8), endStream: true, padding: nil))]
        }
        #expect(short == [1: .protocolError])
        let noBody = Self.resets { client in
            [client.headers(TestClient.requestFields(extra: [HeaderField("content-length", "4")]), stream: 1, endStream: true)]
        }
        #expect(noBody == [1: .protocolError])
    }

    // MARK: §6.2, §6.10 Header blocks

    @Test("a header block split over HEADERS and CONTINUATION frames is one request (§6.10)")
    func continuation() {
        var client = Self.connected()
        let block = client.encoder.encode(TestClient.requestFields(extra: [HeaderField("apns-topic", "com.example.app")]))
        var frames = [Frame(stream: 1, payload: .headers(fragment: Array(block.prefix(3)), endStream: true, endHeaders: false, priority: nil, padding: nil))]
        var offset = 3
        while offset < block.count {
            let end = min(block.count, offset + 4)
            frames.append(Frame(stream: 1, payload: .continuation(fragment: Array(block[offset..<end]), endHeaders: end == block.count)))
            offset = end
        }
        let events = client.send(frames)
        guard case .request(1, let head, true)? = events.first else { Issue.record("no request: \(events)"); return }
        #expect(head.value("apns-topic") == "com.example.app" && head.path == "/3/device/abc")
    }

    @Test("a frame on another stream inside a header block is PROTOCOL_ERROR (§6.10)")
    func interleavedHeaderBlock() {
        var client = Self.connected()
        let first = client.headers(TestClient.requestFields(), stream: 1, endHeaders: false)
        let second = client.headers(TestClient.requestFields(), stream: 3)
        client.send([first, second])
        #expect(client.goAway()?.code == .protocolError)
        var other = Self.connected()
        let start = other.headers(TestClient.requestFields(), stream: 1, endHeaders: false)
        other.send([start, Frame(stream: 3, payload: .continuation(fragment: [], endHeaders: true))])
        #expect(other.goAway()?.code == .protocolError)
        var ping = Self.connected()
        let open = ping.headers(TestClient.requestFields(), stream: 1, endHeaders: false)
        ping.send([open, Frame(stream: 0, payload: .ping(ack: false, data: 0))])
        #expect(ping.goAway()?.code == .protocolError)
    }

    @Test("CONTINUATION after a HEADERS with END_HEADERS is PROTOCOL_ERROR (§6.10)")
    func continuationAfterEndHeaders() {
        var client = Self.connected()
        let headers = client.headers(TestClient.requestFields(), stream: 1, endStream: false)
        client.send([headers, Frame(stream: 1, payload: .continuation(fragment: [], endHeaders: true))])
        #expect(client.goAway()?.code == .protocolError)
    }

    @Test("trailers end the request; trailers without END_STREAM or with pseudo-header fields are malformed (§8.1)")
    func trailers() {
        var client = Self.connected()
        client.send([client.headers(TestClient.requestFields(), stream: 1, endStream: false),
                     Frame(stream: 1, payload: .data(bytes: [1], endStream: false, padding: nil)),
                     client.headers([HeaderField("x-checksum", "1")], stream: 1, endStream: true)])
        #expect(client.events.last == .trailers(1, [HeaderField("x-checksum", "1")]))
        let withoutEnd = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: false),
             client.headers([HeaderField("x-checksum", "1")], stream: 1, endStream: false)]
        }
        #expect(withoutEnd == [1: .protocolError])
        let pseudo = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: false),
             client.headers([HeaderField(":path", "/")], stream: 1, endStream: true)]
        }
        #expect(pseudo == [1: .protocolError])
    }

    // MARK: §6.5 SETTINGS

    @Test("SETTINGS values RFC 9113 forbids end the connection with the RFC's code (§6.5.2)", arguments: [
        (Setting(.enablePush, 2), ErrorCode.protocolError),
        (Setting(.initialWindowSize, 0x8000_0000), .flowControlError),
        (Setting(.maxFrameSize, 16_383), .protocolError),
        (Setting(.maxFrameSize, 0x100_0000), .protocolError),
    ])
    func invalidSettings(_ setting: Setting, _ code: ErrorCode) {
        #expect(Self.connectionError(after: Frame(stream: 0, payload: .settings(ack: false, parameters: [setting])).encoded) == code)
    }

    @Test("unknown SETTINGS identifiers are ignored, and the values apply in order (§6.5.2, §6.5.3)")
    func settingsOrder() {
        var client = Self.connected()
        client.send(Frame(stream: 0, payload: .settings(ack: false, parameters: [
            Setting(SettingID(rawValue: 0xf0f0), 1), Setting(.maxFrameSize, 20_000), Setting(.maxFrameSize, 30_000),
        ])))
        #expect(client.received() == [Frame(stream: 0, payload: .settings(ack: true, parameters: []))])
        #expect(client.server.peerSettings.maxFrameSize == 30_000)
    }

    @Test("the client's SETTINGS_MAX_FRAME_SIZE sizes our DATA frames and splits our header blocks into CONTINUATION (§4.2, §6.10)")
    func outboundFrameSize() throws {
        var client = Self.connected()
        client.request(1)
        let big = String(repeating: "v", count: 40_000)
        try client.server.respond(to: 1, status: 200, headers: [HeaderField("x-big", big, indexing: .withoutIndexing)],
                                  body: [UInt8](repeating: 1, count: 40_000))
        let frames = client.received()
        #expect(frames.allSatisfy { $0.encoded.count - 9 <= 16_384 })
        #expect(frames.filter { if case .continuation = $0.payload { true } else { false } }.count == 2)
        let response = client.responses(in: frames)[1]
        #expect(response?.headers.first?.last?.valueString == big)
        #expect(response?.body.count == 40_000)
        #expect(response?.ended == true)
    }

    @Test("the client's SETTINGS_HEADER_TABLE_SIZE is announced by our encoder before it is used (§6.5.2, RFC 7541 §4.2)")
    func peerTableSize() throws {
        var client = Self.connected(settings: [Setting(.headerTableSize, 0)])
        client.decoder = HPACKDecoder(maxTableSize: 4_096)
        client.decoder.setMaxAllowedTableSize(0)
        client.request(1)
        try client.server.respond(to: 1, status: 200, headers: [HeaderField("apns-id", "abc")])
        let response = client.responses(in: client.received())[1]
        #expect(response?.headers.first == [HeaderField(":status", "200"), HeaderField("apns-id", "abc")])
        #expect(client.decoder.table.maxSize == 0)
    }

    // MARK: §6.7 PING

    @Test("PING is answered with an acknowledgement carrying its data; an acknowledgement is not answered (§6.7)")
    func ping() {
        var client = Self.connected()
        #expect(client.send(Frame(stream: 0, payload: .ping(ack: false, data: 0xfeed))) == [.ping(0xfeed)])
        #expect(client.received() == [Frame(stream: 0, payload: .ping(ack: true, data: 0xfeed))])
        client.server.ping(42)
        #expect(client.received() == [Frame(stream: 0, payload: .ping(ack: false, data: 42))])
        #expect(client.send(Frame(stream: 0, payload: .ping(ack: true, data: 42))) == [.pingAcknowledged(42)])
        #expect(client.received().isEmpty)
    }

    // MARK: §6.8 GOAWAY

    @Test("the client's GOAWAY is reported, and open streams are still answered (§6.8)")
    func clientGoAway() throws {
        var client = Self.connected()
        client.request(1)
        let events = client.send(Frame(stream: 0, payload: .goAway(lastStream: 0, code: .noError, debug: Array("bye".utf8))))
        #expect(events == [.goAway(lastStream: 0, code: .noError, debug: Array("bye".utf8))])
        try client.server.respond(to: 1, status: 200)
        #expect(client.responses(in: client.received())[1]?.ended == true)
    }

    @Test("our GOAWAY names the last stream handed over; later streams are ignored, open ones finish (§6.8)")
    func serverGoAway() throws {
        var client = Self.connected()
        client.request(1)
        client.server.goAway()
        #expect(client.received() == [Frame(stream: 0, payload: .goAway(lastStream: 1, code: .noError, debug: []))])
        #expect(!client.server.isFinished)
        #expect(client.request(3).isEmpty, "a stream above the last one is ignored")
        #expect(client.received().isEmpty, "and not reset")
        try client.server.respond(to: 1, status: 200)
        #expect(client.server.isFinished)
    }

    @Test("a graceful shutdown sends GOAWAY with 2^31-1 and a PING, then the real last stream once the PING returns (§6.8)")
    func gracefulShutdown() throws {
        var client = Self.connected()
        client.request(1)
        client.server.beginGracefulShutdown()
        let first = client.received()
        #expect(first.first == Frame(stream: 0, payload: .goAway(lastStream: .max, code: .noError, debug: [])))
        guard case .ping(false, let data)? = first.last?.payload else { Issue.record("no PING"); return }
        #expect(client.request(3).count == 1, "a stream in flight before the client saw GOAWAY is still served")
        client.send(Frame(stream: 0, payload: .ping(ack: true, data: data)))
        #expect(client.received() == [Frame(stream: 0, payload: .goAway(lastStream: 3, code: .noError, debug: []))])
        try client.server.respond(to: 1, status: 200)
        try client.server.respond(to: 3, status: 200)
        #expect(client.server.isFinished)
    }

    // MARK: §6.9 Flow control

    @Test("WINDOW_UPDATE of 0 is PROTOCOL_ERROR: for the connection on stream 0, for the stream otherwise (§6.9)")
    func zeroIncrement() {
        #expect(Self.connectionError(after: Frame(stream: 0, payload: .windowUpdate(increment: 0)).encoded) == .protocolError)
        let stream = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: false), Frame(stream: 1, payload: .windowUpdate(increment: 0))]
        }
        #expect(stream == [1: .protocolError])
    }

    @Test("a window above 2^31-1 is FLOW_CONTROL_ERROR: the connection's ends it, a stream's resets it (§6.9.1)")
    func windowOverflow() {
        var client = Self.connected()
        client.send(Frame(stream: 0, payload: .windowUpdate(increment: 0x7fff_ffff - 65_535)))
        #expect(client.received().isEmpty)
        client.send(Frame(stream: 0, payload: .windowUpdate(increment: 1)))
        #expect(client.goAway()?.code == .flowControlError)
        let stream = Self.resets { client in
            [client.headers(TestClient.requestFields(), stream: 1, endStream: false), Frame(stream: 1, payload: .windowUpdate(increment: 0x7fff_ffff))]
        }
        #expect(stream == [1: .flowControlError])
    }

    @Test("DATA beyond the connection window ends the connection, beyond a stream's window resets the stream; padding counts (§6.9.1)")
    func receiveWindows() {
        var configuration = ServerConfiguration()
        configuration.maxFrameSize = 1 << 17 // so that one frame can overrun a window
        configuration.connectionWindowSize = 65_535
        configuration.initialWindowSize = 100_000
        var client = Self.connected(configuration)
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        client.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 65_536), endStream: false, padding: nil)))
        #expect(client.goAway()?.code == .flowControlError)

        var streamLimited = ServerConfiguration()
        streamLimited.maxFrameSize = 1 << 17
        var other = Self.connected(streamLimited) // stream window 65 535, connection window 1 MiB
        other.send(other.headers(TestClient.requestFields(), stream: 1, endStream: false))
        // 65 279 octets, 255 of padding and the pad length octet fill the window exactly.
        let events = other.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 65_279), endStream: false, padding: 255)))
        #expect(events.count == 1)
        #expect(other.received().contains(Frame(stream: 1, payload: .windowUpdate(increment: 65_535))))
        other.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 65_536), endStream: false, padding: nil)))
        #expect(TestClient.resets(in: other.received()) == [1: .flowControlError])
        #expect(other.request(3).count == 1, "the connection goes on")
    }

    @Test("we return window as data is handed over: the stream's and the connection's, in half-window steps (§6.9)")
    func windowUpdatesSent() {
        var configuration = ServerConfiguration()
        configuration.connectionWindowSize = 100_000
        configuration.initialWindowSize = 40_000
        configuration.maxFrameSize = 1 << 16
        var client = Self.connected(configuration)
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        client.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 19_999), endStream: false, padding: nil)))
        #expect(client.received().isEmpty)
        client.send(Frame(stream: 1, payload: .data(bytes: [0], endStream: false, padding: nil)))
        #expect(client.received() == [Frame(stream: 1, payload: .windowUpdate(increment: 20_000))])
        client.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 30_000), endStream: true, padding: nil)))
        #expect(client.received() == [Frame(stream: 0, payload: .windowUpdate(increment: 50_000))], "no update for an ended stream")
    }

    @Test("response DATA stays within the client's windows, one octet at a time if need be, and resumes on WINDOW_UPDATE (§6.9)")
    func sendWithinWindows() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 1)])
        client.request(1)
        try client.server.respond(to: 1, status: 400, body: Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        var frames = client.received()
        var body: [UInt8] = []
        for frame in frames { if case .data(let bytes, _, _) = frame.payload { body += bytes } }
        #expect(body == Array("{".utf8))
        #expect(client.server.isStalledByFlowControl && client.server.bufferedResponseBytes == 26)
        while client.server.bufferedResponseBytes > 0 {
            client.send(Frame(stream: 1, payload: .windowUpdate(increment: 1)))
            frames = client.received()
            #expect(frames.count == 1)
            if case .data(let bytes, _, _) = frames.first?.payload { #expect(bytes.count == 1); body += bytes }
        }
        #expect(String(decoding: body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
        guard case .data(_, true, _)? = frames.last?.payload else { Issue.record("no END_STREAM"); return }
        #expect(client.server.openStreamCount == 0)
    }

    @Test("the connection window holds every stream back; a WINDOW_UPDATE on stream 0 releases them round-robin (§6.9)")
    func connectionWindowShared() throws {
        var client = Self.connected()
        for id: StreamID in [1, 3] { client.request(id) }
        let body = [UInt8](repeating: 9, count: 40_000)
        try client.server.respond(to: 1, status: 200, body: body)
        try client.server.respond(to: 3, status: 200, body: body)
        var frames = client.received()
        var sent = 0
        for frame in frames { sent += frame.flowControlledLength }
        #expect(sent == 65_535)
        #expect(client.server.isStalledByFlowControl)
        // Both streams got a turn before the window ran out.
        let streamsWithData = Set(frames.filter { $0.flowControlledLength > 0 }.map(\.stream))
        #expect(streamsWithData == [1, 3])
        client.send([Frame(stream: 0, payload: .windowUpdate(increment: 100_000)), Frame(stream: 1, payload: .windowUpdate(increment: 100_000)),
                     Frame(stream: 3, payload: .windowUpdate(increment: 100_000))])
        frames += client.received()
        let responses = client.responses(in: frames)
        #expect(responses[1]?.body == body && responses[3]?.body == body)
        #expect(responses[1]?.ended == true && responses[3]?.ended == true)
    }

    @Test("SETTINGS_INITIAL_WINDOW_SIZE moves the windows of open streams, below zero too (§6.9.2)")
    func initialWindowChange() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 10)])
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 1, count: 30))
        #expect(client.responses(in: client.received())[1]?.body.count == 10)
        // Lowered to 5: the stream's window is now 5 − 10 = −5; raising to 20 makes it 10.
        client.send(Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.initialWindowSize, 5)])))
        #expect(client.received() == [Frame(stream: 0, payload: .settings(ack: true, parameters: []))])
        client.send(Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.initialWindowSize, 20)])))
        let frames = client.received()
        #expect(client.responses(in: frames)[1]?.body.count == 10)
        #expect(client.server.bufferedResponseBytes == 10)
    }

    @Test("a SETTINGS frame repeating SETTINGS_INITIAL_WINDOW_SIZE moves the windows once, by the last value (§6.5.3, §6.9.2)")
    func repeatedInitialWindow() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 0)])
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 1, count: 100))
        _ = client.received()
        let parameters = (0..<2_000).map { Setting(.initialWindowSize, UInt32($0 % 2 == 0 ? 0x7fff_ffff : 0)) } + [Setting(.initialWindowSize, 40)]
        client.send(Frame(stream: 0, payload: .settings(ack: false, parameters: parameters)))
        #expect(client.responses(in: client.received())[1]?.body.count == 40)
        #expect(client.server.peerSettings.initialWindowSize == 40)
    }

    @Test("a SETTINGS_INITIAL_WINDOW_SIZE that takes a window above 2^31-1 is FLOW_CONTROL_ERROR (§6.9.2)")
    func initialWindowOverflow() {
        var client = Self.connected()
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        client.send(Frame(stream: 1, payload: .windowUpdate(increment: 0x7fff_ffff - 65_535)))
        client.send(Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.initialWindowSize, 65_536)])))
        #expect(client.goAway()?.code == .flowControlError)
    }

    @Test("our SETTINGS_INITIAL_WINDOW_SIZE below 65 535 holds once acknowledged; before, the initial value does (§6.9.2)")
    func localWindowAfterAcknowledgement() {
        var configuration = ServerConfiguration()
        configuration.initialWindowSize = 1_000
        var client = TestClient(configuration: configuration)
        client.connect(acknowledge: false)
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        client.send(Frame(stream: 1, payload: .data(bytes: [UInt8](repeating: 0, count: 5_000), endStream: false, padding: nil)))
        #expect(client.events.count == 2, "5 000 octets fit the initial 65 535 before our SETTINGS is acknowledged")
        client.send(Frame(stream: 0, payload: .settings(ack: true, parameters: [])))
        _ = client.received()
        client.send(client.headers(TestClient.requestFields(), stream: 3, endStream: false))
        client.send(Frame(stream: 3, payload: .data(bytes: [UInt8](repeating: 0, count: 1_001), endStream: false, padding: nil)))
        #expect(TestClient.resets(in: client.received()) == [3: .flowControlError])
    }

    // MARK: §8 HTTP semantics

    static let malformed: [(String, [HeaderField])] = [
        ("no :method", [HeaderField(":scheme", "https"), HeaderField(":path", "/")]),
        ("no :scheme", [HeaderField(":method", "POST"), HeaderField(":path", "/")]),
        ("no :path", [HeaderField(":method", "POST"), HeaderField(":scheme", "https")]),
        ("empty :path", [HeaderField(":method", "POST"), HeaderField(":scheme", "https"), HeaderField(":path", "")]),
        ("duplicate :path", [HeaderField(":method", "POST"), HeaderField(":scheme", "https"), HeaderField(":path", "/"), HeaderField(":path", "/")]),
        ("unknown pseudo-header", TestClient.requestFields(extra: []) + [HeaderField(":protocol", "websocket")]),
        (":status in a request", [HeaderField(":status", "200")] + TestClient.requestFields()),
        ("pseudo-header after a regular field", [HeaderField(":method", "POST"), HeaderField("x-a", "1"), HeaderField(":scheme", "https"), HeaderField(":path", "/")]),
        ("uppercase field name", TestClient.requestFields(extra: [HeaderField("Apns-Topic", "x")])),
        ("field name with a space", TestClient.requestFields(extra: [HeaderField("apns topic", "x")])),
        ("field value with CR LF", TestClient.requestFields(extra: [HeaderField("x-a", "1\r\nx-b: 2")])),
        ("field value with a leading space", TestClient.requestFields(extra: [HeaderField("x-a", " 1")])),
        ("connection", TestClient.requestFields(extra: [HeaderField("connection", "keep-alive")])),
        ("transfer-encoding", TestClient.requestFields(extra: [HeaderField("transfer-encoding", "chunked")])),
        ("upgrade", TestClient.requestFields(extra: [HeaderField("upgrade", "h2c")])),
        ("te other than trailers", TestClient.requestFields(extra: [HeaderField("te", "gzip")])),
        ("host differing from :authority", TestClient.requestFields(extra: [HeaderField("host", "other.example")])),
        ("content-length not a number", TestClient.requestFields(extra: [HeaderField("content-length", "-1")])),
        ("CONNECT with :path", [HeaderField(":method", "CONNECT"), HeaderField(":authority", "a:443"), HeaderField(":path", "/")]),
    ]

    @Test("malformed requests are stream errors PROTOCOL_ERROR (§8.1.1, §8.2, §8.3)", arguments: malformed)
    func malformedRequest(_ name: String, _ fields: [HeaderField]) {
        var client = Self.connected()
        let events = client.send(client.headers(fields, stream: 1))
        #expect(events.isEmpty, "\(name): no request is handed over")
        #expect(TestClient.resets(in: client.received()) == [1: .protocolError], "\(name)")
        #expect(client.request(3).count == 1, "\(name): the connection goes on")
    }

    @Test("host stands for a missing :authority; te: trailers and CONNECT without :scheme are valid (§8.3.1, §8.2.2, §8.5)")
    func validRequestVariants() {
        var client = Self.connected()
        let hostOnly = [HeaderField(":method", "POST"), HeaderField(":scheme", "https"), HeaderField(":path", "/3/device/x"),
                        HeaderField("host", "api.push.example:443"), HeaderField("te", "trailers")]
        guard case .request(1, let head, true)? = client.send(client.headers(hostOnly, stream: 1)).first else {
            Issue.record("host-only request refused"); return
        }
        #expect(head.authority == "api.push.example:443" && head.method == "POST" && head.scheme == "https")
        #expect(head.values("host") == ["api.push.example:443"])
        let same = TestClient.requestFields(extra: [HeaderField("host", "api.push.example")])
        #expect(client.send(client.headers(same, stream: 3)).count == 1)
        let connect = [HeaderField(":method", "CONNECT"), HeaderField(":authority", "proxy.example:443")]
        guard case .request(5, let tunnel, _)? = client.send(client.headers(connect, stream: 5)).first else {
            Issue.record("CONNECT refused"); return
        }
        #expect(tunnel.scheme == nil && tunnel.path == nil)
    }

    @Test("a PUSH_PROMISE from a client is PROTOCOL_ERROR (§8.4)")
    func pushPromiseFromClient() {
        let frame = Frame(stream: 1, payload: .pushPromise(promised: 2, fragment: [0x82], endHeaders: true, padding: nil))
        #expect(Self.connectionError(after: frame.encoded) == .protocolError)
    }

    // MARK: Responses

    @Test("an APNs error response: HEADERS with :status 400 and apns-id, then the JSON reason with END_STREAM")
    func apnsErrorResponse() throws {
        var client = Self.connected()
        client.request(1, body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        let reason = Array(#"{"reason":"BadDeviceToken"}"#.utf8)
        try client.server.respond(to: 1, status: 400, headers: [HeaderField("apns-id", "EC1BF194-B3B2-424A-89A9-5A918A6E6B5A", indexing: .withoutIndexing),
                                                                 HeaderField("content-type", "application/json")], body: reason)
        let frames = client.received()
        #expect(frames.count == 2)
        guard case .headers(_, false, true, nil, nil) = frames[0].payload, case .data(reason, true, nil) = frames[1].payload else {
            Issue.record("not HEADERS then DATA: \(frames)"); return
        }
        let response = client.responses(in: frames)[1]
        #expect(response?.headers == [[HeaderField(":status", "400"), HeaderField("apns-id", "EC1BF194-B3B2-424A-89A9-5A918A6E6B5A"),
                                       HeaderField("content-type", "application/json")]])
        #expect(client.server.openStreamCount == 0)
    }

    @Test("a response without a body ends the stream on its HEADERS; 1xx and trailers take their places (§8.1)")
    func responseShapes() throws {
        var client = Self.connected()
        client.request(1)
        try client.server.respond(to: 1, status: 200)
        #expect(client.received().map(\.payload).first.map { if case .headers(_, true, true, _, _) = $0 { true } else { false } } == true)
        client.request(3)
        try client.server.sendHeaders(status: 100, [], on: 3, endStream: false)
        try client.server.respond(to: 3, status: 200, body: [1, 2], trailers: [HeaderField("x-done", "yes")])
        let response = client.responses(in: client.received())[3]
        #expect(response?.headers.map { $0.first?.valueString } == ["100", "200", "yes"])
        #expect(response?.body == [1, 2] && response?.ended == true)
    }

    @Test("what an application may not send is refused with a SendError, never sent")
    func sendErrors() throws {
        var client = Self.connected()
        #expect(throws: SendError.unknownStream(1)) { try client.server.respond(to: 1, status: 200) }
        client.request(1)
        #expect(throws: SendError.wrongOrder(1)) { try client.server.sendData([1], on: 1, endStream: true) }
        #expect(throws: SendError.self) { try client.server.respond(to: 1, status: 42) }
        #expect(throws: SendError.self) { try client.server.sendHeaders(status: 103, [], on: 1, endStream: true) }
        #expect(throws: SendError.self) { try client.server.sendHeaders(status: 101, [], on: 1, endStream: false) }
        #expect(throws: SendError.self) { try client.server.respond(to: 1, status: 200, headers: [HeaderField("Upper", "x")]) }
        #expect(throws: SendError.self) { try client.server.respond(to: 1, status: 200, headers: [HeaderField(":path", "/")]) }
        #expect(throws: SendError.self) { try client.server.respond(to: 1, status: 200, headers: [HeaderField("connection", "close")]) }
        #expect(client.received().isEmpty)
        try client.server.sendHeaders(status: 200, [], on: 1, endStream: false)
        #expect(throws: SendError.wrongOrder(1)) { try client.server.sendHeaders(status: 200, [], on: 1, endStream: false) }
        try client.server.sendData([1], on: 1, endStream: true)
        #expect(throws: SendError.self) { try client.server.sendData([1], on: 1, endStream: true) }
        client.server.goAway(code: .internalError)
        #expect(throws: SendError.connectionClosed) { try client.server.respond(to: 1, status: 200) }
    }

    @Test("resetting a stream sends RST_STREAM with our code and drops its queued data")
    func applicationReset() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 0)])
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 1, count: 1_000))
        _ = client.received()
        #expect(client.server.bufferedResponseBytes == 1_000)
        try client.server.resetStream(1, code: .cancel)
        #expect(client.received() == [Frame(stream: 1, payload: .rstStream(.cancel))])
        #expect(client.server.bufferedResponseBytes == 0 && client.server.openStreamCount == 0)
        #expect(throws: SendError.unknownStream(1)) { try client.server.resetStream(1, code: .cancel) }
    }

    @Test("takeOutbound(maxBytes:) hands out octets in order, a part at a time")
    func partialTakes() throws {
        var client = Self.connected()
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 5, count: 3_000))
        var frames: [Frame] = []
        while client.server.hasOutbound { frames += client.received(maxBytes: 7) }
        #expect(client.responses(in: frames)[1]?.body.count == 3_000)
    }
}
