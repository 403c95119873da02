/// A request sent on a `ClientConnection`: the handle its response or failure comes
/// back with, given before the request has a stream (it may wait for one).
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// - Complexity: O(1).
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// - Complexity: O(1).
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "request \(rawValue)" }
}

/// Why a request got no response.
public enum RequestFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server did not process it and said so: REFUSED_STREAM, or a GOAWAY whose last
    /// stream is below it (or that came before it had a stream). Safe to send again, on
    /// another connection (RFC 9113 §8.7).
    case notProcessed(ErrorCode)
    /// The server reset the stream (RST_STREAM with this code): it may have acted on it.
    case reset(ErrorCode)
    /// The server broke the protocol on this stream (a malformed response: no `:status`, a
    /// `content-length` its DATA contradict, trailers without END_STREAM; DATA beyond the
    /// stream's window, …): we reset the stream with this code.
    case streamError(ErrorCode, String)
    /// The response body passed `maxResponseBodyBytes`: we reset the stream with CANCEL.
    case responseTooLarge(limit: Int)
    /// The connection ended with this error before the response was whole: the server's
    /// protocol error (we sent GOAWAY), or the server's GOAWAY with an error code.
    case connectionError(ErrorCode, String)
    /// The transport lost the connection (closed or reset) before the response was whole.
    case connectionLost

    /// Whether sending the request again cannot make the server act on it twice.
    /// - Complexity: O(1).
    public var isRetryable: Bool {
        if case .notProcessed = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .notProcessed(let code): "not processed by the server (\(code)): safe to retry"
        case .reset(let code): "reset by the server (\(code))"
        case .streamError(let code, let reason): "reset by us (\(code)): \(reason)"
        case .responseTooLarge(let limit): "a response body larger than \(limit) octets"
        case .connectionError(let code, let reason): "the connection ended (\(code)): \(reason)"
        case .connectionLost: "the connection was lost before the response was whole"
        }
    }
}

/// What the server did, as `ClientConnection.receive` reports it, in order.
public enum ClientEvent: Hashable, Sendable {
    /// A whole response: status, fields, body and trailers.
    case response(RequestID, ClientResponse)
    /// A request that will get no response, and why.
    case failed(RequestID, RequestFailure)
    /// The server is going away: no new stream will be opened on this connection; the
    /// requests above `lastStream` (and those still waiting for a stream) have failed
    /// as `.notProcessed`, the others go on.
    case goAway(lastStream: StreamID, code: ErrorCode, debug: [UInt8])
    /// The server pinged; the acknowledgement is sent.
    case ping(UInt64)
    /// The server acknowledged a PING we sent.
    case pingAcknowledged(UInt64)
    /// We ended the connection for the server's error: GOAWAY is queued, every request
    /// in flight has failed. Send what `takeOutbound` returns, then close the socket.
    case connectionError(ProtocolError)
}

/// Why a request could not be sent at all.
public enum ClientSendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The connection takes no new requests: GOAWAY went either way, an error ended it,
    /// or its stream identifiers are used up. Send on a new connection.
    case connectionClosing
    /// A field or pseudo-header HTTP/2 cannot carry.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .connectionClosing: "the connection takes no new requests"
        case .invalidRequest(let reason): "the request cannot be sent over HTTP/2: \(reason)"
        }
    }
}
