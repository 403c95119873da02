import Glibc

/// An HTTP server on one thread: listeners and connections on one poll(2) loop, each
/// connection driving HTTP2's `ServerConnection` or HTTP1's `RequestParser`, every whole
/// request handed to a `Service` and its answer written back; and the requests the
/// service sends to other servers (`outgoing`), on the same loop. With no listener it is a
/// client loop (a provider that only sends), with some it is both.
///
/// Use: `init`, `bind` each listener, then `run` on the thread that owns the service;
/// `run` returns once the service's `shouldStop` turned true and the connections were
/// given `shutdownGracePeriod` to finish. The server is not thread-safe: `bind` and
/// `run` on one thread at a time (a test may bind on one thread and run on another),
/// `statistics` read after `run` returned.
public final class Server {
    public let configuration: TransportConfiguration
    /// What the server did; complete once `run` has returned.
    public internal(set) var statistics = TransportStatistics()
    /// Requests the service sends to other servers from inside the loop; their outcomes
    /// come back to `Service.received(_:tag:)`.
    public let outgoing: OutgoingRequests
    /// Answers the service gives to requests it answered `HTTPResponse.later`.
    public let laterAnswers = LaterAnswers()
    /// GOAWAYs and closes the service asks for (`ConnectionOrders`).
    public let connectionOrders = ConnectionOrders()

    var listeners: [Listener] = []
    var connections: [Connection] = []
    /// Connections open, by listener index.
    var openByListener: [Int] = []
    /// What requests not yet whole hold, all connections together.
    let requestMemory: RequestMemory
    var nextConnectionNumber = 1
    /// Every read lands here first: one buffer for all connections, reused on every read.
    let readBuffer: UnsafeMutableRawBufferPointer
    static let readBufferSize = 1 << 16

    /// A server with no listener yet.
    /// - Complexity: O(1).
    public init(configuration: TransportConfiguration = TransportConfiguration()) {
        self.configuration = configuration
        outgoing = OutgoingRequests(configuration: configuration.outgoing)
        requestMemory = RequestMemory(budget: configuration.requestMemory)
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        for listener in listeners { Socket.close(listener.descriptor) }
        for connection in connections { connection.close() }
        outgoing.stop()
        readBuffer.deallocate()
    }

    /// Opens a listener on `host` (an IPv4 or IPv6 literal, brackets allowed, `localhost`
    /// for 127.0.0.1, or a name) and `port` (0: a free one), speaking `protocol`, keeping
    /// at most `maxConnections` open (nil: the configuration's).
    /// - Returns: the listener's index (what `HTTPRequest.listener` will say) and the
    ///   port it is bound to.
    /// - Throws: `TransportError`, whose description is one line naming the address and
    ///   the system's reason (`cannot listen on 127.0.0.1:2197: Address already in use`).
    /// - Complexity: that of the resolver for a name; O(1) for a literal.
    public func bind(host: String, port: Int, protocol speaks: ListenerProtocol,
                     maxConnections: Int? = nil) throws(TransportError) -> (listener: Int, port: Int) {
        let address = try ListenAddress(host: host, port: port)
        if speaks == .http2OverTLS && configuration.tls == nil {
            throw .cannotListen(address: address.display, reason: "TLS needs a certificate and its key (TransportConfiguration.tls)")
        }
        let listener = try Listener(address: address, index: listeners.count, speaks: speaks, backlog: configuration.listenBacklog,
                                    maxConnections: maxConnections ?? configuration.maxConnections)
        listeners.append(listener)
        openByListener.append(0)
        return (listener.index, listener.port)
    }
}
