/// What both ends of a connection do alike, whichever side opened the streams: write
/// field blocks (HEADERS, then CONTINUATION), queue DATA and write it round-robin within
/// the peer's windows (RFC 9113 §6.9), give the peer its receive windows back as data is
/// handed over, take the peer's SETTINGS and WINDOW_UPDATEs, and close streams as both
/// sides end them (§5.1). `ServerConnection` sends response bodies through it and
/// `ClientConnection` request bodies: one scheduler, one set of window rules.
protocol FlowControlledConnection {
    var outbound: OutboundBuffer { get set }
    var encoder: HPACKEncoder { get set }
    var streams: StreamMap<StreamState> { get set }
    /// What streams have queued to send, for those that have any (`StreamState.pendingCount`
    /// and `hasPendingTrailers` say which).
    var pendingOutput: StreamMap<PendingOutput> { get set }
    var closedStreams: ClosedStreams { get set }
    var dataQueue: StreamQueue { get set }
    /// The peer's SETTINGS as they stand.
    var peerSettings: Settings { get set }
    /// What we may still send on the connection.
    var sendWindow: Int { get set }
    /// The largest `sendWindow` has been: a WINDOW_UPDATE while the window is below it
    /// gives back what our DATA used.
    var sendWindowCeiling: Int { get set }
    /// What the peer may still send on the connection, and what it sent that we have
    /// handed over but not yet acknowledged.
    var receiveWindow: Int { get set }
    var receivedUnacknowledged: Int { get set }
    /// Body octets queued in streams (not yet in `outbound`).
    var queuedDataBytes: Int { get set }
    /// The receive window we keep the connection at: acknowledged in half-window steps.
    var connectionWindowSize: Int { get }
    /// The receive window a new stream starts with.
    var localInitialWindowSize: Int { get }
    /// Whether the connection ended (after a GOAWAY with an error): nothing more is written.
    var isClosed: Bool { get }
    /// Whether `id` names a stream that was never opened, by either side (RFC 9113 §5.1).
    func isIdle(_ id: StreamID) -> Bool
    /// Calls `body` with the encoder and the outbound octets at once, so a block is encoded
    /// straight into its frame (two stored properties of the conforming struct: accessed
    /// through the protocol's accessors they would overlap).
    mutating func withEncoderAndOutbound<Result>(_ body: (inout HPACKEncoder, inout OutboundBuffer) -> Result) -> Result
}

extension FlowControlledConnection {
    /// Outbound octets above which no more DATA is written until the transport takes some:
    /// queued data stays in its stream, where it can still be dropped by a reset.
    static var outboundHighWater: Int { 65_536 }

    // MARK: Sending

    /// Encodes `fields` and writes HEADERS, with CONTINUATION frames when the block is
    /// larger than the peer's SETTINGS_MAX_FRAME_SIZE.
    mutating func writeHeaders(_ fields: [HeaderField], on id: StreamID, endStream: Bool) {
        writeHeaders(on: id, endStream: endStream) { encoder, bytes in encoder.encode(fields, into: &bytes) }
    }

    /// Writes HEADERS whose block `encode` appends, straight into the outbound octets (no
    /// block, fragment or frame value is made), with CONTINUATION frames when the block is
    /// larger than the peer's SETTINGS_MAX_FRAME_SIZE.
    mutating func writeHeaders(on id: StreamID, endStream: Bool, _ encode: (inout HPACKEncoder, inout [UInt8]) -> Void) {
        let maxFrameSize = peerSettings.maxFrameSize
        withEncoderAndOutbound { encoder, outbound in
            outbound.appendHeaders(stream: id, endStream: endStream, maxFrameSize: maxFrameSize) { bytes in
                encode(&encoder, &bytes)
            }
        }
    }

    /// Queues body octets on `id` (whose state is `stream`, written back here); they go
    /// out as the peer's windows allow, END_STREAM with the last when `endStream`.
    mutating func queueData(_ bytes: [UInt8], on id: StreamID, _ stream: inout StreamState, endStream: Bool) {
        if !bytes.isEmpty {
            var output = pendingOutput.removeValue(forKey: id) ?? PendingOutput()
            if output.offset == output.data.count {
                output.data = bytes
                output.offset = 0
            } else {
                output.data.append(contentsOf: bytes)
            }
            pendingOutput[id] = output
            stream.pendingCount += bytes.count
        }
        queuedDataBytes += bytes.count
        stream.pendingEnd = endStream
        stream.localEndQueued = endStream
        enqueueIfWritable(id, &stream, evenWithoutWindow: true)
        streams[id] = stream
        scheduleData()
    }

    /// Queues trailers on `id`, to go once its pending data is out.
    mutating func queueTrailers(_ trailers: [HeaderField], on id: StreamID, _ stream: inout StreamState) {
        var output = pendingOutput.removeValue(forKey: id) ?? PendingOutput()
        output.trailers = trailers
        pendingOutput[id] = output
        stream.hasPendingTrailers = true
    }

    /// Forgets `id` and what it had queued; its state, if it had one.
    mutating func removeStream(_ id: StreamID) -> StreamState? {
        guard let state = streams.removeValue(forKey: id) else { return nil }
        if state.pendingCount > 0 || state.hasPendingTrailers {
            pendingOutput.removeValue(forKey: id)
            queuedDataBytes -= state.pendingCount
        }
        return state
    }

    /// Forgets every stream and what they had queued.
    mutating func removeAllStreams() {
        streams.removeAll()
        pendingOutput.removeAll()
        queuedDataBytes = 0
    }

    /// Our side of `id` ended (END_STREAM written).
    mutating func endLocal(_ id: StreamID, _ state: StreamState) { end(id, state, ours: true) }

    /// The peer's side of `id` ended (END_STREAM received).
    mutating func endRemote(_ id: StreamID, _ state: StreamState) { end(id, state, ours: false) }

    /// One side of `id` ended: the stream is half closed, or closed once both have (§5.1).
    private mutating func end(_ id: StreamID, _ state: StreamState, ours: Bool) {
        var stream = state
        switch (stream.phase, ours) {
        case (.open, true):
            stream.phase = .halfClosedLocal
            streams[id] = stream
        case (.open, false):
            stream.phase = .halfClosedRemote
            streams[id] = stream
        case (.halfClosedRemote, true), (.halfClosedLocal, false):
            streams[id] = nil
            closedStreams.record(id, .finished)
        case (.halfClosedLocal, true), (.halfClosedRemote, false):
            streams[id] = stream // not reached: an ended side takes no more
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
    /// and the peer's SETTINGS_MAX_FRAME_SIZE, until `outboundHighWater`.
    mutating func scheduleData() {
        guard !isClosed else { return }
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
                let end = size == remaining && stream.pendingEnd && !stream.hasPendingTrailers
                var output = pendingOutput.removeValue(forKey: id)!
                outbound.appendData(output.data[output.offset..<(output.offset + size)], stream: id, endStream: end)
                output.offset += size
                stream.pendingCount -= size
                sendWindow -= size
                stream.sendWindow -= size
                queuedDataBytes -= size
                let drained = stream.pendingCount == 0
                if drained {
                    output.data = []
                    output.offset = 0
                }
                if !drained || output.trailers != nil { pendingOutput[id] = output }
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
            // Nothing left but the end of the body.
            stream.queued = false
            if stream.hasPendingTrailers, let trailers = pendingOutput.removeValue(forKey: id)?.trailers {
                stream.hasPendingTrailers = false
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

    // MARK: Receiving

    /// Marks `length` octets of the connection window as consumed, and returns them with a
    /// WINDOW_UPDATE once they reach half the window.
    mutating func consume(_ length: Int) {
        receivedUnacknowledged += length
        if receivedUnacknowledged >= Swift.max(1, connectionWindowSize / 2) {
            outbound.append(Frame(stream: .connection, payload: .windowUpdate(increment: UInt32(receivedUnacknowledged))),
                            control: true)
            receiveWindow += receivedUnacknowledged
            receivedUnacknowledged = 0
        }
    }

    /// `length` octets received on `id` were handed over: the stream gets its window back
    /// in half-window steps (the connection's is `consume`'s).
    mutating func acknowledge(_ length: Int, on id: StreamID, _ stream: inout StreamState) {
        stream.receivedUnacknowledged += length
        if stream.receivedUnacknowledged >= Swift.max(1, localInitialWindowSize / 2) {
            outbound.append(Frame(stream: id, payload: .windowUpdate(increment: UInt32(stream.receivedUnacknowledged))),
                            control: true)
            stream.receiveWindow += stream.receivedUnacknowledged
            stream.receivedUnacknowledged = 0
        }
    }

    /// A WINDOW_UPDATE from the peer (RFC 9113 §6.9): the connection's or a stream's send
    /// window grows, and a stream that waited for it is queued again.
    /// - Returns: whether it gave back window our DATA used. One that only grows a window
    ///   beyond the largest it was, or names a closed stream, has no effect: the caller
    ///   counts it against the flood budget (a peer can send such frames forever, a window
    ///   of 2³¹−1 taking two billion increments of 1). Frames with effect are bounded by
    ///   the octets we sent.
    mutating func receiveWindowUpdate(_ increment: UInt32, on id: StreamID) throws(ProtocolError) -> Bool {
        if id == .connection {
            guard increment > 0 else { throw .connection(.protocolError, "WINDOW_UPDATE of 0 on the connection") } // §6.9
            guard sendWindow + Int(increment) <= Settings.maxWindowSize else {
                throw .connection(.flowControlError, "the connection window above 2^31-1") // §6.9.1
            }
            let givesBack = sendWindow < sendWindowCeiling
            sendWindow += Int(increment)
            sendWindowCeiling = Swift.max(sendWindowCeiling, sendWindow)
            return givesBack
        }
        guard !isIdle(id) else { throw .connection(.protocolError, "WINDOW_UPDATE on idle \(id)") }
        guard var stream = streams[id] else { return false } // closed: WINDOW_UPDATE may arrive late (§6.9)
        guard increment > 0 else { throw .stream(id, .protocolError, "WINDOW_UPDATE of 0 on \(id)") }
        guard stream.sendWindow + Int(increment) <= Settings.maxWindowSize else {
            throw .stream(id, .flowControlError, "\(id)'s window above 2^31-1")
        }
        let givesBack = stream.sendWindow < stream.sendWindowCeiling
        stream.sendWindow += Int(increment)
        stream.sendWindowCeiling = Swift.max(stream.sendWindowCeiling, stream.sendWindow)
        enqueueIfWritable(id, &stream)
        streams[id] = stream
        return givesBack
    }

    /// Applies the peer's SETTINGS and queues the acknowledgement.
    mutating func applyPeerSettings(_ parameters: [Setting]) throws(ProtocolError) {
        let previousWindow = peerSettings.initialWindowSize
        // "Parameters are processed in the order in which they appear" (§6.5.3): the last
        // value of each wins.
        for parameter in parameters {
            try peerSettings.apply(parameter)
            if parameter.id == .headerTableSize { encoder.setPeerMaxTableSize(peerSettings.headerTableSize) }
        }
        // §6.9.2: every stream's window moves by the change of SETTINGS_INITIAL_WINDOW_SIZE,
        // possibly below 0. Applied once per frame, so a frame repeating the parameter
        // thousands of times costs one pass over the streams, not one per repetition.
        let delta = peerSettings.initialWindowSize - previousWindow
        if delta != 0 {
            for (id, var stream) in streams {
                guard stream.sendWindow + delta <= Settings.maxWindowSize else {
                    throw .connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes \(id)'s window above 2^31-1")
                }
                stream.sendWindow += delta
                stream.sendWindowCeiling += delta // moved by the setting, not by our DATA: nothing given back
                if delta > 0 { enqueueIfWritable(id, &stream) }
                streams[id] = stream
            }
        }
        outbound.append(Frame(stream: .connection, payload: .settings(ack: true, parameters: [])), control: true)
    }
}
