/// Responses: HEADERS go out at once (HPACK's order is the wire's), DATA waits for the
/// client's flow-control windows and is written round-robin across streams as they open.
extension ServerConnection {
    /// Answers `stream` with a whole response: HEADERS with `:status` and `headers`, then
    /// `body` as DATA (none when empty: END_STREAM goes on the HEADERS), then `trailers`.
    /// - Complexity: O(h + b), the octets of the fields and of the body.
    public mutating func respond(to stream: StreamID, status: Int, headers: [HeaderField] = [], body: [UInt8] = [],
                                 trailers: [HeaderField]? = nil) throws(SendError) {
        let endsWithHeaders = body.isEmpty && trailers == nil
        try sendHeaders(status: status, headers, on: stream, endStream: endsWithHeaders)
        if !body.isEmpty { try sendData(body, on: stream, endStream: trailers == nil) }
        if let trailers { try sendTrailers(trailers, on: stream) }
    }

    /// Answers `stream` with a whole response whose fields are a `HeaderList`: what a
    /// server that keeps one list and refills it for every answer calls, so the fields
    /// cost no allocation. As `respond(to:status:headers:body:trailers:)` otherwise.
    /// - Complexity: O(h · d + b), h the fields, d the HPACK table's entries and b the body's octets.
    public mutating func respond(to stream: StreamID, status: Int, headers: HeaderList, body: [UInt8] = []) throws(SendError) {
        try sendHeaders(status: status, headers, on: stream, endStream: body.isEmpty)
        if !body.isEmpty { try sendData(body, on: stream, endStream: true) }
    }

    /// Sends response HEADERS: `:status` then `headers`. A 1xx status is informational and
    /// may be followed by the final one (RFC 9113 §8.1); it cannot end the stream.
    /// - Complexity: O(h · d), h the fields and d the HPACK table's entries.
    public mutating func sendHeaders(status: Int, _ headers: [HeaderField], on id: StreamID,
                                     endStream: Bool) throws(SendError) {
        let stream = try checkedResponseStream(id, status: status, endStream: endStream,
                                               problem: FieldValidation.responseProblem(headers))
        writeHeaders(on: id, endStream: endStream) { encoder, bytes in encoder.encodeResponse(status: status, headers, into: &bytes) }
        finishHeaders(id, stream, status: status, endStream: endStream)
    }

    /// Sends response HEADERS: `:status` then the fields of `headers`, encoded from its octets.
    /// - Complexity: O(h · d), h the fields and d the HPACK table's entries.
    public mutating func sendHeaders(status: Int, _ headers: HeaderList, on id: StreamID,
                                     endStream: Bool) throws(SendError) {
        let stream = try checkedResponseStream(id, status: status, endStream: endStream,
                                               problem: FieldValidation.responseProblem(headers))
        writeHeaders(on: id, endStream: endStream) { encoder, bytes in encoder.encodeResponse(status: status, headers, into: &bytes) }
        finishHeaders(id, stream, status: status, endStream: endStream)
    }

    /// The state of `id` if response HEADERS with `status` may go on it.
    private func checkedResponseStream(_ id: StreamID, status: Int, endStream: Bool,
                                       problem: @autoclosure () -> String?) throws(SendError) -> StreamState {
        let stream = try writableStream(id)
        guard !stream.responseStarted else { throw .wrongOrder(id) }
        // 101 does not exist in HTTP/2 (RFC 9113 §8.6); a 1xx cannot end the stream (§8.1).
        guard (100...999).contains(status), status != 101, !(status < 200 && endStream) else {
            throw .invalidResponse("status \(status)\(endStream ? " ending the stream" : "")")
        }
        if let problem = problem() { throw .invalidResponse(problem) }
        return stream
    }

    /// The stream's state once its HEADERS are written.
    private mutating func finishHeaders(_ id: StreamID, _ state: StreamState, status: Int, endStream: Bool) {
        var stream = state
        if status >= 200 { stream.responseStarted = true }
        if endStream {
            stream.localEndQueued = true
            endLocal(id, stream)
        } else {
            streams[id] = stream
        }
    }

    /// Queues response body octets; they go out as the client's windows allow.
    /// - Complexity: O(n), n the octets.
    public mutating func sendData(_ bytes: [UInt8], on id: StreamID, endStream: Bool) throws(SendError) {
        var stream = try writableStream(id)
        guard stream.responseStarted else { throw .wrongOrder(id) }
        queueData(bytes, on: id, &stream, endStream: endStream)
        checkInvariants()
    }

    /// Queues trailers, which end the response after its data (RFC 9113 §8.1).
    /// - Complexity: O(h · d), h the fields and d the HPACK table's entries.
    public mutating func sendTrailers(_ trailers: [HeaderField], on id: StreamID) throws(SendError) {
        var stream = try writableStream(id)
        guard stream.responseStarted else { throw .wrongOrder(id) }
        if let problem = FieldValidation.responseProblem(trailers) { throw .invalidResponse(problem) }
        stream.localEndQueued = true
        if stream.pendingCount == 0 {
            writeHeaders(trailers, on: id, endStream: true)
            return endLocal(id, stream)
        }
        queueTrailers(trailers, on: id, &stream)
        streams[id] = stream
    }

    /// Resets `id` (RST_STREAM with `code`, e.g. CANCEL) and drops what it had queued.
    /// - Complexity: O(1).
    public mutating func resetStream(_ id: StreamID, code: ErrorCode) throws(SendError) {
        guard phase != .closed else { throw .connectionClosed }
        guard removeStream(id) != nil else { throw .unknownStream(id) }
        closedStreams.record(id, .resetByUs)
        outbound.append(Frame(stream: id, payload: .rstStream(code)))
    }

    /// Sends a PING; its acknowledgement comes back as `.pingAcknowledged(data)`.
    /// - Complexity: O(1).
    public mutating func ping(_ data: UInt64) {
        guard phase != .closed else { return }
        outbound.append(Frame(stream: .connection, payload: .ping(ack: false, data: data)))
    }

    /// Sends GOAWAY now, naming the last stream handed over. With `.noError` the streams
    /// already open finish and new ones are ignored; with any other code the connection
    /// ends at once (a transport's timeouts: `.settingsTimeout`, `.enhanceYourCalm` for a
    /// stalled peer). A second call may only lower the last stream, as RFC 9113 §6.8 asks.
    /// - Complexity: O(1).
    public mutating func goAway(code: ErrorCode = .noError, debug: [UInt8] = []) {
        guard phase != .closed else { return }
        let last = Swift.min(lastAcceptedStreamID, goAwayLastStream ?? .max)
        outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: last, code: code, debug: debug)))
        goAwayLastStream = last
        shutdownPing = nil
        guard code == .noError else {
            phase = .closed
            removeAllStreams()
            headerBlock = nil
            return
        }
    }

    /// Starts a graceful shutdown (RFC 9113 §6.8): GOAWAY with the largest stream
    /// identifier and a PING; when the PING comes back, every stream the client started
    /// before seeing the GOAWAY has arrived, and a second GOAWAY names the real last one.
    /// - Complexity: O(1).
    public mutating func beginGracefulShutdown() {
        guard phase != .closed, goAwayLastStream == nil, shutdownPing == nil else { return }
        outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: .max, code: .noError, debug: [])))
        let marker: UInt64 = 0x7075_7368_7369_6d00 // "pushsim\0": recognisable in a capture
        shutdownPing = marker
        outbound.append(Frame(stream: .connection, payload: .ping(ack: false, data: marker)))
    }

    mutating func finishShutdown() {
        shutdownPing = nil
        goAway(code: .noError)
    }

    // MARK: Writing

    /// The state of a stream the application may still write to.
    func writableStream(_ id: StreamID) throws(SendError) -> StreamState {
        guard phase != .closed else { throw .connectionClosed }
        guard let stream = streams[id] else { throw .unknownStream(id) }
        guard !stream.localEndQueued else { throw .alreadyEnded(id) }
        switch stream.phase {
        case .open, .halfClosedRemote: return stream
        case .halfClosedLocal: throw .alreadyEnded(id)
        }
    }
}
