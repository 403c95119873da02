import Glibc

/// Requests a service sends from inside the server's loop, to other servers: each to an
/// `Endpoint`, with a time limit and a tag, its outcome handed back to the service's
/// `received(_:tag:)` on the loop's thread. A `Server` owns one (`Server.outgoing`).
///
/// Connections to one endpoint are reused: one HTTP/2 connection carries every request
/// (as many at once as the server allows, the rest wait in the connection), HTTP/1.1
/// keeps up to `maxHTTP1ConnectionsPerEndpoint` keep-alive connections with one request
/// at a time each. Connects never block the loop (names the resolver must look up
/// excepted: use literals or `localhost` for a loop that must never wait). A connection
/// that fails fails what it carried; the next request to its endpoint opens a new one, so
/// a server that is down costs one attempt per request, never a loop of reconnects.
///
/// Not thread-safe: call `send` on the loop's thread (from `respond`, `tick` or
/// `received`), or before `run`.
public final class OutgoingRequests {
    public let configuration: OutgoingConfiguration
    /// What the outgoing side did; complete once the server's `run` has returned.
    public internal(set) var statistics = OutgoingStatistics()

    /// A request between `send` and its outcome.
    struct Pending {
        var tag: Int
        var request: OutgoingRequest
        var endpoint: Endpoint
        var deadline: Duration
        var retries = 0
        /// The connection carrying it, once it has one.
        var connection: OutgoingConnection?
    }

    var pending: [Int: Pending] = [:]
    var nextSerial = 1
    var connections: [OutgoingConnection] = []
    /// HTTP/1.1 requests waiting for a free connection to their endpoint, oldest first.
    var waiting: [Endpoint: [Int]] = [:]
    /// Outcomes not yet handed to the service, in the order they came.
    var outcomes: [(tag: Int, outcome: OutgoingOutcome)] = []
    /// The loop's time, read once a turn.
    var now = Duration.zero

    init(configuration: OutgoingConfiguration) {
        self.configuration = configuration
    }

    /// Sends `request` to `endpoint`. Its outcome — the whole response, whatever its
    /// status, or an `OutgoingFailure` — comes back once, to the service's
    /// `received(_:tag:)` with `tag`, never from inside this call.
    /// - Parameter timeout: the time it may take from now; then it fails with `.timedOut`
    ///   (an HTTP/2 stream is reset with CANCEL, an HTTP/1.1 connection closed).
    /// - Complexity: O(c), c the outgoing connections, plus the octets of the request.
    public func send(_ request: OutgoingRequest, to endpoint: Endpoint, timeout: Duration, tag: Int) {
        let serial = nextSerial
        nextSerial += 1
        statistics.requests += 1
        pending[serial] = Pending(tag: tag, request: request, endpoint: endpoint, deadline: now + timeout)
        dispatch(serial)
    }

    /// Requests sent whose outcome the service has not yet been handed.
    /// - Complexity: O(1).
    public var inFlightCount: Int { pending.count + outcomes.count }

    /// Puts a request on a connection to its endpoint: the one HTTP/2 connection (a new
    /// one if there is none that takes requests), or a free HTTP/1.1 one (a new one below
    /// the limit, else it waits).
    func dispatch(_ serial: Int) {
        guard let entry = pending[serial] else { return }
        let endpoint = entry.endpoint
        let reusable = connections.first { $0.endpoint == endpoint && $0.acceptsRequests }
        let connection: OutgoingConnection
        if let reusable {
            connection = reusable
        } else if endpoint.protocol == .http1
                    && connections.count(where: { $0.endpoint == endpoint && !$0.isClosed }) >= configuration.maxHTTP1ConnectionsPerEndpoint {
            waiting[endpoint, default: []].append(serial)
            return
        } else {
            switch connect(to: endpoint) {
            case .success(let made): connection = made
            case .failure(let failure): return finish(serial, .failure(failure))
            }
        }
        pending[serial]?.connection = connection
        if let failure = connection.send(serial, entry.request, now: now) {
            pending[serial]?.connection = nil
            return finish(serial, .failure(failure))
        }
        statistics.peakStreams = max(statistics.peakStreams, connection.session.peakStreams)
        absorb(connection.flush(now: now))
    }

    private func connect(to endpoint: Endpoint) -> Result<OutgoingConnection, OutgoingFailure> {
        let address: ListenAddress
        do {
            address = try ListenAddress(host: endpoint.host, port: endpoint.port)
        } catch {
            if case .cannotListen(_, let reason) = error { return .failure(.cannotConnect(reason)) }
            return .failure(.cannotConnect(error.description))
        }
        let session: ClientSession = switch endpoint.protocol {
        case .http2PriorKnowledge: HTTP2ClientSession(configuration: configuration.http2)
        case .http1: HTTP1ClientSession(limits: configuration.http1)
        }
        statistics.connectionsOpened += 1
        let connection = OutgoingConnection(endpoint: endpoint, address: address, session: session, now: now)
        if let failure = connection.startFailure { return .failure(failure) }
        connections.append(connection)
        return .success(connection)
    }

    /// Takes what a connection reported: responses and failures become outcomes, a
    /// request the server did not process goes again while its retries and time allow.
    func absorb(_ results: [ClientResult]) {
        for result in results {
            switch result {
            case .response(let serial, let response):
                finish(serial, .response(response))
            case .failed(let serial, let failure, let retryable):
                guard var entry = pending[serial] else { continue }
                if retryable && entry.retries < configuration.maxRetries && now < entry.deadline {
                    entry.retries += 1
                    entry.connection = nil
                    pending[serial] = entry
                    statistics.retries += 1
                    dispatch(serial)
                } else {
                    finish(serial, .failure(failure))
                }
            }
        }
    }

    /// Records a request's outcome for the service and lets a waiting HTTP/1.1 request
    /// have the connection it leaves.
    func finish(_ serial: Int, _ outcome: OutgoingOutcome) {
        guard let entry = pending.removeValue(forKey: serial) else { return }
        switch outcome {
        case .response: statistics.responses += 1
        case .failure: statistics.failures += 1
        }
        outcomes.append((entry.tag, outcome))
        if let next = waiting[entry.endpoint]?.first {
            waiting[entry.endpoint]?.removeFirst()
            if waiting[entry.endpoint]?.isEmpty == true { waiting[entry.endpoint] = nil }
            dispatch(next)
        }
    }

    // MARK: The loop's side

    /// The nearest time the loop must wake for: a request's deadline, an idle connection's
    /// end; zero while outcomes wait for the service.
    var nextDeadline: Duration? {
        if !outcomes.isEmpty { return now }
        var nearest = pending.values.map(\.deadline).min()
        for connection in connections where connection.session.requestsInFlight == 0 {
            let idleEnd = connection.lastActivity + configuration.idleTimeout
            nearest = nearest.map { min($0, idleEnd) } ?? idleEnd
        }
        return nearest
    }

    /// Serves what poll(2) reported for the outgoing connections, in `pollSet` from `offset` on.
    func handle(_ pollSet: [pollfd], from offset: Int, buffer: UnsafeMutableRawBufferPointer) {
        for (index, connection) in connections.enumerated() where offset + index < pollSet.count {
            let revents = pollSet[offset + index].revents
            guard revents != 0 else { continue }
            absorb(connection.handle(revents, now: now, buffer: buffer))
            statistics.peakStreams = max(statistics.peakStreams, connection.session.peakStreams)
        }
    }

    /// Fails the requests whose time ran out, closes idle connections, forgets closed ones.
    func checkDeadlines() {
        for serial in pending.keys.sorted() {
            guard let entry = pending[serial], now >= entry.deadline else { continue }
            // The connection first: a waiting request may then have the one this frees.
            if let connection = entry.connection {
                absorb(connection.cancel(serial, now: now))
            } else {
                waiting[entry.endpoint]?.removeAll { $0 == serial }
            }
            finish(serial, .failure(.timedOut))
        }
        for connection in connections where !connection.isClosed && connection.session.requestsInFlight == 0
            && now >= connection.lastActivity + configuration.idleTimeout {
            absorb(connection.closeIdle(now: now))
        }
        sweepClosed()
    }

    /// Forgets closed connections; what they carried was failed when they closed.
    func sweepClosed() {
        guard connections.contains(where: \.isClosed) else { return }
        for connection in connections where connection.isClosed {
            absorb(connection.close(failing: .connectionLost))
        }
        connections.removeAll(where: \.isClosed)
    }

    /// Hands the outcomes gathered so far to the service, in order. Those that arise
    /// meanwhile (a request the service sends from `received` that fails at once) wait
    /// for the next turn, so a service that resends on every failure cannot spin here.
    func deliver(to service: Service) {
        guard !outcomes.isEmpty else { return }
        let ready = outcomes
        outcomes.removeAll()
        for (tag, outcome) in ready { service.received(outcome, tag: tag) }
    }

    /// The server stops: every request still in flight fails with `.stopped`, every
    /// connection closes.
    func stop() {
        for connection in connections { _ = connection.close(failing: .stopped) }
        connections.removeAll()
        waiting.removeAll()
        for serial in pending.keys.sorted() { finish(serial, .failure(.stopped)) }
    }
}
