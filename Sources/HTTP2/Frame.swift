/// One HTTP/2 frame as a value (RFC 9113 §4.1, §6): the stream it belongs to and what it
/// carries. Flags are fields of the payload, so a value cannot hold a flag its type does
/// not define; undefined flags a peer sets are dropped when parsed (§4.1: "MUST be ignored").
public struct Frame: Hashable, Sendable {
    public var stream: StreamID
    public var payload: Payload

    /// - Complexity: O(1).
    @inlinable
    public init(stream: StreamID, payload: Payload) {
        self.stream = stream
        self.payload = payload
    }

    /// The frame types of RFC 9113 §6, and any other type kept as received (§5.5: an
    /// unknown type is ignored, except inside a field block).
    public enum Payload: Hashable, Sendable {
        /// DATA (§6.1). `padding` is the pad length when PADDED is set.
        case data(bytes: [UInt8], endStream: Bool, padding: UInt8?)
        /// HEADERS (§6.2): a field block fragment, with the PRIORITY fields when that flag is set.
        case headers(fragment: [UInt8], endStream: Bool, endHeaders: Bool, priority: Priority?, padding: UInt8?)
        /// PRIORITY (§6.3), deprecated by RFC 9113 and ignored, but still parsed.
        case priority(Priority)
        /// RST_STREAM (§6.4).
        case rstStream(ErrorCode)
        /// SETTINGS (§6.5); an acknowledgement carries no parameters.
        case settings(ack: Bool, parameters: [Setting])
        /// PUSH_PROMISE (§6.6): only servers send it.
        case pushPromise(promised: StreamID, fragment: [UInt8], endHeaders: Bool, padding: UInt8?)
        /// PING (§6.7): 8 opaque octets, as a big-endian integer.
        case ping(ack: Bool, data: UInt64)
        /// GOAWAY (§6.8).
        case goAway(lastStream: StreamID, code: ErrorCode, debug: [UInt8])
        /// WINDOW_UPDATE (§6.9): 1...2³¹−1 on the wire; 0 is parsed so the receiver can refuse it.
        case windowUpdate(increment: UInt32)
        /// CONTINUATION (§6.10).
        case continuation(fragment: [UInt8], endHeaders: Bool)
        /// A frame type this module does not know.
        case unknown(type: UInt8, flags: UInt8, payload: [UInt8])
    }

    /// The octets of the payload this frame counts against flow-control windows: the
    /// whole payload of a DATA frame, padding and its length octet included (§6.9), and
    /// nothing for any other type.
    /// - Complexity: O(1).
    public var flowControlledLength: Int {
        switch payload {
        case .data(let bytes, _, let padding):
            bytes.count + (padding.map { Int($0) + 1 } ?? 0)
        case .headers, .priority, .rstStream, .settings, .pushPromise, .ping, .goAway, .windowUpdate, .continuation,
             .unknown:
            0
        }
    }
}

/// The stream dependency and weight of HEADERS and PRIORITY (RFC 9113 §5.3.2, §6.3).
/// RFC 9113 deprecates the scheme: we parse it to validate the frame and otherwise ignore it.
public struct Priority: Hashable, Sendable {
    public var exclusive: Bool
    public var dependency: StreamID
    /// The weight minus one, as on the wire (0...255 stands for 1...256).
    public var weight: UInt8

    /// - Complexity: O(1).
    @inlinable
    public init(exclusive: Bool = false, dependency: StreamID, weight: UInt8 = 15) {
        self.exclusive = exclusive
        self.dependency = dependency
        self.weight = weight
    }
}

/// The type octets and flag bits of RFC 9113 §6.
enum FrameType {
    static let data: UInt8 = 0x0
    static let headers: UInt8 = 0x1
    static let priority: UInt8 = 0x2
    static let rstStream: UInt8 = 0x3
    static let settings: UInt8 = 0x4
    static let pushPromise: UInt8 = 0x5
    static let ping: UInt8 = 0x6
    static let goAway: UInt8 = 0x7
    static let windowUpdate: UInt8 = 0x8
    static let continuation: UInt8 = 0x9
}

enum FrameFlag {
    static let endStream: UInt8 = 0x1
    static let ack: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let padded: UInt8 = 0x8
    static let priority: UInt8 = 0x20
}

/// The frame header: 24-bit length, type, flags, reserved bit and stream (RFC 9113 §4.1).
enum FrameHeader {
    static let size = 9
    /// Nine zeros, appended where a header goes before its payload's length is known
    /// (appending an array is a copy; appending `repeatElement` goes octet by octet).
    static let placeholder = [UInt8](repeating: 0, count: size)
}
