import HTTP1
import HTTP2

/// What a `Server` allows each client and itself. The defaults suit `pushsim serve`: many
/// small requests from few clients that keep their connections for hours.
public struct TransportConfiguration: Hashable, Sendable {
    /// Connections open at once on each listener (`Server.bind` may give a listener its
    /// own), so a crowd on one port never locks clients out of another. When a listener is
    /// full, a new connection closes the one that waited longest: first one that never
    /// brought a whole request (oldest activity first), then the least recently active.
    /// "Activity" is a whole frame or request, or octets written, not a byte now and then.
    public var maxConnections = 1_024
    /// Pipelined HTTP/1.1 requests one connection gets answered in one turn of the loop;
    /// the rest wait for the next turns, after every other ready connection was served.
    public var maxRequestsPerTurn = 8
    /// A connection with no activity (no whole frame or request read, nothing written)
    /// for this long is closed: HTTP/2
    /// with GOAWAY (NO_ERROR), HTTP/1.1 without a word (RFC 9112 §9.8 allows it); one that
    /// still has streams open gets the GOAWAY and is closed after a second such wait.
    public var idleTimeout: Duration = .seconds(300)
    /// A request body larger than this is answered 413 by the transport, before the
    /// service sees it: at once when `content-length` says so, else when it grows past it.
    public var maxRequestBodyBytes = 1 << 20
    /// What requests not yet whole may hold in memory, per connection and in all (HTTP/2
    /// header lists after HPACK, bodies on their way; HTTP/1.1 requests being read).
    public var requestMemory = RequestMemoryBudget()
    /// Octets a connection may have queued for writing before the loop stops reading from
    /// it, so a client that sends without reading fills its own socket, not our memory.
    public var maxQueuedWriteBytes = 1 << 20
    /// What HTTP/2 connections announce and enforce.
    public var http2 = ServerConfiguration()
    /// What HTTP/1.1 requests may hold. Its `maxBodySize` is replaced by `maxRequestBodyBytes`,
    /// which holds for both protocols.
    public var http1 = RequestLimits()
    /// The longest one wait in poll(2) lasts, so a change of `Service.shouldStop` is seen
    /// within it even when no socket is ready and the service's `tick` asks for no sooner turn.
    public var maxPollWait: Duration = .milliseconds(100)
    /// Once `shouldStop` turns true: how long connections get to finish what is in flight
    /// and write it before everything is closed.
    public var shutdownGracePeriod: Duration = .seconds(1)
    /// A closing connection's last answer: how long it may take to be written, then how
    /// long the client's remaining octets are read and dropped after our side is shut, so
    /// that closing does not reset the connection before the client has read the answer.
    public var lingerTimeout: Duration = .seconds(2)
    /// What requests the service sends to other servers (`Server.outgoing`) announce and allow.
    public var outgoing = OutgoingConfiguration()
    /// The listen(2) backlog: connections the kernel completes before the loop accepts them.
    public var listenBacklog = 511
    /// The TLS of listeners that speak `.http2OverTLS`: nil, none can be bound.
    public var tls: TLSSettings?

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}
}
