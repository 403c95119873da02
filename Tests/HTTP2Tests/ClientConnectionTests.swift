@testable import HTTP2
import Testing

/// `ClientConnection` against `ServerConnection` in process (client octets → server →
/// server octets → client), and against servers written frame by frame for what a real
/// server rarely does: windows of one octet, GOAWAY, resets, protocol errors.
@Suite("HTTP/2 client connection")
struct ClientConnectionTests {
    static func post(_ path: String, body: [UInt8] = [], fields: [HeaderField] = []) -> ClientRequest {
        ClientRequest(method: "POST", path: path, authority: "api.push.example", fields: fields, body: body)
    }

    static let get = ClientRequest(method: "GET", path: "/", authority: "api.push.example")

    // MARK: Against ServerConnection

    @Test("a request and its response cross a ServerConnection: pseudo-headers first, fields in order, body, response fields, body and trailers")
    func roundTrip() throws {
        var pair = ConnectedPair { server, stream, head, body in
            try? server.respond(to: stream, status: 201, headers: [HeaderField("apns-id", "abc", indexing: .withoutIndexing)],
                                body: body.reversed(), trailers: [HeaderField("x-checksum", "42")])
        }
        let id = pair.send(Self.post("/3/device/a1", body: Array("hello".utf8),
                                     fields: [HeaderField("apns-topic", "com.example"), HeaderField("apns-priority", "10")]))
        pair.pump()
        let response = try #require(pair.responses[id])
        #expect(response.status == 201)
        #expect(response.value("apns-id") == "abc")
        #expect(response.body == Array("olleh".utf8))
        #expect(response.trailers == [HeaderField("x-checksum", "42")])
        guard case .request(let stream, let head, _)? = pair.serverEvents.first(where: { $0.requestStream != nil }) else {
            Issue.record("the server saw no request")
            return
        }
        #expect(stream == 1)
        #expect(head.method == "POST" && head.scheme == "http" && head.path == "/3/device/a1" && head.authority == "api.push.example")
        #expect(head.fields.map(\.nameString) == ["apns-topic", "apns-priority"])
        #expect(!pair.client.isAwaitingSettingsAcknowledgement && !pair.server.isAwaitingSettingsAcknowledgement)
        #expect(pair.client.openStreamCount == 0 && pair.client.requestsInFlight == 0 && pair.server.openStreamCount == 0)
        #expect(pair.failures.isEmpty)
    }

    @Test("requests wait for the server's SETTINGS, then open streams 1, 3, 5 in the order sent")
    func streamsWaitForServerSettings() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        let ids = (0..<3).map { _ in try! client.send(Self.get) }
        let before = server.read(&client)
        #expect(before.allSatisfy { if case .headers = $0.payload { false } else { true } }, "no HEADERS before the server's SETTINGS")
        #expect(client.waitingRequestCount == 3)
        server.start(&client)
        let after = server.read(&client)
        let opened: [StreamID] = after.compactMap { if case .headers = $0.payload { $0.stream } else { nil } }
        #expect(opened == [1, 3, 5])
        #expect(after.contains { if case .settings(ack: true, _) = $0.payload { true } else { false } }, "the server's SETTINGS acknowledged")
        let fields = server.requestFields(in: after)[1] ?? []
        #expect(fields.prefix(4).map(\.nameString) == [":method", ":scheme", ":path", ":authority"])
        for (offset, id) in ids.enumerated() {
            server.send(server.status(200, stream: StreamID(UInt32(1 + 2 * offset)), endStream: true), to: &client)
            #expect(ClientEvent.responses(in: server.events)[id]?.status == 200)
        }
    }

    @Test("beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS requests wait: never more open than allowed, none refused, all answered")
    func concurrencyLimit() throws {
        var configuration = ServerConfiguration()
        configuration.maxConcurrentStreams = 2
        var pair = ConnectedPair(server: configuration)
        pair.pump() // the SETTINGS exchange
        let ids = (0..<20).map { pair.send(Self.post("/\($0)", body: [UInt8(truncatingIfNeeded: $0)])) }
        #expect(pair.client.openStreamCount == 2 && pair.client.waitingRequestCount == 18)
        var peak = 0
        pair.chunk = 200 // small writes: the answers come back a few at a time
        for _ in 0..<10_000 where pair.client.requestsInFlight > 0 {
            pair.pump(rounds: 1)
            peak = max(peak, pair.client.openStreamCount, pair.server.openStreamCount)
        }
        #expect(peak <= 2)
        #expect(pair.failures.isEmpty)
        #expect(ids.allSatisfy { pair.responses[$0]?.status == 200 })
        #expect(pair.responses[ids[7]]?.body == Array("POST /7 1".utf8))
    }

    @Test("a server window of one octet: a 1 000-octet body reaches ServerConnection whole, one octet per WINDOW_UPDATE")
    func windowOfOneEndToEnd() throws {
        var configuration = ServerConfiguration()
        configuration.initialWindowSize = 1
        var pair = ConnectedPair(server: configuration)
        pair.pump()
        let body = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
        let id = pair.send(Self.post("/upload", body: body))
        pair.pump()
        #expect(pair.responses[id]?.body == Array("POST /upload 1000".utf8))
        let data = pair.serverEvents.compactMap { if case .data(_, let bytes, _) = $0 { bytes } else { nil } }
        #expect(data.count == 1_000 && data.allSatisfy { $0.count == 1 })
    }

    @Test("a stream window of one octet: DATA of one octet, then one more per stream WINDOW_UPDATE, END_STREAM with the last")
    func streamWindowOfOne() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client, settings: [Setting(.initialWindowSize, 1)])
        _ = try client.send(Self.post("/x", body: Array("hey".utf8)))
        var sent: [UInt8] = []
        var frames = server.read(&client)
        for round in 0..<3 {
            let data = Frame.data(in: frames, stream: 1)
            #expect(data.bytes.count == 1, "round \(round): one octet per window")
            #expect(data.ended == (round == 2))
            sent += data.bytes
            server.send(Frame(stream: 1, payload: .windowUpdate(increment: 1)), to: &client)
            frames = server.read(&client)
        }
        #expect(sent == Array("hey".utf8))
        #expect(Frame.data(in: frames, stream: 1).bytes.isEmpty)
    }

    @Test("a connection window of one octet: once the body used it up, one octet per connection WINDOW_UPDATE, shared by the streams")
    func connectionWindowOfOne() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client, settings: [Setting(.initialWindowSize, 1 << 20)])
        _ = try client.send(Self.post("/a", body: [UInt8](repeating: 1, count: 65_535)))
        let first = server.read(&client)
        #expect(Frame.data(in: first, stream: 1).bytes.count == 65_535, "the connection's initial window is used up")
        _ = try client.send(Self.post("/b", body: Array("xy".utf8)))
        #expect(Frame.data(in: server.read(&client), stream: 3).bytes.isEmpty, "nothing fits the connection window")
        server.send(Frame(stream: .connection, payload: .windowUpdate(increment: 1)), to: &client)
        let one = server.read(&client)
        #expect(Frame.data(in: one, stream: 3).bytes == [UInt8(ascii: "x")])
        server.send(Frame(stream: .connection, payload: .windowUpdate(increment: 1)), to: &client)
        let two = Frame.data(in: server.read(&client), stream: 3)
        #expect(two.bytes == [UInt8(ascii: "y")] && two.ended)
    }

    @Test("a 300 000-octet response through 65 535-octet windows: the client's WINDOW_UPDATEs let it all through")
    func largeResponse() throws {
        var pair = ConnectedPair { server, stream, _, _ in
            try? server.respond(to: stream, status: 200, body: [UInt8](repeating: 7, count: 300_000))
        }
        pair.chunk = 10_000
        let id = pair.send(Self.get)
        pair.pump()
        #expect(pair.responses[id]?.body.count == 300_000)
        #expect(pair.client.requestsInFlight == 0)
    }

    @Test("SETTINGS_MAX_FRAME_SIZE and header blocks: a 40 000-octet field goes in HEADERS and CONTINUATION, the server reads it")
    func largeRequestHeaders() throws {
        var configuration = ServerConfiguration()
        configuration.maxHeaderListSize = 65_536
        var pair = ConnectedPair(server: configuration)
        let big = String(repeating: "v", count: 40_000)
        let id = pair.send(Self.post("/h", fields: [HeaderField("x-big", big, indexing: .withoutIndexing)]))
        pair.pump()
        #expect(pair.responses[id]?.status == 200)
        guard case .request(_, let head, _)? = pair.serverEvents.first(where: { $0.requestStream != nil }) else {
            Issue.record("no request")
            return
        }
        #expect(head.value("x-big") == big)
    }

    @Test("the server's graceful GOAWAY: the streams it names finish, later sends are refused, the connection ends when they do")
    func serverGracefulGoAway() throws {
        var pair = ConnectedPair()
        let first = pair.send(Self.get)
        pair.pump()
        pair.server.goAway(code: .noError)
        pair.pump()
        #expect(pair.responses[first]?.status == 200)
        #expect(pair.clientEvents.contains { if case .goAway(1, .noError, _) = $0 { true } else { false } })
        #expect(throws: ClientSendError.connectionClosing) { try pair.client.send(Self.get) }
        #expect(pair.client.isFinished)
    }

    // MARK: Against servers written by hand

    @Test("GOAWAY naming stream 1: streams 3 and 5 and the requests still waiting fail as not processed (retryable); stream 1 completes")
    func goAwayAboveLastStream() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client, settings: [Setting(.maxConcurrentStreams, 3)])
        let ids = (0..<5).map { _ in try! client.send(Self.get) }
        #expect(client.openStreamCount == 3 && client.waitingRequestCount == 2)
        server.send(Frame(stream: .connection, payload: .goAway(lastStream: 1, code: .noError, debug: [])), to: &client)
        let failures = ClientEvent.failures(in: server.events)
        #expect(failures.keys.sorted() == Array(ids[1...]))
        #expect(failures.values.allSatisfy { $0 == .notProcessed(.noError) && $0.isRetryable })
        #expect(!client.acceptsRequests && !client.isFinished)
        #expect(throws: ClientSendError.connectionClosing) { try client.send(Self.get) }
        // Frames on a stream above the last are ignored; stream 1 still answers.
        server.send([server.status(200, stream: 3, endStream: true), server.status(204, stream: 1, endStream: true)], to: &client)
        #expect(ClientEvent.responses(in: server.events).map(\.key) == [ids[0]])
        #expect(Frame.goAwayCodes(in: server.read(&client)).isEmpty)
        #expect(client.isFinished)
    }

    @Test("RST_STREAM fails its request with the code: REFUSED_STREAM as retryable, INTERNAL_ERROR as not")
    func resets() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client)
        let refused = try client.send(Self.get)
        let broken = try client.send(Self.get)
        server.send([Frame(stream: 1, payload: .rstStream(.refusedStream)), Frame(stream: 3, payload: .rstStream(.internalError))],
                    to: &client)
        let failures = ClientEvent.failures(in: server.events)
        #expect(failures[refused] == .notProcessed(.refusedStream) && failures[refused]?.isRetryable == true)
        #expect(failures[broken] == .reset(.internalError) && failures[broken]?.isRetryable == false)
        #expect(client.openStreamCount == 0 && client.acceptsRequests)
    }

    @Test("a whole response before the whole request, then RST_STREAM NO_ERROR: the response is reported and the upload stops")
    func earlyResponse() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client)
        let id = try client.send(Self.post("/big", body: [UInt8](repeating: 0, count: 200_000)))
        _ = server.read(&client)
        server.send([server.status(413, stream: 1, endStream: true), Frame(stream: 1, payload: .rstStream(.noError))], to: &client)
        #expect(ClientEvent.responses(in: server.events)[id]?.status == 413)
        #expect(ClientEvent.failures(in: server.events).isEmpty)
        server.send(Frame(stream: 1, payload: .windowUpdate(increment: 100_000)), to: &client)
        server.send(Frame(stream: .connection, payload: .windowUpdate(increment: 100_000)), to: &client)
        #expect(Frame.data(in: server.read(&client), stream: 1).bytes.isEmpty, "nothing more of the body is sent")
        #expect(client.openStreamCount == 0)
    }

    @Test("PING is answered with the same data; a PING we send comes back as pingAcknowledged")
    func ping() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client)
        _ = server.read(&client)
        let events = server.send(Frame(stream: .connection, payload: .ping(ack: false, data: 0xfeed)), to: &client)
        #expect(events == [.ping(0xfeed)])
        #expect(server.read(&client).map(\.payload) == [.ping(ack: true, data: 0xfeed)])
        client.ping(7)
        #expect(server.read(&client).map(\.payload) == [.ping(ack: false, data: 7)])
        #expect(server.send(Frame(stream: .connection, payload: .ping(ack: true, data: 7)), to: &client) == [.pingAcknowledged(7)])
    }

    @Test("a protocol error (DATA on a stream never opened) ends the connection: GOAWAY PROTOCOL_ERROR, every request fails, no new ones")
    func connectionError() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        _ = server.read(&client)
        server.start(&client, settings: [Setting(.maxConcurrentStreams, 1)])
        let open = try client.send(Self.get)
        let waiting = try client.send(Self.get)
        let events = server.send(ScriptedServer.data([1], stream: 9, endStream: false), to: &client)
        #expect(events.first?.connectionErrorCode == .protocolError)
        let failures = ClientEvent.failures(in: events)
        #expect(failures.keys.sorted() == [open, waiting])
        #expect(failures.values.allSatisfy { if case .connectionError(.protocolError, _) = $0 { true } else { false } })
        #expect(Frame.goAwayCodes(in: server.read(&client)) == [.protocolError])
        #expect(client.isFinished)
        #expect(throws: ClientSendError.connectionClosing) { try client.send(Self.get) }
        #expect(server.send(server.status(200, stream: 1, endStream: true), to: &client).isEmpty, "nothing is read after GOAWAY")
    }

    @Test("what a server may not send is a connection error PROTOCOL_ERROR: a first frame other than SETTINGS, PUSH_PROMISE, HEADERS on an even stream")
    func serverProtocolErrors() throws {
        var first = ClientConnection()
        var server = ScriptedServer()
        #expect(server.send(Frame(stream: .connection, payload: .ping(ack: false, data: 1)), to: &first).first?.connectionErrorCode == .protocolError)

        var pushed = ClientConnection()
        server = ScriptedServer()
        server.start(&pushed)
        _ = try pushed.send(Self.get)
        let promise = Frame(stream: 1, payload: .pushPromise(promised: 2, fragment: [], endHeaders: true, padding: nil))
        #expect(server.send(promise, to: &pushed).first?.connectionErrorCode == .protocolError)

        var even = ClientConnection()
        server = ScriptedServer()
        server.start(&even)
        #expect(server.send(server.status(200, stream: 2, endStream: true), to: &even).first?.connectionErrorCode == .protocolError)
    }

    @Test("a malformed response is a stream error: no :status, a request pseudo-header, content-length against the DATA, trailers without END_STREAM")
    func malformedResponses() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client)
        let ids = (0..<4).map { _ in try! client.send(Self.get) }
        _ = server.read(&client)
        server.send(server.headers([HeaderField("content-type", "text/plain")], stream: 1, endStream: true), to: &client)
        server.send(server.headers([HeaderField(":status", "200"), HeaderField(":path", "/")], stream: 3, endStream: true), to: &client)
        server.send([server.status(200, stream: 5, endStream: false, extra: [HeaderField("content-length", "3")]),
                     ScriptedServer.data([1, 2], stream: 5, endStream: true)], to: &client)
        server.send([server.status(200, stream: 7, endStream: false),
                     server.headers([HeaderField("x-trailer", "1")], stream: 7, endStream: false)], to: &client)
        let failures = ClientEvent.failures(in: server.events)
        for id in ids {
            guard case .streamError(.protocolError, let reason)? = failures[id] else {
                Issue.record("\(id): \(String(describing: failures[id]))")
                continue
            }
            #expect(reason.hasPrefix("malformed response"))
        }
        #expect(Frame.resets(in: server.read(&client)) == [1: .protocolError, 3: .protocolError, 5: .protocolError, 7: .protocolError])
        #expect(client.acceptsRequests, "stream errors leave the connection serving")
    }

    @Test("informational responses are skipped: 103 then 200 gives the 200; a response to HEAD has no body whatever content-length says")
    func informationalAndHead() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client)
        let get = try client.send(Self.get)
        let head = try client.send(ClientRequest(method: "HEAD", path: "/", authority: "h"))
        server.send([server.status(103, stream: 1, endStream: false, extra: [HeaderField("link", "</a>")]),
                     server.status(200, stream: 1, endStream: false), ScriptedServer.data(Array("ok".utf8), stream: 1, endStream: true),
                     server.status(200, stream: 3, endStream: true, extra: [HeaderField("content-length", "1234")])], to: &client)
        let responses = ClientEvent.responses(in: server.events)
        #expect(responses[get] == ClientResponse(status: 200, body: Array("ok".utf8)))
        #expect(responses[head]?.status == 200 && responses[head]?.body == [])
        #expect(server.events.count == 2)
    }

    @Test("cancel: a waiting request never goes out; an open one is reset with CANCEL and its late frames are ignored")
    func cancel() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client, settings: [Setting(.maxConcurrentStreams, 1)])
        let open = try client.send(Self.get)
        let waiting = try client.send(Self.get)
        client.cancel(waiting)
        client.cancel(open)
        let frames = server.read(&client)
        #expect(Frame.resets(in: frames) == [1: .cancel])
        #expect(server.requestFields(in: frames).keys.sorted() == [1])
        #expect(server.send([server.status(200, stream: 1, endStream: false), ScriptedServer.data([1], stream: 1, endStream: true)],
                            to: &client).isEmpty)
        #expect(client.requestsInFlight == 0 && client.acceptsRequests)
    }

    @Test("the transport loses the connection: every request fails, as connectionLost, or with the error of the server's GOAWAY")
    func connectionLost() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client, settings: [Setting(.maxConcurrentStreams, 1)])
        let ids = [try client.send(Self.get), try client.send(Self.get)]
        let lost = client.connectionLost()
        #expect(ClientEvent.failures(in: lost) == [ids[0]: .connectionLost, ids[1]: .connectionLost])

        var other = ClientConnection()
        server = ScriptedServer()
        server.start(&other)
        let id = try other.send(Self.get)
        server.send(Frame(stream: .connection, payload: .goAway(lastStream: 1, code: .internalError, debug: Array("bye".utf8))), to: &other)
        guard case .connectionError(.internalError, let reason)? = ClientEvent.failures(in: other.connectionLost())[id] else {
            Issue.record("the request did not fail with the GOAWAY's code")
            return
        }
        #expect(reason.contains("bye"))
    }

    @Test("a request HTTP/2 cannot carry is refused before anything is sent: an uppercase name, a connection-specific field, a path with a space")
    func invalidRequests() {
        var client = ClientConnection()
        for request in [Self.post("/", fields: [HeaderField("X-Big", "1")]), Self.post("/", fields: [HeaderField("connection", "close")]),
                        ClientRequest(method: "GET", path: "/a b", authority: "h")] {
            #expect(throws: ClientSendError.self) { try client.send(request) }
        }
        #expect(client.requestsInFlight == 0)
    }

    // MARK: Limits

    @Test("a response body over maxResponseBodyBytes fails its request and resets the stream with CANCEL; the connection serves on")
    func responseBodyLimit() throws {
        var configuration = ClientConfiguration()
        configuration.limits.maxResponseBodyBytes = 1_000
        var pair = ConnectedPair(client: configuration) { server, stream, head, _ in
            try? server.respond(to: stream, status: 200, body: [UInt8](repeating: 1, count: head.path == "/big" ? 100_000 : 1_000))
        }
        let big = pair.send(ClientRequest(method: "GET", path: "/big", authority: "h"))
        let fits = pair.send(ClientRequest(method: "GET", path: "/fits", authority: "h"))
        pair.pump()
        #expect(pair.failures[big] == .responseTooLarge(limit: 1_000))
        #expect(pair.responses[fits]?.body.count == 1_000)
        #expect(pair.serverEvents.contains(.streamReset(1, .cancel)))
    }

    @Test("an HPACK bomb (a large field referenced many times) ends the connection with ENHANCE_YOUR_CALM once past the header list size")
    func headerListLimit() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client)
        let id = try client.send(Self.get)
        let big = HeaderField("x-bomb", String(repeating: "b", count: 4_000))
        let fields = [HeaderField(":status", "200")] + Array(repeating: big, count: 10)
        let events = server.send(server.headers(fields, stream: 1, endStream: true), to: &client)
        #expect(events.first?.connectionErrorCode == .enhanceYourCalm)
        #expect(ClientEvent.failures(in: events)[id] != nil)
    }

    @Test("a CONTINUATION flood ends the connection with ENHANCE_YOUR_CALM after 16 frames")
    func continuationFlood() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client)
        _ = try client.send(Self.get)
        var frames = [server.headers([HeaderField(":status", "200")], stream: 1, endStream: true, endHeaders: false)]
        frames += Array(repeating: Frame(stream: 1, payload: .continuation(fragment: [0x40], endHeaders: false)), count: 17)
        let events = server.send(frames, to: &client)
        #expect(events.first?.connectionErrorCode == .enhanceYourCalm)
    }

    @Test("a PING flood past the control-frame budget ends the connection with ENHANCE_YOUR_CALM; the same PINGs at an honest pace do not")
    func pingFlood() throws {
        var client = ClientConnection()
        var server = ScriptedServer()
        server.start(&client)
        let flood = (0..<1_100).map { Frame(stream: .connection, payload: .ping(ack: false, data: UInt64($0))) }
        #expect(server.send(flood, to: &client).contains { $0.connectionErrorCode == .enhanceYourCalm })

        var honest = ClientConnection()
        server = ScriptedServer()
        server.start(&honest)
        for index in 0..<1_100 {
            server.now += .milliseconds(20)
            server.send(Frame(stream: .connection, payload: .ping(ack: false, data: UInt64(index))), to: &honest)
            _ = server.read(&honest)
        }
        #expect(!server.events.contains { $0.connectionErrorCode != nil })
    }
}
