import HTTP2

/// An HTTP/2 client's octets written by hand, and the server's read back as frames, with
/// HTTP2's own encoder and parser: for tests that need a client to misbehave on purpose.
struct H2Wire {
    var encoder = HPACKEncoder()

    /// The client preface and an empty SETTINGS.
    static var start: [UInt8] {
        FrameParser.clientPreface + Frame(stream: .connection, payload: .settings(ack: false, parameters: [])).encoded
    }

    static var settingsAcknowledgement: [UInt8] {
        Frame(stream: .connection, payload: .settings(ack: true, parameters: [])).encoded
    }

    /// A request's HEADERS on `stream` (POST to `path`).
    mutating func headers(stream: UInt32, path: String, endStream: Bool, extra: [HeaderField] = []) -> [UInt8] {
        let fields = [HeaderField(":method", "POST"), HeaderField(":scheme", "http"), HeaderField(":path", path),
                      HeaderField(":authority", "localhost")] + extra
        return Frame(stream: StreamID(stream), payload: .headers(fragment: encoder.encode(fields), endStream: endStream, endHeaders: true,
                                                                 priority: nil, padding: nil)).encoded
    }

    static func data(stream: UInt32, _ bytes: [UInt8], endStream: Bool) -> [UInt8] {
        Frame(stream: StreamID(stream), payload: .data(bytes: bytes, endStream: endStream, padding: nil)).encoded
    }

    static func pingAcknowledgement(_ data: UInt64) -> [UInt8] {
        Frame(stream: .connection, payload: .ping(ack: true, data: data)).encoded
    }

    /// The frames in what a server sent; nil if it is not a whole number of valid frames.
    static func frames(_ bytes: [UInt8]) -> [Frame]? {
        var parser = FrameParser(maxFrameSize: Settings.maxMaxFrameSize)
        parser.append(bytes)
        var frames: [Frame] = []
        while true {
            do {
                guard let frame = try parser.nextFrame() else { break }
                frames.append(frame)
            } catch {
                return nil
            }
        }
        return parser.bufferedByteCount == 0 ? frames : nil
    }

    /// The GOAWAY frames among `frames`: (last stream, code).
    static func goAways(_ frames: [Frame]) -> [(lastStream: UInt32, code: ErrorCode)] {
        frames.compactMap { if case .goAway(let last, let code, _) = $0.payload { (last.rawValue, code) } else { nil } }
    }
}
