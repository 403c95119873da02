/// What a server did over its life: read it once `run` has returned (the loop's thread
/// writes it while it runs).
public struct TransportStatistics: Hashable, Sendable {
    /// Connections accepted and served.
    public var connectionsAccepted = 0
    /// Connections accepted and closed at once because their listener was full and every
    /// connection on it was already closing.
    public var connectionsRefused = 0
    /// Connections closed to make room for a new one on a full listener.
    public var connectionsEvicted = 0
    /// Requests refused because the memory budget was spent (HTTP/2 REFUSED_STREAM, HTTP/1.1 503).
    public var requestsRefusedForMemory = 0
    /// The most octets requests not yet whole held at once, all connections.
    public var peakRequestMemory = 0
    /// Requests handed to the service, both protocols.
    public var requests = 0
    /// Connections closed because nothing moved on them for the idle timeout.
    public var connectionsClosedIdle = 0
    /// Connections ended for the client's protocol error: an HTTP/2 connection error
    /// (GOAWAY with an error code), a request HTTP/1.1 could not read (400, 413, …).
    public var protocolErrors = 0
    /// The most connections open at once.
    public var peakConnections = 0

    /// All zero.
    /// - Complexity: O(1).
    public init() {}
}
