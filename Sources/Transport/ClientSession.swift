/// What a client session reports about the requests it carries, by the serial number
/// `OutgoingRequests` gave each.
enum ClientResult {
    case response(Int, HTTPResponse)
    /// `retryable`: the server did not act on it, so it may go again on a new connection.
    case failed(Int, OutgoingFailure, retryable: Bool)
}

/// One outgoing connection's protocol: requests in, octets out, octets in, results out.
/// The `OutgoingConnection` owns the socket; the session never touches it.
protocol ClientSession: AnyObject {
    /// Takes a request now (nil), or says why it cannot be written.
    func send(_ serial: Int, _ request: OutgoingRequest, authority: String) -> OutgoingFailure?
    /// Whether `send` may be called: an HTTP/2 connection not going away, an HTTP/1.1
    /// connection with nothing in flight.
    var acceptsRequests: Bool { get }
    /// Requests sent and not yet answered or failed.
    var requestsInFlight: Int { get }
    /// Reads octets; what they complete or fail.
    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [ClientResult]
    /// The connection ended (closed, reset, never made): every request in flight fails,
    /// with `failure` unless the protocol knows better.
    func connectionEnded(_ failure: OutgoingFailure) -> [ClientResult]
    /// Gives up on a request whose time ran out. True when the connection must close for
    /// it (HTTP/1.1 cannot skip an answer it will not read).
    func cancel(_ serial: Int) -> Bool
    /// Whether the server has shown it speaks (HTTP/2's SETTINGS): a connection whose
    /// requests time out before it does is not answering at all.
    var serverHasSpoken: Bool { get }
    var outboundByteCount: Int { get }
    func takeOutbound(maxBytes: Int) -> [UInt8]
    /// Whether the session is over: once its octets are written, the connection closes.
    var isFinished: Bool { get }
    /// Ends an idle session as its protocol does (HTTP/2: GOAWAY).
    func closeIdle()
    /// The most streams open at once so far (HTTP/2), for the statistics.
    var peakStreams: Int { get }
}
