/// A violation of RFC 9113 or RFC 7541 found in what the peer sent, and its scope: a
/// connection error (`stream == nil`, answered with GOAWAY, RFC 9113 §5.4.1) or a stream
/// error (answered with RST_STREAM on that stream, §5.4.2). Bad input only ever produces
/// one of these, never a trap.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The code sent to the peer.
    public var code: ErrorCode
    /// The stream to reset, or nil when the whole connection ends.
    public var stream: StreamID?
    /// Why, for logs and GOAWAY's debug data; never user text, so it needs no escaping.
    public var reason: String

    /// - Complexity: O(1).
    public init(code: ErrorCode, stream: StreamID?, reason: String) {
        self.code = code
        self.stream = stream
        self.reason = reason
    }

    /// A connection error.
    /// - Complexity: O(1).
    public static func connection(_ code: ErrorCode, _ reason: String) -> ProtocolError {
        ProtocolError(code: code, stream: nil, reason: reason)
    }

    /// A stream error on `stream`.
    /// - Complexity: O(1).
    public static func stream(_ stream: StreamID, _ code: ErrorCode, _ reason: String) -> ProtocolError {
        ProtocolError(code: code, stream: stream, reason: reason)
    }

    /// Whether it ends the connection rather than one stream.
    /// - Complexity: O(1).
    public var isConnectionError: Bool { stream == nil }

    public var description: String {
        (stream.map { "\($0): " } ?? "connection: ") + "\(code): \(reason)"
    }
}
