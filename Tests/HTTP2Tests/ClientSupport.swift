@testable import HTTP2

/// A `ClientConnection` and a `ServerConnection` joined in memory: octets move both ways
/// until neither side has anything to say, and the server answers every whole request
/// with `answer`.
struct ConnectedPair {
    typealias Answer = @Sendable (inout ServerConnection, StreamID, RequestHead, [UInt8]) -> Void

    var client: ClientConnection
    var server: ServerConnection
    var now = Duration.zero
    /// Every event each side reported, in order.
    var clientEvents: [ClientEvent] = []
    var serverEvents: [ServerEvent] = []
    /// The largest take from either side per move (a transport that writes little at a time).
    var chunk = Int.max
    /// Requests whose body is on its way.
    private var bodies: [StreamID: (head: RequestHead, body: [UInt8])] = [:]
    let answer: Answer

    /// 200 with the request's path and body length as the body.
    static let echo: Answer = { server, stream, head, body in
        try? server.respond(to: stream, status: 200, headers: [HeaderField("x-path", head.path ?? "")],
                            body: Array("\(head.method) \(head.path ?? "") \(body.count)".utf8))
    }

    init(client: ClientConfiguration = ClientConfiguration(), server: ServerConfiguration = ServerConfiguration(),
         answer: @escaping Answer = ConnectedPair.echo) {
        self.client = ClientConnection(configuration: client)
        self.server = ServerConnection(configuration: server)
        self.answer = answer
    }

    /// Moves octets both ways until both sides are quiet (at most `rounds` exchanges).
    mutating func pump(rounds: Int = 100_000) {
        for _ in 0..<rounds {
            now += .milliseconds(1)
            var moved = false
            if client.hasOutbound {
                moved = true
                let events = server.receive(client.takeOutbound(maxBytes: chunk), now: now)
                serverEvents += events
                for event in events { serve(event) }
            }
            if server.hasOutbound {
                moved = true
                clientEvents += client.receive(server.takeOutbound(maxBytes: chunk), now: now)
            }
            if !moved { return }
        }
    }

    private mutating func serve(_ event: ServerEvent) {
        switch event {
        case .request(let stream, let head, let endStream):
            if endStream { answer(&server, stream, head, []) } else { bodies[stream] = (head, []) }
        case .data(let stream, let bytes, let endStream):
            bodies[stream]?.body += bytes
            if endStream, let request = bodies.removeValue(forKey: stream) { answer(&server, stream, request.head, request.body) }
        case .trailers(let stream, _):
            if let request = bodies.removeValue(forKey: stream) { answer(&server, stream, request.head, request.body) }
        case .streamReset(let stream, _):
            bodies[stream] = nil
        case .streamError, .ping, .pingAcknowledged, .goAway, .connectionError:
            break
        }
    }

    /// Sends a request from the client.
    @discardableResult
    mutating func send(_ request: ClientRequest) -> RequestID {
        try! client.send(request)
    }

    /// The responses the client reported, by request.
    var responses: [RequestID: ClientResponse] {
        var result: [RequestID: ClientResponse] = [:]
        for event in clientEvents { if case .response(let id, let response) = event { result[id] = response } }
        return result
    }

    /// The failures the client reported, by request.
    var failures: [RequestID: RequestFailure] { ClientEvent.failures(in: clientEvents) }
}

/// A server written by hand for the client to meet: it reads what the client sends as
/// frames (after the preface) with its own HPACK decoder, and sends frames the test
/// builds, header blocks encoded with its own HPACK encoder.
struct ScriptedServer {
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder()
    var parser = FrameParser(maxFrameSize: Settings.maxMaxFrameSize, expectingClientPreface: true)
    var now = Duration.zero
    /// Every event the client reported, in order.
    var events: [ClientEvent] = []

    /// What the client queued, as frames.
    mutating func read(_ client: inout ClientConnection) -> [Frame] {
        parser.append(client.takeOutbound())
        var frames: [Frame] = []
        while let frame = try! parser.nextFrame() { frames.append(frame) }
        return frames
    }

    /// Sends frames to the client (in one chunk); returns the events they caused.
    @discardableResult
    mutating func send(_ frames: [Frame], to client: inout ClientConnection) -> [ClientEvent] {
        var bytes: [UInt8] = []
        for frame in frames { frame.encode(into: &bytes) }
        now += .milliseconds(1)
        let new = client.receive(bytes, now: now)
        events += new
        return new
    }

    @discardableResult
    mutating func send(_ frame: Frame, to client: inout ClientConnection) -> [ClientEvent] { send([frame], to: &client) }

    /// The server's preface: SETTINGS with `settings`, and the acknowledgement of the client's.
    mutating func start(_ client: inout ClientConnection, settings: [Setting] = []) {
        send([Frame(stream: .connection, payload: .settings(ack: false, parameters: settings)),
              Frame(stream: .connection, payload: .settings(ack: true, parameters: []))], to: &client)
    }

    /// A response HEADERS frame on `stream`.
    mutating func headers(_ fields: [HeaderField], stream: StreamID, endStream: Bool, endHeaders: Bool = true) -> Frame {
        Frame(stream: stream, payload: .headers(fragment: encoder.encode(fields), endStream: endStream, endHeaders: endHeaders,
                                                priority: nil, padding: nil))
    }

    mutating func status(_ status: Int, stream: StreamID, endStream: Bool, extra: [HeaderField] = []) -> Frame {
        headers([HeaderField(":status", String(status))] + extra, stream: stream, endStream: endStream)
    }

    static func data(_ bytes: [UInt8], stream: StreamID, endStream: Bool) -> Frame {
        Frame(stream: stream, payload: .data(bytes: bytes, endStream: endStream, padding: nil))
    }

    /// The decoded fields of every HEADERS the client sent, by stream.
    mutating func requestFields(in frames: [Frame]) -> [StreamID: [HeaderField]] {
        var result: [StreamID: [HeaderField]] = [:]
        for frame in frames {
            if case .headers(let fragment, _, true, _, _) = frame.payload { result[frame.stream] = try! decoder.decode(fragment) }
        }
        return result
    }
}

extension ClientEvent {
    /// The failures among `events`, by request.
    static func failures(in events: [ClientEvent]) -> [RequestID: RequestFailure] {
        var result: [RequestID: RequestFailure] = [:]
        for event in events { if case .failed(let id, let failure) = event { result[id] = failure } }
        return result
    }

    /// The responses among `events`, by request.
    static func responses(in events: [ClientEvent]) -> [RequestID: ClientResponse] {
        var result: [RequestID: ClientResponse] = [:]
        for event in events { if case .response(let id, let response) = event { result[id] = response } }
        return result
    }

    var connectionErrorCode: ErrorCode? {
        if case .connectionError(let error) = self { return error.code }
        return nil
    }
}

extension Frame {
    /// DATA octets in `frames` on `stream`, and whether one ended the stream.
    static func data(in frames: [Frame], stream: StreamID) -> (bytes: [UInt8], ended: Bool) {
        var bytes: [UInt8] = [], ended = false
        for frame in frames where frame.stream == stream {
            if case .data(let data, let end, _) = frame.payload {
                bytes += data
                ended = ended || end
            }
        }
        return (bytes, ended)
    }

    /// The RST_STREAM codes in `frames`, by stream.
    static func resets(in frames: [Frame]) -> [StreamID: ErrorCode] {
        var result: [StreamID: ErrorCode] = [:]
        for frame in frames { if case .rstStream(let code) = frame.payload { result[frame.stream] = code } }
        return result
    }

    /// The GOAWAY codes in `frames`.
    static func goAwayCodes(in frames: [Frame]) -> [ErrorCode] {
        frames.compactMap { if case .goAway(_, let code, _) = $0.payload { code } else { nil } }
    }
}
