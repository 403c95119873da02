/// Responses: HEADERS go out at once (HPACK's order is the wire's), DATA waits for the
/// client's flow-control windows and is written round-robin across streams as they open.
extension ServerConnection {
    /// Outbound octets above which no more DATA is written until the transport takes some:
    /// queued data stays in its stream, where it can still be dropped by a reset.
    static let outboundHighWater = 65_536

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

    /// Sends response HEADERS: `:status` then `headers`. A 1xx status is informational and
    /// may be followed by the final one (RFC 9113 §8.1); it cannot end the stream.
    /// - Complexity: O(h · d), h the fields and d the HPACK table's entries.
    public mutating func sendHeaders(status: Int, _ headers: [HeaderField], on id: StreamID,
                                     endStream: Bool) throws(SendError) {
        var stream = try writableStream(id)
        guard !stream.responseStarted else { throw .wrongOrder(id) }
        // 101 does not exist in HTTP/2 (RFC 9113 §8.6); a 1xx cannot end the stream (§8.1).
        guard (100...999).contains(status), status != 101, !(status < 200 && endStream) else {
            throw .invalidResponse("status \(status)\(endStream ? " ending the stream" : "")")
        }
        if let problem = FieldValidation.responseProblem(headers) { throw .invalidResponse(problem) }
        let informational = status < 200
        if !informational { stream.responseStarted = true }
        if endStream { stream.localEndQueued = true }
        writeHeaders([HeaderField(":status", String(status))] + headers, on: id, endStream: endStream)
        if endStream { endLocal(id, stream) } else { streams[id] = stream }
    }

    /// Queues response body octets; they go out as the client's windows allow.
    /// - Complexity: O(n), n the octets.
    public mutating func sendData(_ bytes: [UInt8], on id: StreamID, endStream: Bool) throws(SendError) {
        var stream = try writableStream(id)
        guard stream.responseStarted else { throw .wrongOrder(id) }
        if stream.pendingCount == 0 {
            stream.pendingData = bytes
            stream.pendingOffset = 0
        } else {
            stream.pendingData.append(contentsOf: bytes)
        }
        bufferedResponseBytes += bytes.count
        stream.pendingEnd = endStream
        stream.localEndQueued = endStream
        enqueueIfWritable(id, &stream, evenWithoutWindow: true)
        streams[id] = stream
        scheduleData()
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
        stream.pendingTrailers = trailers
        streams[id] = stream
    }

    /// Resets `id` (RST_STREAM with `code`, e.g. CANCEL) and drops what it had queued.
    /// - Complexity: O(1).
    public mutating func resetStream(_ id: StreamID, code: ErrorCode) throws(SendError) {
        guard phase != .closed else { throw .connectionClosed }
        guard let stream = streams.removeValue(forKey: id) else { throw .unknownStream(id) }
        bufferedResponseBytes -= stream.pendingCount
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
            streams.removeAll()
            bufferedResponseBytes = 0
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

    /// Encodes `fields` and writes HEADERS, with CONTINUATION frames when the block is
    /// larger than the client's SETTINGS_MAX_FRAME_SIZE.
    mutating func writeHeaders(_ fields: [HeaderField], on id: StreamID, endStream: Bool) {
        let block = encoder.encode(fields)
        let size = peerSettings.maxFrameSize
        var offset = Swift.min(size, block.count)
        outbound.append(Frame(stream: id, payload: .headers(fragment: Array(block[0..<offset]), endStream: endStream,
                                                             endHeaders: offset == block.count, priority: nil, padding: nil)))
        while offset < block.count {
            let end = Swift.min(offset + size, block.count)
            outbound.append(Frame(stream: id, payload: .continuation(fragment: Array(block[offset..<end]), endHeaders: end == block.count)))
            offset = end
        }
    }

    /// Our side of `id` ended (END_STREAM written).
    mutating func endLocal(_ id: StreamID, _ state: StreamState) {
        var stream = state
        switch stream.phase {
        case .open:
            stream.phase = .halfClosedLocal
            streams[id] = stream
        case .halfClosedRemote:
            streams[id] = nil
            closedStreams.record(id, .finished)
        case .halfClosedLocal:
            streams[id] = stream // not reached: writableStream refuses an ended stream
        }
    }

    /// Puts `id` in the data queue if it has something to write and a window to write it
    /// in (an END_STREAM or trailers alone need no window).
    mutating func enqueueIfWritable(_ id: StreamID, _ stream: inout StreamState, evenWithoutWindow: Bool = false) {
        guard !stream.queued, stream.hasPendingWork, evenWithoutWindow || stream.sendWindow > 0 else { return }
        stream.queued = true
        dataQueue.append(id)
    }

    /// Writes queued DATA round-robin, one frame per stream per turn, within the windows
    /// and the client's SETTINGS_MAX_FRAME_SIZE, until `outboundHighWater`.
    mutating func scheduleData() {
        guard phase != .closed else { return }
        var waitingForConnection: [StreamID] = []
        while outbound.count < Self.outboundHighWater, let id = dataQueue.popFirst() {
            guard var stream = streams[id], stream.queued else { continue }
            let remaining = stream.pendingCount
            if remaining > 0 {
                guard stream.sendWindow > 0 else {
                    stream.queued = false // its WINDOW_UPDATE (or SETTINGS) queues it again
                    streams[id] = stream
                    continue
                }
                guard sendWindow > 0 else {
                    waitingForConnection.append(id)
                    continue
                }
                let size = Swift.min(remaining, sendWindow, stream.sendWindow, peerSettings.maxFrameSize)
                let chunk = Array(stream.pendingData[stream.pendingOffset..<(stream.pendingOffset + size)])
                stream.pendingOffset += size
                sendWindow -= size
                stream.sendWindow -= size
                bufferedResponseBytes -= size
                let drained = stream.pendingCount == 0
                if drained {
                    stream.pendingData = []
                    stream.pendingOffset = 0
                }
                let end = drained && stream.pendingEnd && stream.pendingTrailers == nil
                outbound.append(Frame(stream: id, payload: .data(bytes: chunk, endStream: end, padding: nil)))
                if end {
                    stream.pendingEnd = false
                    stream.queued = false
                    endLocal(id, stream)
                    continue
                }
                if !drained {
                    dataQueue.append(id) // round robin: the others get a turn first
                    streams[id] = stream
                    continue
                }
            }
            // Nothing left but the end of the response.
            stream.queued = false
            if let trailers = stream.pendingTrailers {
                stream.pendingTrailers = nil
                stream.pendingEnd = false
                writeHeaders(trailers, on: id, endStream: true)
                endLocal(id, stream)
            } else if stream.pendingEnd {
                stream.pendingEnd = false
                outbound.append(Frame(stream: id, payload: .data(bytes: [], endStream: true, padding: nil)))
                endLocal(id, stream)
            } else {
                streams[id] = stream
            }
        }
        dataQueue.prepend(waitingForConnection)
    }
}
