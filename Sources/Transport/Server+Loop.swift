import Glibc

/// The loop: one poll(2) over the listeners and every connection, a turn at a time.
extension Server {
    /// Serves until `service.shouldStop` turns true, then stops accepting, lets the
    /// connections finish (HTTP/2: GOAWAY, graceful; HTTP/1.1: closed after the response
    /// in flight) for at most `shutdownGracePeriod`, closes everything and returns. Call once.
    ///
    /// Each turn: wait for sockets (at most `maxPollWait`, what the service's last `tick`
    /// asked, the nearest connection deadline and the nearest outgoing request's), serve
    /// the connections that are ready, then the outgoing connections, time out the idle
    /// ones and the outgoing requests whose time ran out, accept new connections, hand the
    /// outgoing outcomes to the service, then `tick` it. A server without listeners is a
    /// client loop: it serves only its outgoing requests.
    /// - Complexity: O(c) per turn plus the octets moved, c the connections.
    public func run(service: Service) {
        // Room for every connection the listeners allow, the outgoing ones and the listeners.
        Socket.raiseDescriptorLimit(to: listeners.reduce(256) { $0 + $1.maxConnections + 1 })
        let clock = ContinuousClock()
        let start = clock.now
        var now = Duration.zero
        var stopDeadline: Duration?
        var requestedWait: Duration?
        var acceptPausedUntil = Duration.zero
        var pollSet: [pollfd] = []
        while true {
            if stopDeadline == nil && service.shouldStop {
                stopDeadline = now + configuration.shutdownGracePeriod
                stopAccepting()
                for connection in connections { connection.beginShutdown(now: now, service: service) }
                sweepClosed(service)
            }
            if let stopDeadline, (connections.isEmpty && outgoing.pending.isEmpty) || now >= stopDeadline {
                for connection in connections { connection.close() }
                sweepClosed(service)
                outgoing.stop()
                outgoing.deliver(to: service)
                statistics.peakRequestMemory = requestMemory.peakHeld
                return
            }

            let accepting = stopDeadline == nil && now >= acceptPausedUntil
            pollSet.removeAll(keepingCapacity: true)
            if accepting {
                for listener in listeners { pollSet.append(pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)) }
            }
            let listenerCount = pollSet.count
            var wait = configuration.maxPollWait
            if let requestedWait { wait = min(wait, requestedWait) }
            if let stopDeadline { wait = min(wait, stopDeadline - now) }
            if stopDeadline == nil && !accepting { wait = min(wait, acceptPausedUntil - now) }
            for connection in connections {
                pollSet.append(pollfd(fd: connection.descriptor, events: connection.pollEvents, revents: 0))
                if let deadline = connection.deadline { wait = min(wait, deadline - now) }
                if connection.hasDeferredWork { wait = .zero }
            }
            let outgoingOffset = pollSet.count
            for connection in outgoing.connections {
                pollSet.append(pollfd(fd: connection.descriptor, events: connection.pollEvents, revents: 0))
            }
            if let deadline = outgoing.nextDeadline { wait = min(wait, deadline - now) }

            // EINTR (a signal) or any other failure: the turn goes on with nothing ready.
            let ready = poll(&pollSet, nfds_t(pollSet.count), Self.milliseconds(wait))
            now = start.duration(to: clock.now)
            outgoing.now = now

            // Connections before the listeners: one that closed frees its place first.
            // Each connection gets one share a turn: one read, or the next requests a
            // pipelining client left waiting, so none holds up the others.
            for (offset, connection) in connections.enumerated() {
                let revents = pollSet[listenerCount + offset].revents
                if revents != 0 {
                    connection.handle(revents, now: now, buffer: readBuffer, service: service)
                } else if connection.hasDeferredWork {
                    connection.serveDeferred(now: now, service: service)
                }
            }
            if ready > 0 { outgoing.handle(pollSet, from: outgoingOffset, buffer: readBuffer) }
            for connection in connections { connection.checkDeadline(now: now, service: service) }
            outgoing.checkDeadlines()
            sweepClosed(service)
            if ready > 0 && accepting {
                for (index, listener) in listeners.enumerated() where pollSet[index].revents != 0 {
                    if !acceptConnections(on: listener, now: now, service: service) {
                        acceptPausedUntil = now + .milliseconds(100)
                    }
                }
            }
            outgoing.deliver(to: service)
            requestedWait = service.tick(elapsed: now)
            deliverLaterAnswers(service, now: start.duration(to: clock.now))
            carryOutConnectionOrders(service, now: start.duration(to: clock.now))
        }
    }

    /// Hands the answers the service gave later to their connections.
    /// - Complexity: O(a × c) for a answers and c connections.
    func deliverLaterAnswers(_ service: Service, now: Duration) {
        guard !laterAnswers.queued.isEmpty else { return }
        let queued = laterAnswers.queued
        laterAnswers.queued.removeAll(keepingCapacity: true)
        for (answer, response) in queued {
            connections.first { $0.number == answer.connection }?.answerLater(stream: answer.stream, response, now: now,
                                                                              service: service)
        }
    }

    /// Accepts what the listener has, up to a bound so one listener cannot starve the
    /// connections. On a listener with `maxConnections` open, the one that waited longest
    /// is closed to make room (`evictionCandidate`); when none can go (a closing one is
    /// already on its way out), the new connection is closed as soon as accepted.
    /// - Returns: false when accepting failed for want of resources (descriptors, memory):
    ///   the listener stays readable, so the loop pauses accepting instead of spinning.
    func acceptConnections(on listener: Listener, now: Duration, service: Service) -> Bool {
        for _ in 0..<64 {
            switch listener.accept() {
            case .accepted(let descriptor):
                guard makeRoom(on: listener, now: now, service: service) else {
                    Socket.close(descriptor)
                    statistics.connectionsRefused += 1
                    continue
                }
                Socket.disableNagle(descriptor)
                let connection = Connection(descriptor: descriptor, number: nextConnectionNumber, listener: listener,
                                            configuration: configuration, memory: requestMemory, now: now)
                nextConnectionNumber += 1
                connections.append(connection)
                openByListener[listener.index] += 1
                statistics.connectionsAccepted += 1
                statistics.peakConnections = max(statistics.peakConnections, connections.count)
                connection.start(now: now, service: service)
            case .wouldBlock:
                return true
            case .failed(let code):
                return ![EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code)
            }
        }
        return true
    }

    /// Whether `listener` has room for one more connection, made by closing the one that
    /// waited longest when it is full.
    /// - Complexity: O(c) when the listener is full, c the connections; O(1) otherwise.
    func makeRoom(on listener: Listener, now: Duration, service: Service) -> Bool {
        guard openByListener[listener.index] >= listener.maxConnections else { return true }
        guard let victim = evictionCandidate(on: listener.index) else { return false }
        victim.evict(now: now, service: service)
        statistics.connectionsEvicted += 1
        sweepClosed(service)
        return openByListener[listener.index] < listener.maxConnections
    }

    /// The connection of `listener` a new one replaces: one that never brought a whole
    /// request before one that did, then the one whose last activity (a whole frame or
    /// request, octets written) is oldest. A slowloris or a silent crowd is closed before a
    /// client that was served; nil when every connection is already closing.
    /// - Complexity: O(c), c the connections.
    func evictionCandidate(on listener: Int) -> Connection? {
        var best: Connection?
        for connection in connections where connection.listener == listener && !connection.isClosing {
            guard let current = best else {
                best = connection
                continue
            }
            if (connection.hasServed ? 1 : 0, connection.lastActivity) < (current.hasServed ? 1 : 0, current.lastActivity) {
                best = connection
            }
        }
        return best
    }

    /// Closes the listeners: new clients are refused by the kernel from now on.
    func stopAccepting() {
        for listener in listeners { Socket.close(listener.descriptor) }
        listeners.removeAll()
    }

    /// Forgets the closed connections, telling the service and counting what they did.
    func sweepClosed(_ service: Service) {
        guard connections.contains(where: \.isClosed) else { return }
        connections.removeAll { connection in
            guard connection.isClosed else { return false }
            statistics.requests += connection.session?.requestsServed ?? 0
            statistics.requestsRefusedForMemory += connection.session?.refusedForMemory ?? 0
            openByListener[connection.listener] -= 1
            if connection.session?.endedByProtocolError == true { statistics.protocolErrors += 1 }
            if connection.closedIdle { statistics.connectionsClosedIdle += 1 }
            service.connectionClosed(connection.number)
            return true
        }
    }

    /// A wait for poll(2): whole milliseconds rounded up (a deadline is not woken for
    /// early, to spin), at least 0.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let total = seconds.multipliedReportingOverflow(by: 1_000)
        guard !total.overflow else { return Int32.max }
        let rounded = total.partialValue + (attoseconds + perMillisecond - 1) / perMillisecond
        return Int32(clamping: rounded)
    }
}
