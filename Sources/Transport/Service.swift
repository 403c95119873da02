import HTTP2

/// One whole request, as either protocol delivers it: the head and the complete body.
public struct HTTPRequest: Sendable, Equatable {
    /// The protocol a request came over.
    public enum Version: Sendable, Equatable {
        case http1_1
        case http2
    }

    public var method: String
    /// The request target as sent (`/3/device/…`, with any query).
    public var path: String
    /// `:authority` (HTTP/2) or `Host` (HTTP/1.1).
    public var authority: String?
    /// The fields other than pseudo-header fields, names lowercase, in the order received,
    /// as text: made from `fields` each time it is read. `value(_:)` and `forEachField`
    /// read the octets and make no text they are not asked for.
    public var headers: [Header] {
        get { fields.indices.map { Header(fields.name(at: $0), fields.value(at: $0)) } }
        set { fields = Self.fields(newValue) }
    }
    /// The same fields as octets: over HTTP/2, the decoded header block itself.
    var fields: HeaderList
    public var body: [UInt8]
    public var version: Version
    /// The listener it came in on: the index `Server.bind` returned it for (0, 1, …).
    public var listener: Int
    /// The connection it came on: a number no other connection of the server's life has,
    /// so a service can keep state per connection (APNs checks provider tokens per connection).
    public var connection: Int
    /// The HTTP/2 stream it came on (HTTP/1.1: 0, as one request at a time is answered).
    public var stream: Int
    /// The client certificate chain the connection's TLS handshake verified (DER, the
    /// client's own first): who the peer is, for certificate authentication as APNs does it.
    /// Empty over cleartext, and over TLS without client authentication.
    public var clientCertificateChain: [[UInt8]] = []

    /// - Complexity: O(n), n the octets of the fields.
    public init(method: String, path: String, authority: String? = nil, headers: [Header] = [], body: [UInt8] = [],
                version: Version = .http2, listener: Int = 0, connection: Int = 0, stream: Int = 0) {
        self.init(method: method, path: path, authority: authority, fields: Self.fields(headers), body: body, version: version,
                  listener: listener, connection: connection, stream: stream)
    }

    /// A request whose fields are octets already (an HTTP/2 request head's).
    /// - Complexity: O(1).
    init(method: String, path: String, authority: String?, fields: HeaderList, body: [UInt8], version: Version,
         listener: Int, connection: Int, stream: Int) {
        self.method = method
        self.path = path
        self.authority = authority
        self.fields = fields
        self.body = body
        self.version = version
        self.listener = listener
        self.connection = connection
        self.stream = stream
    }

    /// Where an answer given later goes (`HTTPResponse.later`, `LaterAnswers.answer(_:with:)`).
    /// - Complexity: O(1).
    public var laterAnswer: LaterAnswer { LaterAnswer(connection: connection, stream: stream) }

    private static func fields(_ headers: [Header]) -> HeaderList {
        var fields = HeaderList()
        for header in headers { fields.append(name: header.name, value: header.value) }
        return fields
    }

    /// The first field named `name` (lowercase), as text.
    /// - Complexity: O(n), n the octets of the names.
    public func value(_ name: String) -> String? { fields.value(name) }

    /// Calls `body` with each field's name (lowercase) and value as octets, in the order
    /// received, without making text of them: a service reads the fields it knows by
    /// their octets and makes strings only of the values it keeps.
    /// - Complexity: O(f) calls, f the fields.
    public func forEachField(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        fields.forEachField(body)
    }
}

/// A header field as text: a lowercase name and its value.
public struct Header: Sendable, Equatable {
    public var name: String
    public var value: String

    /// - Complexity: O(1).
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What the service answers; the transport frames it for the request's protocol.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Names lowercase; no pseudo-header fields and no connection-specific fields (the
    /// transport adds `content-length`, and over HTTP/1.1 `connection` when it closes).
    public var headers: [Header]
    public var body: [UInt8]

    /// - Complexity: O(1).
    public init(status: Int, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Not an answer: the service answers this request later, through the server's
    /// `laterAnswers` with the request's `laterAnswer`. Meanwhile an HTTP/2 connection goes
    /// on with its other streams; an HTTP/1.1 one reads nothing more (answers keep order).
    public static let later = HTTPResponse(status: 0)

    /// Whether this is `later`.
    public var isLater: Bool { status == 0 }
}

/// What a server serves: called on the loop's one thread, so it owns its state without locks.
public protocol Service: AnyObject {
    /// Answers one whole request, or `HTTPResponse.later` to answer it through
    /// `Server.laterAnswers`. Called in the order requests complete, one at a time.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// Called on every turn of the loop, after the ready sockets were served, with the
    /// monotonic time since the server started. Answers the longest the loop may sleep
    /// before the next turn (nil: until a socket is ready or the loop's own cap).
    func tick(elapsed: Duration) -> Duration?
    /// A connection closed (whatever the reason): the service forgets what it kept for it.
    func connectionClosed(_ connection: Int)
    /// Checked on every turn: true makes the loop stop accepting, send GOAWAY (HTTP/2) or
    /// close idle connections (HTTP/1.1), flush what is queued for a bounded time and return.
    var shouldStop: Bool { get }
    /// The outcome of a request the service sent with `Server.outgoing.send(_:to:timeout:tag:)`:
    /// its whole response or why there is none, once per request, on the loop's thread.
    func received(_ outcome: OutgoingOutcome, tag: Int)
}

extension Service {
    /// A service that sends no requests needs no answers.
    public func received(_ outcome: OutgoingOutcome, tag: Int) {}
}
