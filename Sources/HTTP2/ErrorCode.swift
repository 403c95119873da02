/// The error codes of RST_STREAM and GOAWAY (RFC 9113 §7). A struct rather than an enum:
/// a peer may send any 32-bit value, and an unknown one "MUST NOT trigger any special
/// behavior" — it is kept as received.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    /// - Complexity: O(1).
    @inlinable
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noError = ErrorCode(rawValue: 0x0)
    public static let protocolError = ErrorCode(rawValue: 0x1)
    public static let internalError = ErrorCode(rawValue: 0x2)
    public static let flowControlError = ErrorCode(rawValue: 0x3)
    public static let settingsTimeout = ErrorCode(rawValue: 0x4)
    public static let streamClosed = ErrorCode(rawValue: 0x5)
    public static let frameSizeError = ErrorCode(rawValue: 0x6)
    public static let refusedStream = ErrorCode(rawValue: 0x7)
    public static let cancel = ErrorCode(rawValue: 0x8)
    public static let compressionError = ErrorCode(rawValue: 0x9)
    public static let connectError = ErrorCode(rawValue: 0xa)
    public static let enhanceYourCalm = ErrorCode(rawValue: 0xb)
    public static let inadequateSecurity = ErrorCode(rawValue: 0xc)
    public static let http11Required = ErrorCode(rawValue: 0xd)

    /// The RFC's name (`PROTOCOL_ERROR`), or the value in hex for a code it does not define.
    public var description: String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                     "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                     "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        if rawValue < names.count { return names[Int(rawValue)] }
        return "0x" + String(rawValue, radix: 16)
    }
}
