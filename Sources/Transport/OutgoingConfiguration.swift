import HTTP1
import HTTP2

/// What a server's outgoing requests announce, allow and bound.
public struct OutgoingConfiguration: Hashable, Sendable {
    /// What outgoing HTTP/2 connections announce and enforce (the response body limit,
    /// the limits against a hostile server).
    public var http2 = ClientConfiguration()
    /// What an HTTP/1.1 response may hold.
    public var http1 = ResponseLimits()
    /// HTTP/1.1 connections kept per endpoint: one request at a time on each, the rest
    /// wait in order.
    public var maxHTTP1ConnectionsPerEndpoint = 4
    /// An outgoing connection with nothing in flight for this long is closed (HTTP/2 with
    /// GOAWAY): the next request opens another.
    public var idleTimeout: Duration = .seconds(60)
    /// Times a request the server did not process (REFUSED_STREAM, above a GOAWAY's last
    /// stream, an HTTP/1.1 keep-alive connection closed before an idempotent request's
    /// answer began) is sent again on a new connection, within its time.
    public var maxRetries = 1

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}
}
