import Glibc
import HTTP1
import HTTP2

/// One accepted client: its socket, its session (chosen by the first octets on a listener
/// that speaks both; TLS with HTTP/2 inside on a TLS listener), what is left to write, and where it stands in its life:
/// open → flushing its last octets → lingering (our side shut, the client's octets read and
/// dropped until it closes) → closed. Every step is bounded in time.
final class Connection {
    enum Phase: Equatable {
        case open
        /// The session is over: its last octets are being written, until `deadline`.
        case flushing(deadline: Duration)
        /// Our side is shut (FIN sent); the client's octets are read and dropped so that
        /// closing does not reset the connection before it read our last answer.
        case lingering(deadline: Duration)
        case closed
    }

    let descriptor: Int32
    /// The number `HTTPRequest.connection` and `Service.connectionClosed` use.
    let number: Int
    let listener: Int
    /// What the listener speaks: how the first octets choose the session.
    private let speaks: ListenerProtocol
    private let configuration: TransportConfiguration
    /// Nil while the first octets have not told HTTP/2 from HTTP/1.1.
    private(set) var session: Session?
    private var sniffed: [UInt8] = []
    /// Octets taken from the session and not yet accepted by the socket.
    private var unsent = PendingWrite()
    private(set) var phase = Phase.open
    /// The last time the client completed something (an HTTP/2 frame, an HTTP/1.1 request
    /// or the head asking for 100-continue) or an octet was written: a byte now and then is not activity.
    private(set) var lastActivity: Duration
    /// The session's `progress` when last looked at.
    private var progressSeen = 0
    private let memory: RequestMemory
    /// The idle timeout passed once and the session was asked to close.
    private var idleNoticeGiven = false
    private var clientClosed = false
    /// The connection ends before its first octets chose a session (idle, or the server stops).
    private var endedUndecided = false
    private(set) var closedIdle = false

    /// The most a write takes from the session at once.
    static let writeChunk = 1 << 18

    init(descriptor: Int32, number: Int, listener: Listener, configuration: TransportConfiguration, memory: RequestMemory,
         now: Duration) {
        self.memory = memory
        self.descriptor = descriptor
        self.number = number
        self.listener = listener.index
        self.configuration = configuration
        speaks = listener.speaks
        lastActivity = now
        switch listener.speaks {
        case .http2OverTLS: session = makeTLSSession()
        // The client's first octets choose the session.
        case .http2PriorKnowledge, .http1OrHTTP2: break
        }
    }

    /// TLS with HTTP/2 inside; `bind` refused the listener without `configuration.tls`.
    private func makeTLSSession() -> TLSSession? {
        configuration.tls.map { TLSSession(configuration: $0.server, inner: makeHTTP2Session(),
                                           maxQueuedWriteBytes: configuration.maxQueuedWriteBytes) }
    }

    private func makeHTTP2Session() -> HTTP2Session {
        HTTP2Session(configuration: configuration.http2, maxRequestBodyBytes: configuration.maxRequestBodyBytes,
                     maxQueuedWriteBytes: configuration.maxQueuedWriteBytes, memory: memory, listener: listener, connection: number)
    }

    private func makeHTTP1Session() -> HTTP1Session {
        var limits = configuration.http1
        limits.maxBodySize = configuration.maxRequestBodyBytes
        return HTTP1Session(limits: limits, maxQueuedWriteBytes: configuration.maxQueuedWriteBytes,
                            requestsPerTurn: configuration.maxRequestsPerTurn, memory: memory, listener: listener, connection: number)
    }

    var isClosed: Bool { phase == .closed }

    private var pendingWriteBytes: Int { unsent.count + (session?.outboundByteCount ?? 0) }

    private var wantsInput: Bool {
        !clientClosed && (session?.wantsInput ?? true) && pendingWriteBytes < configuration.maxQueuedWriteBytes
    }

    /// What poll(2) should watch for.
    var pollEvents: Int16 {
        switch phase {
        case .open, .flushing:
            var events: Int32 = 0
            if phase == .open && wantsInput { events |= POLLIN }
            if pendingWriteBytes > 0 { events |= POLLOUT }
            return Int16(events)
        case .lingering:
            return Int16(POLLIN)
        case .closed:
            return 0
        }
    }

    /// When the connection needs a turn even if its socket stays quiet.
    var deadline: Duration? {
        switch phase {
        case .open: session?.awaitsLaterAnswer == true ? nil : lastActivity + configuration.idleTimeout
        case .flushing(let deadline), .lingering(let deadline): deadline
        case .closed: nil
        }
    }

    /// A new connection says nothing before the client's first octets chose its session
    /// (HTTP/2's SETTINGS wait for the preface: RFC 9113 §3.4 only asks they come first).
    func start(now: Duration, service: Service) {
        flush(now: now, service: service)
    }

    /// Serves what poll(2) reported for this socket.
    func handle(_ revents: Int16, now: Duration, buffer: UnsafeMutableRawBufferPointer, service: Service) {
        let events = Int32(revents)
        if events & (POLLERR | POLLNVAL) != 0 { return close() }
        switch phase {
        case .closed:
            return
        case .lingering:
            return drainLingering(buffer)
        case .open where events & (POLLIN | POLLHUP) != 0 && wantsInput:
            read(now: now, buffer: buffer, service: service)
        case .open, .flushing:
            // A hang-up while we do not read (backpressure) is seen here: nobody will read our answers.
            if events & POLLHUP != 0 && events & POLLOUT == 0 { return close() }
        }
        guard phase != .closed else { return }
        flush(now: now, service: service)
    }

    private func read(now: Duration, buffer: UnsafeMutableRawBufferPointer, service: Service) {
        switch Socket.read(descriptor, into: buffer) {
        case .read(let count):
            receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), now: now, service: service)
            noteProgress(now: now)
        case .endOfStream:
            clientClosed = true
            if let session { session.inputEnded(now: now, service: service) } else { close() }
        case .wouldBlock:
            break
        case .failed:
            close() // reset by the client: nothing we write would arrive
        }
    }

    /// Whether the session completed something since last looked at: then the client is active.
    private func noteProgress(now: Duration) {
        guard let session, session.progress != progressSeen else { return }
        progressSeen = session.progress
        lastActivity = now
        idleNoticeGiven = false
    }

    /// Whether a request was ever handed to the service: when the listener is full, a
    /// connection that never brought one is closed before one that did.
    var hasServed: Bool { (session?.requestsServed ?? 0) > 0 }

    /// Whether the connection is already on its way out (its last octets, or lingering).
    var isClosing: Bool { phase != .open }

    /// Whole requests wait that the last turn's share did not answer.
    var hasDeferredWork: Bool { phase == .open && session?.hasDeferredWork == true }

    /// Answers the next share of requests the last turn left (pipelined HTTP/1.1).
    func serveDeferred(now: Duration, service: Service) {
        guard hasDeferredWork, let session else { return }
        session.resume(now: now, service: service)
        flush(now: now, service: service)
    }

    /// Closes the connection to make room for a new one on a full listener: HTTP/2 gets
    /// GOAWAY (NO_ERROR) first, written if the socket takes it.
    func evict(now: Duration, service: Service) {
        if phase == .open, let session {
            session.closeIdle()
            _ = unsent.drain(into: descriptor, wrote: {}, refill: { session.takeOutbound(maxBytes: Self.writeChunk) })
        }
        close()
    }

    private func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {
        if let session { return session.receive(bytes, now: now, service: service) }
        sniffed.append(contentsOf: bytes)
        let chosen: Session
        switch (speaks, speaks == .http1OrHTTP2 ? ProtocolSniffer.verdict(sniffed) : ProtocolSniffer.priorKnowledgeVerdict(sniffed)) {
        case (_, .undecided): return
        case (_, .http2): chosen = makeHTTP2Session()
        case (.http1OrHTTP2, .http1): chosen = makeHTTP1Session()
        case (.http2PriorKnowledge, .http1): chosen = HTTP1RefusalSession(method: Self.method(sniffed))
        // Never: a TLS listener's session is made with its connection.
        case (.http2OverTLS, .http1): return close()
        }
        session = chosen
        sniffed.withUnsafeBytes { chosen.receive($0, now: now, service: service) }
        sniffed = []
    }

    /// The method of the request line the first octets begin.
    private static func method(_ octets: [UInt8]) -> String {
        if case .method(let method) = RequestStart.of(octets) { return method }
        return ""
    }

    /// Writes what the socket takes, lets a paused session go on when that made room,
    /// and moves the connection on when its session is over.
    private func flush(now: Duration, service: Service) {
        writing: while phase != .closed {
            let drained = unsent.drain(into: descriptor, wrote: { lastActivity = now },
                                       refill: { session?.takeOutbound(maxBytes: Self.writeChunk) ?? [] })
            switch drained {
            case .blocked:
                return
            case .failed:
                return close()
            case .empty:
                // All written: answers paused at the write limit may go on. They end:
                // the session answers only what it has already read.
                guard let session, phase == .open else { break writing }
                session.resume(now: now, service: service)
                if session.outboundByteCount == 0 { break writing }
            }
        }
        advance(now: now)
    }

    /// open → flushing once the session is over (or the client left before one began);
    /// flushing → lingering once nothing is left to write.
    private func advance(now: Duration) {
        if phase == .open && (session?.isFinished ?? (clientClosed || endedUndecided)) {
            phase = .flushing(deadline: now + configuration.lingerTimeout)
        }
        guard case .flushing = phase, pendingWriteBytes == 0 else { return }
        if clientClosed { return close() }
        Socket.shutdownWriting(descriptor)
        phase = .lingering(deadline: now + configuration.lingerTimeout)
    }

    /// Reads and drops what the client still sends after our FIN, until it closes.
    private func drainLingering(_ buffer: UnsafeMutableRawBufferPointer) {
        for _ in 0..<16 {
            switch Socket.read(descriptor, into: buffer) {
            case .read: continue
            case .wouldBlock: return
            case .endOfStream, .failed: return close()
            }
        }
    }

    /// Times out what is due: an idle connection is asked to close, then closed; a close
    /// that takes too long is cut.
    func checkDeadline(now: Duration, service: Service) {
        guard let deadline, now >= deadline else { return }
        switch phase {
        case .open:
            guard !idleNoticeGiven else { return close() }
            idleNoticeGiven = true
            closedIdle = true
            lastActivity = now
            if let session { session.closeIdle() } else { endedUndecided = true }
            flush(now: now, service: service)
        case .flushing, .lingering:
            close()
        case .closed:
            break
        }
    }

    /// The service answers a request it answered `later`.
    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service) {
        guard phase != .closed, let session else { return }
        lastActivity = now
        session.answerLater(stream: stream, response, now: now, service: service)
        flush(now: now, service: service)
    }

    /// The service drops the connection (`ConnectionOrders.Order.goAway`): GOAWAY naming
    /// `lastStream`, the streams above it forgotten; it closes once the rest are answered.
    func drop(lastStream: Int, now: Duration, service: Service) {
        guard phase == .open, let session else { return close() }
        session.goAway(lastStream: lastStream)
        flush(now: now, service: service)
    }

    /// Closes the connection as an idle one is (`ConnectionOrders.Order.closeIdle`), unless a
    /// request on it waits for the service's answer.
    func closeIfIdle(now: Duration, service: Service) {
        guard phase == .open, session?.awaitsLaterAnswer != true else { return }
        closedIdle = true
        if let session { session.closeIdle() } else { endedUndecided = true }
        flush(now: now, service: service)
    }

    /// The server stops: the session finishes what is in flight.
    func beginShutdown(now: Duration, service: Service) {
        guard phase == .open else { return }
        if let session { session.beginShutdown() } else { endedUndecided = true }
        flush(now: now, service: service)
    }

    func close() {
        guard phase != .closed else { return }
        phase = .closed
        session?.connectionClosed()
        Socket.close(descriptor)
    }
}
