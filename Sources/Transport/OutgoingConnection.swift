import Glibc

/// One outgoing connection: its socket, connecting without blocking, then its client
/// session's octets written as the socket takes them and the server's read into it.
/// connecting → open → closed; a connection that fails or ends fails what it carried.
final class OutgoingConnection {
    enum Phase: Equatable {
        /// connect(2) is under way: POLLOUT says when it is done.
        case connecting
        case open
        case closed
    }

    let endpoint: Endpoint
    let session: ClientSession
    private(set) var descriptor: Int32 = -1
    private(set) var phase = Phase.connecting
    /// Octets taken from the session and not yet accepted by the socket.
    private var unsent = PendingWrite()
    /// When the connection last had something in flight or moved an octet.
    private(set) var lastActivity: Duration

    /// The most a write takes from the session at once.
    static let writeChunk = 1 << 18

    /// Starts connecting to `address`. A connect that fails at once leaves the connection
    /// closed, with `failure` saying why.
    init(endpoint: Endpoint, address: ListenAddress, session: ClientSession, now: Duration) {
        self.endpoint = endpoint
        self.session = session
        lastActivity = now
        switch Socket.connect(to: address) {
        case .started(let descriptor):
            self.descriptor = descriptor
        case .failed(let code):
            phase = .closed
            startFailure = Self.failure(connecting: code)
        }
    }

    /// Why the connection could not be begun, when it could not.
    private(set) var startFailure: OutgoingFailure?

    static func failure(connecting code: Int32) -> OutgoingFailure {
        code == ECONNREFUSED ? .connectionRefused : .cannotConnect(Socket.errorText(code))
    }

    var isClosed: Bool { phase == .closed }

    /// Whether new requests may go on this connection now or once it is made.
    var acceptsRequests: Bool { phase != .closed && session.acceptsRequests }

    private var pendingWriteBytes: Int { unsent.count + session.outboundByteCount }

    /// What poll(2) should watch for.
    var pollEvents: Int16 {
        switch phase {
        case .connecting: Int16(POLLOUT)
        case .open: Int16(POLLIN | (pendingWriteBytes > 0 ? POLLOUT : 0))
        case .closed: 0
        }
    }

    /// Sends a request (nil), or says why it cannot be written.
    func send(_ serial: Int, _ request: OutgoingRequest, now: Duration) -> OutgoingFailure? {
        lastActivity = now
        return session.send(serial, request, authority: request.authority ?? endpoint.description)
    }

    /// Serves what poll(2) reported; the results of the requests it completed or failed.
    func handle(_ revents: Int16, now: Duration, buffer: UnsafeMutableRawBufferPointer) -> [ClientResult] {
        let events = Int32(revents)
        switch phase {
        case .closed:
            return []
        case .connecting:
            guard events & (POLLOUT | POLLERR | POLLHUP) != 0 else { return [] }
            let code = Socket.connectError(descriptor)
            guard code == 0 else { return close(failing: Self.failure(connecting: code)) }
            phase = .open
            lastActivity = now
            return flush(now: now)
        case .open:
            var results: [ClientResult] = []
            if events & (POLLIN | POLLHUP | POLLERR) != 0 {
                results += read(now: now, buffer: buffer)
            }
            guard phase == .open else { return results }
            return results + flush(now: now)
        }
    }

    private func read(now: Duration, buffer: UnsafeMutableRawBufferPointer) -> [ClientResult] {
        // A few reads a turn, so one busy server cannot starve the loop.
        var results: [ClientResult] = []
        for _ in 0..<4 {
            switch Socket.read(descriptor, into: buffer) {
            case .read(let count):
                lastActivity = now
                results += session.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), now: now)
                if count < buffer.count { return results }
            case .endOfStream, .failed:
                return results + close(failing: .connectionLost)
            case .wouldBlock:
                return results
            }
        }
        return results
    }

    /// Writes what the socket takes; closes the connection once its session is over and written.
    func flush(now: Duration) -> [ClientResult] {
        guard phase == .open else { return [] }
        let drained = unsent.drain(into: descriptor, wrote: { lastActivity = now },
                                   refill: { session.takeOutbound(maxBytes: Self.writeChunk) })
        switch drained {
        case .blocked: return []
        case .failed: return close(failing: .connectionLost)
        case .empty: break
        }
        if session.isFinished { return close(failing: .connectionLost) }
        return []
    }

    /// Gives up on a request whose time ran out; an HTTP/1.1 connection closes for it, and
    /// so does one whose server has not spoken yet: it answers nothing, and the other
    /// requests on it time out with this one. What that fails is returned.
    func cancel(_ serial: Int, now: Duration) -> [ClientResult] {
        if session.cancel(serial) { return close(failing: .connectionLost) }
        if !session.serverHasSpoken { return close(failing: .timedOut) }
        return flush(now: now)
    }

    /// Closes an idle connection as its protocol does; it closes once that is written.
    func closeIdle(now: Duration) -> [ClientResult] {
        session.closeIdle()
        if phase == .connecting { return close(failing: .connectionLost) }
        return flush(now: now)
    }

    /// Closes the socket; what was in flight fails with `failure`.
    func close(failing failure: OutgoingFailure) -> [ClientResult] {
        guard phase != .closed else { return [] }
        phase = .closed
        Socket.close(descriptor)
        descriptor = -1
        return session.connectionEnded(failure)
    }
}
