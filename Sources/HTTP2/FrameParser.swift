/// Turns bytes, fed in chunks of any size, into frame values (RFC 9113 §4, §6).
///
/// It keeps only the unparsed tail of what it was given: at most one partial frame once
/// the frames before it are taken, since a frame longer than `maxFrameSize` is refused
/// from its header, before its payload arrives (§4.2). It validates what a frame's own
/// octets can show (lengths, stream 0 or not, padding); what depends on the connection's
/// state is `ServerConnection`'s.
public struct FrameParser: Sendable {
    /// The client connection preface (RFC 9113 §3.4), which precedes the client's first frame.
    public static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// The largest payload accepted: our SETTINGS_MAX_FRAME_SIZE.
    public var maxFrameSize: Int

    /// Unparsed octets are `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Octets of the client preface still to match; 0 once matched (or when not expected).
    private var prefaceMatched: Int

    /// - Parameters:
    ///   - maxFrameSize: the largest payload accepted (16 384 … 16 777 215).
    ///   - expectingClientPreface: a server's parser first matches the client preface.
    /// - Complexity: O(1).
    public init(maxFrameSize: Int = Settings.minMaxFrameSize, expectingClientPreface: Bool = false) {
        self.maxFrameSize = maxFrameSize
        prefaceMatched = expectingClientPreface ? 0 : FrameParser.clientPreface.count
    }

    /// Octets received and not yet returned as frames.
    /// - Complexity: O(1).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds received octets.
    /// - Complexity: amortised O(n), n the octets added.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received octets.
    /// - Complexity: amortised O(n), n the octets added.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Gives back the buffer's storage once every octet is parsed and it grew past 32 KiB
    /// (one large read): an idle connection then holds no more than a small one.
    /// - Complexity: O(1).
    public mutating func releaseStorageIfEmpty() {
        guard start == buffer.count, buffer.capacity > 1 << 15 else { return }
        buffer = []
        start = 0
    }

    /// Drops the octets already parsed once they are most of the buffer, so a long
    /// connection neither grows the buffer nor shifts it on every frame.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4_096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// A complete frame whose payload is still in the parser's buffer, where `withPayload`
    /// reads it, until the parser is next changed.
    struct FrameInPlace {
        let type: UInt8
        let flags: UInt8
        let stream: StreamID
        let payload: Range<Int>
    }

    /// The next complete frame, or nil when more octets are needed.
    ///
    /// A stream error (a PRIORITY frame of the wrong length) consumes its frame, so the
    /// caller may reset that stream and go on; after a connection error the connection
    /// is over and the parser should not be used again.
    /// - Complexity: O(n), n the frame's length.
    public mutating func nextFrame() throws(ProtocolError) -> Frame? {
        guard let next = try nextFrameInPlace() else { return nil }
        return try frame(next)
    }

    /// The next complete frame, its payload left in place (a HEADERS frame's block is
    /// decoded where it lies), or nil when more octets are needed.
    /// - Complexity: O(1), once the client preface is matched.
    mutating func nextFrameInPlace() throws(ProtocolError) -> FrameInPlace? {
        if prefaceMatched < FrameParser.clientPreface.count {
            let preface = FrameParser.clientPreface
            while prefaceMatched < preface.count && start < buffer.count {
                // Byte by byte, so an HTTP/1.1 request or TLS hello is refused at once.
                guard buffer[start] == preface[prefaceMatched] else {
                    throw .connection(.protocolError, "the connection did not start with the HTTP/2 client preface")
                }
                start += 1
                prefaceMatched += 1
            }
            if prefaceMatched < preface.count { return nil }
        }
        guard buffer.count - start >= FrameHeader.size else { return nil }
        let length = Int(buffer[start]) << 16 | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2])
        let type = buffer[start + 3]
        let flags = buffer[start + 4]
        let stream = StreamID(UInt32(buffer[start + 5]) << 24 | UInt32(buffer[start + 6]) << 16
            | UInt32(buffer[start + 7]) << 8 | UInt32(buffer[start + 8]))
        // RFC 9113 §4.2. Every oversized frame is a connection error here: the RFC allows
        // a stream error for some, but the payload would have to be skipped unread.
        guard length <= maxFrameSize else {
            throw .connection(.frameSizeError, "a frame of \(length) octets, above SETTINGS_MAX_FRAME_SIZE \(maxFrameSize)")
        }
        guard buffer.count - start - FrameHeader.size >= length else { return nil }
        let payloadStart = start + FrameHeader.size
        start = payloadStart + length
        return FrameInPlace(type: type, flags: flags, stream: stream, payload: payloadStart..<start)
    }

    /// Calls `body` with the payload of `frame`, the last one `nextFrameInPlace` returned.
    /// - Complexity: O(1) besides `body`.
    func withPayload<Result, Failure: Error>(
        of frame: FrameInPlace, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withUnsafeBufferPointer { all throws(Failure) in try body(UnsafeBufferPointer(rebasing: all[frame.payload])) }
    }

    /// `frame` as a value.
    /// - Complexity: O(n), n the payload's length.
    func frame(_ frame: FrameInPlace) throws(ProtocolError) -> Frame {
        try withPayload(of: frame) { payload throws(ProtocolError) in
            try Self.parse(type: frame.type, flags: frame.flags, stream: frame.stream, payload: payload)
        }
    }

    /// Parses one whole frame's payload (RFC 9113 §6).
    /// - Complexity: O(n), n the payload length.
    static func parse(type: UInt8, flags: UInt8, stream: StreamID,
                      payload: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Frame {
        let length = payload.count
        func frame(_ content: Frame.Payload) -> Frame { Frame(stream: stream, payload: content) }
        func onConnection(_ name: String) throws(ProtocolError) {
            guard stream == .connection else { throw .connection(.protocolError, "\(name) on \(stream), not stream 0") }
        }
        func onStream(_ name: String) throws(ProtocolError) {
            guard stream != .connection else { throw .connection(.protocolError, "\(name) on stream 0") }
        }
        switch type {
        case FrameType.data:
            try onStream("DATA")
            let (content, padding) = try unpadded(payload, flags: flags, name: "DATA")
            return frame(.data(bytes: Array(content), endStream: flags & FrameFlag.endStream != 0, padding: padding))
        case FrameType.headers:
            let headers = try self.headers(flags: flags, stream: stream, payload: payload)
            return frame(.headers(fragment: Array(headers.fragment), endStream: flags & FrameFlag.endStream != 0,
                                  endHeaders: flags & FrameFlag.endHeaders != 0, priority: headers.priority, padding: headers.padding))
        case FrameType.priority:
            try onStream("PRIORITY")
            guard length == 5 else { throw .stream(stream, .frameSizeError, "PRIORITY of \(length) octets, not 5") }
            return frame(.priority(readPriority(payload)))
        case FrameType.rstStream:
            try onStream("RST_STREAM")
            guard length == 4 else { throw .connection(.frameSizeError, "RST_STREAM of \(length) octets, not 4") }
            return frame(.rstStream(ErrorCode(rawValue: readUInt32(payload, at: 0))))
        case FrameType.settings:
            try onConnection("SETTINGS")
            let ack = flags & FrameFlag.ack != 0
            if ack {
                guard length == 0 else { throw .connection(.frameSizeError, "SETTINGS acknowledgement with a payload") }
                return frame(.settings(ack: true, parameters: []))
            }
            guard length % 6 == 0 else {
                throw .connection(.frameSizeError, "SETTINGS of \(length) octets, not a multiple of 6")
            }
            var parameters: [Setting] = []
            parameters.reserveCapacity(length / 6)
            for offset in stride(from: 0, to: length, by: 6) {
                let id = SettingID(rawValue: UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1]))
                parameters.append(Setting(id, readUInt32(payload, at: offset + 2)))
            }
            return frame(.settings(ack: false, parameters: parameters))
        case FrameType.pushPromise:
            try onStream("PUSH_PROMISE")
            let (content, padding) = try unpadded(payload, flags: flags, name: "PUSH_PROMISE")
            guard content.count >= 4 else { throw .connection(.frameSizeError, "PUSH_PROMISE too short for its stream") }
            let promised = StreamID(readUInt32(content, at: 0))
            return frame(.pushPromise(promised: promised, fragment: Array(content[(content.startIndex + 4)...]),
                                      endHeaders: flags & FrameFlag.endHeaders != 0, padding: padding))
        case FrameType.ping:
            try onConnection("PING")
            guard length == 8 else { throw .connection(.frameSizeError, "PING of \(length) octets, not 8") }
            let data = UInt64(readUInt32(payload, at: 0)) << 32 | UInt64(readUInt32(payload, at: 4))
            return frame(.ping(ack: flags & FrameFlag.ack != 0, data: data))
        case FrameType.goAway:
            try onConnection("GOAWAY")
            guard length >= 8 else { throw .connection(.frameSizeError, "GOAWAY of \(length) octets, under 8") }
            return frame(.goAway(lastStream: StreamID(readUInt32(payload, at: 0)),
                                 code: ErrorCode(rawValue: readUInt32(payload, at: 4)), debug: Array(payload[8...])))
        case FrameType.windowUpdate:
            guard length == 4 else { throw .connection(.frameSizeError, "WINDOW_UPDATE of \(length) octets, not 4") }
            return frame(.windowUpdate(increment: readUInt32(payload, at: 0) & 0x7fff_ffff))
        case FrameType.continuation:
            try onStream("CONTINUATION")
            return frame(.continuation(fragment: Array(payload), endHeaders: flags & FrameFlag.endHeaders != 0))
        default:
            return frame(.unknown(type: type, flags: flags, payload: Array(payload)))
        }
    }

    /// A HEADERS frame's field block fragment, priority and pad length, its payload read in place (RFC 9113 §6.2).
    /// - Complexity: O(1).
    static func headers(flags: UInt8, stream: StreamID,
                        payload: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> (fragment: UnsafeBufferPointer<UInt8>, priority: Priority?, padding: UInt8?) {
        guard stream != .connection else { throw .connection(.protocolError, "HEADERS on stream 0") }
        var (content, padding) = try unpadded(payload, flags: flags, name: "HEADERS")
        var priority: Priority?
        if flags & FrameFlag.priority != 0 {
            guard content.count >= 5 else {
                throw .connection(.frameSizeError, "HEADERS with PRIORITY too short for its priority fields")
            }
            priority = readPriority(content)
            content = UnsafeBufferPointer(rebasing: content[(content.startIndex + 5)...])
        }
        return (content, priority, padding)
    }

    /// The content of a frame with an optional PADDED flag, and its pad length (RFC 9113 §6.1).
    private static func unpadded(_ payload: UnsafeBufferPointer<UInt8>, flags: UInt8,
                                 name: String) throws(ProtocolError) -> (UnsafeBufferPointer<UInt8>, UInt8?) {
        guard flags & FrameFlag.padded != 0 else { return (payload, nil) }
        guard let padLength = payload.first else {
            throw .connection(.frameSizeError, "padded \(name) without its pad length")
        }
        // "If the length of the padding is the length of the frame payload or greater,
        // the recipient MUST treat this as a connection error of type PROTOCOL_ERROR."
        guard Int(padLength) < payload.count else {
            throw .connection(.protocolError, "\(name) padding of \(padLength) octets fills its payload of \(payload.count)")
        }
        return (UnsafeBufferPointer(rebasing: payload[1..<(payload.count - Int(padLength))]), padLength)
    }

    private static func readPriority(_ bytes: UnsafeBufferPointer<UInt8>) -> Priority {
        let word = readUInt32(bytes, at: 0)
        return Priority(exclusive: word & 0x8000_0000 != 0, dependency: StreamID(word), weight: bytes[bytes.startIndex + 4])
    }

    private static func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
    }
}
