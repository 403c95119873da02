/// Requests: queued as they are sent, given a stream as the server's concurrency limit
/// allows, their bodies written as its windows open; cancelled by the transport.
extension ClientConnection {
    /// Sends `request`: it opens a stream at once if the server's SETTINGS have come and
    /// its SETTINGS_MAX_CONCURRENT_STREAMS allows, else it waits its turn. Its response or
    /// failure comes back from `receive` (or `connectionLost`) under the returned identifier.
    /// - Throws: `.connectionClosing` when the connection takes no new requests (send on a
    ///   new one), `.invalidRequest` for a field HTTP/2 cannot carry. Nothing is sent then.
    /// - Complexity: O(h · d + b), h the fields, d the HPACK table's entries, b the body.
    public mutating func send(_ request: ClientRequest) throws(ClientSendError) -> RequestID {
        guard acceptsRequests else { throw .connectionClosing }
        if let problem = request.problem { throw .invalidRequest(problem) }
        let id = RequestID(nextRequestNumber)
        nextRequestNumber += 1
        waiting.append(WaitingRequest(id: id, request: request))
        openWaitingStreams()
        checkInvariants()
        return id
    }

    /// Gives up on a request (its deadline passed): a waiting one is dropped, one with a
    /// stream is reset with CANCEL. No event follows for it; an unknown or finished
    /// request is ignored.
    /// - Complexity: O(w) for a request still waiting, w the waiting requests; O(1) otherwise.
    public mutating func cancel(_ id: RequestID) {
        guard phase != .closed else { return }
        if let stream = streamOfRequest.removeValue(forKey: id) {
            exchanges[stream] = nil
            _ = removeStream(stream)
            closedStreams.record(stream, .resetByUs)
            outbound.append(Frame(stream: stream, payload: .rstStream(.cancel)))
            openWaitingStreams()
        } else {
            waiting.removeFirst { $0.id == id }
        }
        checkInvariants()
    }

    /// Sends a PING; its acknowledgement comes back as `.pingAcknowledged(data)`.
    /// - Complexity: O(1).
    public mutating func ping(_ data: UInt64) {
        guard phase != .closed else { return }
        outbound.append(Frame(stream: .connection, payload: .ping(ack: false, data: data)))
    }

    /// We go away (GOAWAY, last stream 0: the server opened none). With `.noError` the
    /// requests already sent finish (waiting ones still get their streams) and `send`
    /// takes no more; with any other code the connection ends at once and every request
    /// in flight fails with `.connectionError`, as the returned events say.
    /// - Complexity: O(r), r the requests in flight.
    @discardableResult
    public mutating func goAway(code: ErrorCode = .noError, debug: [UInt8] = []) -> [ClientEvent] {
        guard phase != .closed else { return [] }
        if !goingAway || code != .noError {
            outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: .connection, code: code, debug: debug)))
        }
        goingAway = true
        if code != .noError { close(failing: .connectionError(code, "the connection was closed by us")) }
        return takeEvents()
    }

    /// The transport lost the connection (the server closed it, a reset, a failed write):
    /// every request in flight or waiting fails, with the error of the server's GOAWAY if
    /// one came, else `.connectionLost`.
    /// - Complexity: O(r), r the requests in flight.
    public mutating func connectionLost() -> [ClientEvent] {
        guard phase != .closed else { return [] }
        close(failing: goAwayError.map { .connectionError($0.code, $0.reason) } ?? .connectionLost)
        return takeEvents()
    }

    /// Opens streams for waiting requests, oldest first, while the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS allows (its SETTINGS must have come: before them
    /// its limit is unknown, RFC 9113 §5.1.2).
    mutating func openWaitingStreams() {
        guard phase == .open, goAwayLastStream == nil else { return }
        let limit = peerSettings.maxConcurrentStreams ?? .max
        while streams.count < limit && !waiting.isEmpty {
            guard nextStreamID <= StreamID.max.rawValue else {
                // Identifiers are spent (§5.1.1): what waits fails unsent, to go on a new connection.
                for entry in waiting.removeAll() { events.append(.failed(entry.id, .notProcessed(.noError))) }
                return
            }
            guard let (requestID, request) = waiting.popFirst().map({ ($0.id, $0.request) }) else { return }
            openStream(for: requestID, request)
        }
    }

    /// Opens the next stream for `request`: HEADERS now, its body and trailers as the
    /// windows allow.
    mutating func openStream(for requestID: RequestID, _ request: ClientRequest) {
        let id = StreamID(nextStreamID)
        nextStreamID += 2
        let hasMore = !request.body.isEmpty || request.trailers != nil
        var stream = StreamState(phase: .open, sendWindow: peerSettings.initialWindowSize, receiveWindow: localInitialWindowSize)
        exchanges[id] = Exchange(request: requestID, isHead: request.method == "HEAD")
        streamOfRequest[requestID] = id
        writeHeaders(request.headerFields, on: id, endStream: !hasMore)
        guard hasMore else {
            stream.phase = .halfClosedLocal
            stream.localEndQueued = true
            streams[id] = stream
            return
        }
        if let trailers = request.trailers { queueTrailers(trailers, on: id, &stream) }
        queueData(request.body, on: id, &stream, endStream: request.trailers == nil)
    }
}
