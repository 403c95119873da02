@testable import HTTP2

/// Hex in the RFC's style ("8286 8441 0f77 …", spaces anywhere) as octets.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter(\.isHexDigit)
    precondition(digits.count % 2 == 0, "odd hex: \(text)")
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        bytes.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// Octets as the RFC prints them, for failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// A frame written octet by octet, for frames the encoder would never produce.
func rawFrame(type: UInt8, flags: UInt8 = 0, stream: UInt32, payload: [UInt8]) -> [UInt8] {
    let length = payload.count
    return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
            UInt8(stream >> 24 & 0xff), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff)] + payload
}

/// A client driving a `ServerConnection` in memory: its own HPACK encoder and decoder and
/// a parser for what the server sends, with the clock under the test's control.
struct TestClient {
    var server: ServerConnection
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder()
    var parser = FrameParser(maxFrameSize: Settings.maxMaxFrameSize)
    var now = Duration.zero
    /// Every event the server reported, in order.
    var events: [ServerEvent] = []

    init(configuration: ServerConfiguration = ServerConfiguration()) {
        server = ServerConnection(configuration: configuration)
    }

    /// The standard request fields for `path`.
    static func requestFields(path: String = "/3/device/abc", method: String = "POST",
                              extra: [HeaderField] = []) -> [HeaderField] {
        [HeaderField(":method", method), HeaderField(":scheme", "https"), HeaderField(":path", path),
         HeaderField(":authority", "api.push.example")] + extra
    }

    /// Sends octets; returns the events they caused.
    @discardableResult
    mutating func send(_ bytes: [UInt8]) -> [ServerEvent] {
        let new = server.receive(bytes, now: now)
        events += new
        return new
    }

    /// Sends frames (in one chunk); returns the events they caused.
    @discardableResult
    mutating func send(_ frames: [Frame]) -> [ServerEvent] {
        var bytes: [UInt8] = []
        for frame in frames { frame.encode(into: &bytes) }
        return send(bytes)
    }

    @discardableResult
    mutating func send(_ frame: Frame) -> [ServerEvent] { send([frame]) }

    /// The preface and a SETTINGS frame, then the server's preface and acknowledgement
    /// read and our acknowledgement of its SETTINGS sent.
    mutating func connect(settings: [Setting] = [], acknowledge: Bool = true) {
        send(FrameParser.clientPreface + Frame(stream: .connection, payload: .settings(ack: false, parameters: settings)).encoded)
        _ = received()
        if acknowledge { send(Frame(stream: .connection, payload: .settings(ack: true, parameters: []))) }
    }

    /// A HEADERS frame carrying `fields`, encoded with this client's HPACK context.
    mutating func headers(_ fields: [HeaderField], stream: StreamID, endStream: Bool = true,
                          endHeaders: Bool = true) -> Frame {
        Frame(stream: stream, payload: .headers(fragment: encoder.encode(fields), endStream: endStream,
                                                endHeaders: endHeaders, priority: nil, padding: nil))
    }

    /// Sends a request on `stream`.
    @discardableResult
    mutating func request(_ stream: StreamID, path: String = "/3/device/abc", body: [UInt8]? = nil,
                          extra: [HeaderField] = []) -> [ServerEvent] {
        var frames = [headers(Self.requestFields(path: path, extra: extra), stream: stream, endStream: body == nil)]
        if let body { frames.append(Frame(stream: stream, payload: .data(bytes: body, endStream: true, padding: nil))) }
        return send(frames)
    }

    /// What the server has queued, as frames: everything (taking refills the queue from
    /// the streams' data, as a transport would loop), or one take of `maxBytes`.
    mutating func received(maxBytes: Int = .max) -> [Frame] {
        repeat {
            parser.append(server.takeOutbound(maxBytes: maxBytes))
        } while maxBytes == .max && server.hasOutbound
        var frames: [Frame] = []
        while let frame = try! parser.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The single GOAWAY the server sent, if it did.
    mutating func goAway() -> (lastStream: StreamID, code: ErrorCode)? {
        for frame in received() {
            if case .goAway(let last, let code, _) = frame.payload { return (last, code) }
        }
        return nil
    }

    /// The codes of the RST_STREAM frames the server sent, by stream.
    static func resets(in frames: [Frame]) -> [StreamID: ErrorCode] {
        var resets: [StreamID: ErrorCode] = [:]
        for frame in frames { if case .rstStream(let code) = frame.payload { resets[frame.stream] = code } }
        return resets
    }

    /// The response on each stream: its decoded header blocks and body.
    mutating func responses(in frames: [Frame]) -> [StreamID: (headers: [[HeaderField]], body: [UInt8], ended: Bool)] {
        var responses: [StreamID: (headers: [[HeaderField]], body: [UInt8], ended: Bool)] = [:]
        var block: [UInt8] = []
        for frame in frames {
            switch frame.payload {
            case .headers(let fragment, let endStream, let endHeaders, _, _):
                block = fragment
                if endStream { responses[frame.stream, default: ([], [], false)].ended = true }
                if endHeaders { responses[frame.stream, default: ([], [], false)].headers.append(try! decoder.decode(block)) }
            case .continuation(let fragment, let endHeaders):
                block += fragment
                if endHeaders { responses[frame.stream, default: ([], [], false)].headers.append(try! decoder.decode(block)) }
            case .data(let bytes, let endStream, _):
                responses[frame.stream, default: ([], [], false)].body += bytes
                if endStream { responses[frame.stream, default: ([], [], false)].ended = true }
            case .priority, .rstStream, .settings, .pushPromise, .ping, .goAway, .windowUpdate, .unknown:
                break
            }
        }
        return responses
    }
}

extension ServerEvent {
    /// The stream of a request event, for filtering.
    var requestStream: StreamID? {
        if case .request(let id, _, _) = self { return id }
        return nil
    }

    var connectionErrorCode: ErrorCode? {
        if case .connectionError(let error) = self { return error.code }
        return nil
    }
}

/// A small deterministic generator for the tests (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
