import HTTP2

/// What an outgoing request is sent over.
public enum OutgoingProtocol: Hashable, Sendable {
    /// HTTP/2 over cleartext with prior knowledge (h2c, RFC 9113 §3.3): one connection per
    /// endpoint carries every request, as many at once as the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS allows. What `pushsim serve`'s APNs port speaks.
    case http2PriorKnowledge
    /// HTTP/1.1: a few keep-alive connections per endpoint, one request at a time on each.
    case http1
}

/// Where an outgoing request goes: a host (an IPv4 or IPv6 literal, brackets allowed,
/// `localhost`, or a name the resolver knows), a port, and the protocol to speak there.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var `protocol`: OutgoingProtocol

    /// - Complexity: O(1).
    public init(host: String, port: Int, protocol speaks: OutgoingProtocol) {
        self.host = host
        self.port = port
        self.protocol = speaks
    }

    /// `host:port`, IPv6 in brackets: the default authority of its requests.
    public var description: String {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return bare.contains(":") ? "[\(bare)]:\(port)" : "\(bare):\(port)"
    }
}

/// A request to send: the method, the path (with any query), the authority (nil: the
/// endpoint's `host:port`), the fields (lowercase names; the transport adds
/// `content-length`, and `host` over HTTP/1.1) and the whole body.
public struct OutgoingRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var authority: String?
    public var headers: [Header]
    public var body: [UInt8]

    /// - Complexity: O(1).
    public init(method: String, path: String, authority: String? = nil, headers: [Header] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.authority = authority
        self.headers = headers
        self.body = body
    }
}

/// Why an outgoing request got no response.
public enum OutgoingFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens at the endpoint (ECONNREFUSED).
    case connectionRefused
    /// The connection could not be made for another reason (a name not resolved, a
    /// network unreachable): the system's words.
    case cannotConnect(String)
    /// The time given to `send` passed before the response was whole.
    case timedOut
    /// The server closed or reset the connection before the response was whole.
    case connectionLost
    /// The server broke HTTP/1.1 or HTTP/2: a malformed response, a connection error.
    case protocolError(String)
    /// HTTP/2: the server reset the stream with this code (REFUSED_STREAM and an
    /// unprocessed stream of a GOAWAY only once retried on a new connection).
    case reset(ErrorCode)
    /// The response body passed the configured limit.
    case responseTooLarge
    /// The request cannot be written in the endpoint's protocol (a field with CR LF, an
    /// uppercase name over HTTP/2, …): nothing was sent.
    case invalidRequest(String)
    /// The server stopped before the response came.
    case stopped

    public var description: String {
        switch self {
        case .connectionRefused: "connection refused"
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "timed out"
        case .connectionLost: "the connection was lost before the response was whole"
        case .protocolError(let reason): "protocol error: \(reason)"
        case .reset(let code): "the server reset the stream (\(code))"
        case .responseTooLarge: "the response was too large"
        case .invalidRequest(let reason): "the request cannot be sent: \(reason)"
        case .stopped: "the server stopped first"
        }
    }
}

/// What became of an outgoing request: its whole response (any status), or why there is none.
public enum OutgoingOutcome: Sendable, Equatable {
    case response(HTTPResponse)
    case failure(OutgoingFailure)
}

/// What the outgoing side did over the server's life: read it once `run` has returned.
public struct OutgoingStatistics: Hashable, Sendable {
    /// Connections begun (each `connect(2)`), whether they succeeded or not.
    public var connectionsOpened = 0
    /// Requests handed to `send`.
    public var requests = 0
    /// Requests answered with a response, whatever its status.
    public var responses = 0
    /// Requests that failed, whatever the reason.
    public var failures = 0
    /// Requests sent again on a new connection, the server having said it did not process them.
    public var retries = 0
    /// The most HTTP/2 streams open at once on one connection.
    public var peakStreams = 0

    /// All zero.
    /// - Complexity: O(1).
    public init() {}
}
