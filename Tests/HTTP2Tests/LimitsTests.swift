@testable import HTTP2
import Testing

/// Hostile peers (RFC 9113 §10.5): each known attack is answered with GOAWAY
/// ENHANCE_YOUR_CALM (or the RFC's own error) while memory stays bounded, and the same
/// frames at an honest pace are served.
@Suite("HTTP/2 limits against hostile peers")
struct LimitsTests {
    static func connected(_ configure: (inout ServerConfiguration) -> Void = { _ in }, settings: [Setting] = []) -> TestClient {
        var configuration = ServerConfiguration()
        configure(&configuration)
        var client = TestClient(configuration: configuration)
        client.connect(settings: settings)
        _ = client.received()
        return client
    }

    @Test("rapid reset: streams opened and reset at once end the connection with ENHANCE_YOUR_CALM (CVE-2023-44487)")
    func rapidReset() {
        var client = Self.connected()
        var bytes: [UInt8] = []
        for index in 0..<1_000 {
            let id = StreamID(UInt32(2 * index + 1))
            client.headers(TestClient.requestFields(), stream: id, endStream: false).encode(into: &bytes)
            Frame(stream: id, payload: .rstStream(.cancel)).encode(into: &bytes)
        }
        let events = client.send(bytes)
        #expect(events.last?.connectionErrorCode == .enhanceYourCalm)
        #expect(events.filter { $0.requestStream != nil }.count == 201, "the burst of 200 resets, and the one that crossed it")
        #expect(client.goAway()?.code == .enhanceYourCalm)
        #expect(client.server.openStreamCount == 0)
    }

    @Test("the same resets at an honest pace are served: cancelling is not an attack")
    func resetsAtAnHonestPace() {
        var client = Self.connected()
        for index in 0..<2_000 {
            let id = StreamID(UInt32(2 * index + 1))
            client.now += .milliseconds(100) // 10 a second, under the 20 a second allowed
            client.send([client.headers(TestClient.requestFields(), stream: id, endStream: false), Frame(stream: id, payload: .rstStream(.cancel))])
        }
        #expect(client.goAway() == nil)
        #expect(client.server.closedStreams.count <= ServerConfiguration.Limits().closedStreamMemory, "closed streams are forgotten")
    }

    @Test("streams we must refuse or reset count against the same budget (CVE-2019-9514)")
    func resetFlood() {
        var client = Self.connected()
        var bytes: [UInt8] = []
        for index in 0..<500 {
            client.headers([HeaderField(":method", "GET")], stream: StreamID(UInt32(2 * index + 1))).encode(into: &bytes)
        }
        client.send(bytes)
        let frames = client.received()
        #expect(TestClient.resets(in: frames).count == 201)
        #expect(frames.last.map { if case .goAway(_, .enhanceYourCalm, _) = $0.payload { true } else { false } } == true)
    }

    @Test("CONTINUATION flood: more than 16 CONTINUATION frames in one header block is ENHANCE_YOUR_CALM (CVE-2024-27316)")
    func continuationFlood() {
        var client = Self.connected()
        var frames = [Frame(stream: 1, payload: .headers(fragment: [0x82], endStream: true, endHeaders: false, priority: nil, padding: nil))]
        for _ in 0..<17 { frames.append(Frame(stream: 1, payload: .continuation(fragment: [0x86], endHeaders: false))) }
        client.send(frames)
        #expect(client.goAway()?.code == .enhanceYourCalm)

        // Fewer, larger frames: the block is refused once it exceeds the header list size.
        var large = Self.connected()
        let fragment = [UInt8](repeating: 0x82, count: 16_384)
        large.send([Frame(stream: 1, payload: .headers(fragment: fragment, endStream: true, endHeaders: false, priority: nil, padding: nil)),
                    Frame(stream: 1, payload: .continuation(fragment: fragment, endHeaders: false))])
        #expect(large.goAway()?.code == .enhanceYourCalm)
        #expect(large.server.headerBlock == nil, "the partial block is dropped")
    }

    @Test("a header block split over 16 CONTINUATION frames is still a request")
    func continuationWithinLimit() {
        var client = Self.connected()
        let block = client.encoder.encode(TestClient.requestFields())
        var frames = [Frame(stream: 1, payload: .headers(fragment: Array(block.prefix(1)), endStream: true, endHeaders: false, priority: nil, padding: nil))]
        let rest = Array(block.dropFirst())
        let pieces = 16
        for piece in 0..<pieces {
            let start = rest.count * piece / pieces, end = rest.count * (piece + 1) / pieces
            frames.append(Frame(stream: 1, payload: .continuation(fragment: Array(rest[start..<end]), endHeaders: piece == pieces - 1)))
        }
        #expect(client.send(frames).compactMap(\.requestStream) == [1])
    }

    @Test("ping flood: more PINGs than the burst allows is ENHANCE_YOUR_CALM; the same PINGs spread over time are answered (CVE-2019-9512)")
    func pingFlood() {
        var client = Self.connected()
        var bytes: [UInt8] = []
        for index in 0..<1_100 { Frame(stream: 0, payload: .ping(ack: false, data: UInt64(index))).encode(into: &bytes) }
        client.send(bytes)
        #expect(client.goAway()?.code == .enhanceYourCalm)

        var honest = Self.connected()
        for index in 0..<3_000 {
            honest.now += .milliseconds(20) // 50 a second
            honest.send(Frame(stream: 0, payload: .ping(ack: false, data: UInt64(index))))
            #expect(honest.received().count == 1)
        }
        #expect(!honest.server.isFinished)
    }

    @Test("settings flood: SETTINGS frames beyond the burst are ENHANCE_YOUR_CALM (CVE-2019-9515)")
    func settingsFlood() {
        var client = Self.connected()
        var bytes: [UInt8] = []
        for _ in 0..<1_100 { Frame(stream: 0, payload: .settings(ack: false, parameters: [Setting(.maxFrameSize, 16_384)])).encode(into: &bytes) }
        client.send(bytes)
        #expect(client.goAway()?.code == .enhanceYourCalm)
    }

    @Test("PRIORITY and unknown frames are paid for from the same budget (CVE-2019-9513)")
    func priorityAndUnknownFlood() {
        var client = Self.connected()
        var bytes: [UInt8] = []
        for index in 0..<600 {
            Frame(stream: StreamID(UInt32(2 * index + 1)), payload: .priority(Priority(dependency: 0))).encode(into: &bytes)
            bytes += rawFrame(type: 0xee, stream: 0, payload: [])
        }
        client.send(bytes)
        #expect(client.goAway()?.code == .enhanceYourCalm)
    }

    @Test("answers the peer does not read are bounded: past maxPendingControlFrames, ENHANCE_YOUR_CALM (CVE-2019-9512/9515)")
    func pendingControlFrames() {
        var client = Self.connected { $0.limits.maxPendingControlFrames = 100 }
        var events: [ServerEvent] = []
        for index in 0..<150 {
            client.now += .milliseconds(50)
            events += client.server.receive(Frame(stream: 0, payload: .ping(ack: false, data: UInt64(index))).encoded, now: client.now)
            if !events.compactMap(\.connectionErrorCode).isEmpty { break }
        }
        #expect(events.compactMap(\.connectionErrorCode) == [.enhanceYourCalm])
        #expect(client.server.outboundByteCount < 101 * 17 + 200, "what waits is bounded")
        // A transport that takes what is sent never hits the bound.
        var reading = Self.connected { $0.limits.maxPendingControlFrames = 100 }
        for index in 0..<500 {
            reading.now += .milliseconds(50)
            reading.send(Frame(stream: 0, payload: .ping(ack: false, data: UInt64(index))))
            _ = reading.received(maxBytes: 20)
        }
        #expect(!reading.server.isFinished)
    }

    @Test("empty frames: DATA without data or END_STREAM, and empty header fragments, more than 16 in a row are ENHANCE_YOUR_CALM (CVE-2019-9518)")
    func emptyFrames() {
        var client = Self.connected()
        client.send(client.headers(TestClient.requestFields(), stream: 1, endStream: false))
        var bytes: [UInt8] = []
        for _ in 0..<17 { Frame(stream: 1, payload: .data(bytes: [], endStream: false, padding: nil)).encode(into: &bytes) }
        client.send(bytes)
        #expect(client.goAway()?.code == .enhanceYourCalm)

        var continuations = Self.connected()
        var frames = [Frame(stream: 1, payload: .headers(fragment: [], endStream: true, endHeaders: false, priority: nil, padding: nil))]
        for _ in 0..<16 { frames.append(Frame(stream: 1, payload: .continuation(fragment: [], endHeaders: false))) }
        continuations.send(frames)
        #expect(continuations.goAway()?.code == .enhanceYourCalm)

        // Content in between resets the count; padding-only DATA counts as empty.
        var honest = Self.connected()
        honest.send(honest.headers(TestClient.requestFields(), stream: 1, endStream: false))
        for _ in 0..<100 {
            honest.send([Frame(stream: 1, payload: .data(bytes: [], endStream: false, padding: 3)),
                         Frame(stream: 1, payload: .data(bytes: [1], endStream: false, padding: nil))])
        }
        honest.send(Frame(stream: 1, payload: .data(bytes: [], endStream: true, padding: nil)))
        #expect(honest.goAway() == nil)
    }

    @Test("HPACK bomb: a small block that expands past SETTINGS_MAX_HEADER_LIST_SIZE is ENHANCE_YOUR_CALM, decoded no further (RFC 9113 §10.5.1)")
    func hpackBomb() {
        var client = Self.connected()
        // One 4 000-octet field into the table, then 2 000 one-octet references to it, over
        // two requests so each block fits a frame: about 6 KB that would expand to 8 MB.
        var first: [UInt8] = [0x82, 0x87, 0x84, 0x40, 0x05] + Array("x-pad".utf8)
        HPACKInteger.encode(4_000, prefix: 7, flags: 0, into: &first)
        first += [UInt8](repeating: UInt8(ascii: "a"), count: 4_000)
        let events = client.send(Frame(stream: 1, payload: .headers(fragment: first, endStream: true, endHeaders: true, priority: nil, padding: nil)))
        #expect(events.compactMap(\.requestStream) == [1], "one large field is within the limit")
        let bomb = [0x82, 0x87, 0x84] + [UInt8](repeating: 0xbe, count: 2_000)
        let last = client.send(Frame(stream: 3, payload: .headers(fragment: bomb, endStream: true, endHeaders: true, priority: nil, padding: nil)))
        #expect(last.map(\.connectionErrorCode) == [.enhanceYourCalm])
    }

    @Test("a dynamic table size update above our SETTINGS_HEADER_TABLE_SIZE is COMPRESSION_ERROR (RFC 7541 §6.3)")
    func tableSizeAboveSettings() {
        var client = Self.connected { $0.headerTableSize = 1_024 }
        var block: [UInt8] = []
        HPACKInteger.encode(2_048, prefix: 5, flags: 0x20, into: &block)
        client.send(Frame(stream: 1, payload: .headers(fragment: block + [0x82, 0x87, 0x84], endStream: true, endHeaders: true, priority: nil, padding: nil)))
        #expect(client.goAway()?.code == .compressionError)
    }

    @Test("zero-window stall: responses queued behind a closed window are bounded; new streams are refused and the transport sees the stall (CVE-2019-9517)")
    func zeroWindowStall() throws {
        var client = Self.connected({ $0.limits.maxBufferedResponseBytes = 10_000 }, settings: [Setting(.initialWindowSize, 0)])
        var answered = 0
        for index in 0..<100 {
            let id = StreamID(UInt32(2 * index + 1))
            client.request(id)
            if (try? client.server.respond(to: id, status: 200, body: [UInt8](repeating: 1, count: 1_000))) != nil { answered += 1 }
        }
        #expect(answered == 10, "streams are refused once 10 000 octets wait")
        #expect(TestClient.resets(in: client.received()).values.allSatisfy { $0 == .refusedStream })
        #expect(client.server.bufferedResponseBytes == 10_000)
        #expect(client.server.isStalledByFlowControl)
        // The transport's stall timeout ends it.
        client.server.goAway(code: .enhanceYourCalm, debug: Array("flow-control stall".utf8))
        #expect(client.goAway()?.code == .enhanceYourCalm)
        #expect(client.server.isFinished && client.server.bufferedResponseBytes == 0)
    }

    @Test("data dribble: one-octet windows from a peer that does not read fill outbound octets only up to the high-water mark (CVE-2019-9511)")
    func dribble() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 1)])
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 1, count: 100_000))
        _ = client.received()
        let update = Frame(stream: 1, payload: .windowUpdate(increment: 1)).encoded
        // One DATA frame of one octet each, until the high-water mark: then the window
        // grows unused, and the 445 updates past that point are paid for (within the burst).
        for _ in 0..<7_000 { client.send(update) }
        #expect(!client.server.isFinished)
        #expect(client.server.outboundByteCount >= ServerConnection.outboundHighWater)
        #expect(client.server.outboundByteCount <= ServerConnection.outboundHighWater + 10)
        #expect(client.server.bufferedResponseBytes == 100_000 - 1 - (ServerConnection.outboundHighWater + 9) / 10)
    }

    @Test("WINDOW_UPDATE flood: updates that give back no window our DATA used are paid for like PINGs, past the burst ENHANCE_YOUR_CALM",
          arguments: [StreamID(0), StreamID(1)])
    func windowUpdateFlood(_ stream: StreamID) {
        // On the connection, increments of 1 never overflow 2^31-1 soon; on a stream that ended, they are late frames.
        var client = Self.connected()
        client.request(1)
        try? client.server.respond(to: 1, status: 200)
        _ = client.received()
        let update = Frame(stream: stream, payload: .windowUpdate(increment: 1)).encoded
        var bytes: [UInt8] = []
        for _ in 0..<1_100 { bytes += update }
        client.send(bytes)
        #expect(client.goAway()?.code == .enhanceYourCalm)

        // Raising a stream's window above the largest it was is paid for as well.
        var raiser = Self.connected()
        raiser.request(3, body: [])
        bytes = []
        for _ in 0..<1_100 { bytes += Frame(stream: 3, payload: .windowUpdate(increment: 1)).encoded }
        raiser.send(bytes)
        #expect(raiser.goAway()?.code == .enhanceYourCalm)
    }

    @Test("a client that reads gives its windows back as often as it likes: 30 000 one-octet WINDOW_UPDATEs, each after one DATA, are served")
    func windowUpdatesWithEffect() throws {
        var client = Self.connected(settings: [Setting(.initialWindowSize, 1)])
        client.request(1)
        try client.server.respond(to: 1, status: 200, body: [UInt8](repeating: 7, count: 30_000))
        var received = 0
        for frame in client.received() { if case .data(let bytes, _, _) = frame.payload { received += bytes.count } }
        while received < 30_000 && !client.server.isFinished {
            // The stream's octet back, and the connection's every 10 000 (it starts at 65 535).
            var updates = [Frame(stream: 1, payload: .windowUpdate(increment: 1))]
            if received % 10_000 == 0 { updates.append(Frame(stream: 0, payload: .windowUpdate(increment: 10_000))) }
            client.send(updates)
            for frame in client.received() { if case .data(let bytes, _, _) = frame.payload { received += bytes.count } }
        }
        #expect(received == 30_000)
        #expect(!client.server.isFinished)
    }

    @Test("closed streams are remembered up to a bound, whatever the peer does")
    func closedStreamMemory() throws {
        var client = Self.connected()
        for index in 0..<1_000 {
            let id = StreamID(UInt32(2 * index + 1))
            client.now += .milliseconds(10)
            client.request(id)
            try client.server.respond(to: id, status: 200)
            _ = client.received()
        }
        #expect(client.server.closedStreams.count == 256 && client.server.openStreamCount == 0)
    }
}
