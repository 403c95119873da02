/// What each received frame does to the connection (RFC 9113 §5.1 states, §6 frame
/// definitions, §8 HTTP semantics).
extension ServerConnection {
    mutating func process(_ frame: Frame) throws(ProtocolError) {
        // "A receiver MUST treat the receipt of any other type of frame or a frame on a
        // different stream as a connection error of type PROTOCOL_ERROR" (§6.10).
        if let block = headerBlock {
            guard case .continuation = frame.payload, frame.stream == block.stream else {
                throw .connection(.protocolError, "a header block on \(block.stream) interrupted before END_HEADERS")
            }
        }
        if phase == .awaitingSettings {
            guard case .settings(ack: false, _) = frame.payload else {
                throw .connection(.protocolError, "the client preface is not followed by SETTINGS")
            }
        }
        let id = frame.stream
        switch frame.payload {
        case .data(let bytes, let endStream, _):
            try receiveData(bytes, endStream: endStream, length: frame.flowControlledLength, on: id)
        case .headers(let fragment, let endStream, let endHeaders, let priority, _):
            // §5.1.1: "Streams initiated by a client MUST use odd-numbered stream identifiers".
            guard id.isClientInitiated else { throw .connection(.protocolError, "HEADERS on even-numbered \(id)") }
            if fragment.isEmpty && !endHeaders { try countEmptyFrame() }
            let block = HeaderBlock(stream: id, bytes: fragment, endStream: endStream, priority: priority)
            try checkSize(of: block)
            if endHeaders { try receiveHeaderBlock(block) } else { headerBlock = block }
        case .continuation(let fragment, let endHeaders):
            guard var block = headerBlock else { throw .connection(.protocolError, "CONTINUATION without HEADERS on \(id)") }
            block.continuations += 1
            guard block.continuations <= configuration.limits.maxContinuationFrames else {
                throw .connection(.enhanceYourCalm, "more than \(configuration.limits.maxContinuationFrames) CONTINUATION frames in one header block")
            }
            if fragment.isEmpty && !endHeaders { try countEmptyFrame() }
            block.bytes.append(contentsOf: fragment)
            try checkSize(of: block)
            if endHeaders {
                headerBlock = nil
                try receiveHeaderBlock(block)
            } else {
                headerBlock = block
            }
        case .priority(let priority):
            try countControlFrame()
            // §5.3.1: "A stream cannot depend on itself."
            if priority.dependency == id { throw .stream(id, .protocolError, "\(id) depends on itself") }
        case .rstStream(let code):
            try receiveReset(code, on: id)
        case .settings(let ack, let parameters):
            try countControlFrame()
            if ack { return acknowledgeLocalSettings() }
            try applyPeerSettings(parameters)
        case .pushPromise:
            // §8.4: "A client cannot push"; a server receiving PUSH_PROMISE: PROTOCOL_ERROR.
            throw .connection(.protocolError, "PUSH_PROMISE from a client")
        case .ping(let ack, let data):
            try countControlFrame()
            if ack {
                if data == shutdownPing { finishShutdown() }
                events.append(.pingAcknowledged(data))
            } else {
                outbound.append(Frame(stream: .connection, payload: .ping(ack: true, data: data)), control: true)
                events.append(.ping(data))
            }
        case .goAway(let lastStream, let code, let debug):
            try countControlFrame()
            events.append(.goAway(lastStream: lastStream, code: code, debug: debug))
        case .windowUpdate(let increment):
            try receiveWindowUpdate(increment, on: id)
        case .unknown:
            // §5.5: "Implementations MUST ignore unknown or unsupported values ... frames of unknown types".
            try countControlFrame()
        }
    }

    // MARK: DATA

    mutating func receiveData(_ bytes: [UInt8], endStream: Bool, length: Int, on id: StreamID) throws(ProtocolError) {
        if bytes.isEmpty && !endStream { try countEmptyFrame() } else if !bytes.isEmpty { emptyFrames = 0 }
        guard id.isClientInitiated && id <= highestStreamID else {
            throw .connection(.protocolError, "DATA on idle \(id)") // §5.1, idle
        }
        // The connection window counts every DATA frame, whatever becomes of its stream (§6.9).
        guard length <= receiveWindow else {
            throw .connection(.flowControlError, "DATA of \(length) octets beyond the connection window of \(receiveWindow)")
        }
        receiveWindow -= length
        guard var stream = streams[id] else {
            consume(length) // nobody reads it: the window is given back at once
            switch closedStreams[id] {
            case .resetByUs?, .ignored?: return // frames in flight when we reset: ignored (§5.1, closed)
            case .finished?: throw .connection(.streamClosed, "DATA on \(id) after it ended")
            case .resetByPeer?, nil: throw .stream(id, .streamClosed, "DATA on closed \(id)")
            }
        }
        switch stream.phase {
        case .halfClosedRemote:
            consume(length)
            throw .stream(id, .streamClosed, "DATA on \(id) after END_STREAM") // §5.1, half-closed (remote)
        case .open, .halfClosedLocal:
            break
        }
        guard length <= stream.receiveWindow else {
            consume(length)
            throw .stream(id, .flowControlError, "DATA of \(length) octets beyond \(id)'s window of \(stream.receiveWindow)")
        }
        stream.receiveWindow -= length
        stream.receivedLength += bytes.count
        if let expected = stream.expectedLength,
           stream.receivedLength > expected || (endStream && stream.receivedLength != expected) {
            consume(length)
            throw .stream(id, .protocolError, "malformed request: \(stream.receivedLength) octets of body, content-length \(expected)")
        }
        events.append(.data(id, bytes, endStream: endStream))
        consume(length)
        if endStream {
            endRemote(id, stream)
        } else {
            // Handed over is consumed: give the stream its window back in half-window steps.
            stream.receivedUnacknowledged += length
            if stream.receivedUnacknowledged >= Swift.max(1, localInitialWindowSize / 2) {
                outbound.append(Frame(stream: id, payload: .windowUpdate(increment: UInt32(stream.receivedUnacknowledged))),
                                control: true)
                stream.receiveWindow += stream.receivedUnacknowledged
                stream.receivedUnacknowledged = 0
            }
            streams[id] = stream
        }
    }

    /// Marks `length` octets of the connection window as consumed, and returns them with a
    /// WINDOW_UPDATE once they reach half the window.
    mutating func consume(_ length: Int) {
        receivedUnacknowledged += length
        if receivedUnacknowledged >= Swift.max(1, configuration.connectionWindowSize / 2) {
            outbound.append(Frame(stream: .connection, payload: .windowUpdate(increment: UInt32(receivedUnacknowledged))),
                            control: true)
            receiveWindow += receivedUnacknowledged
            receivedUnacknowledged = 0
        }
    }

    /// The client's side of `id` ended (END_STREAM received).
    mutating func endRemote(_ id: StreamID, _ state: StreamState) {
        var stream = state
        switch stream.phase {
        case .open:
            stream.phase = .halfClosedRemote
            streams[id] = stream
        case .halfClosedLocal:
            streams[id] = nil
            closedStreams.record(id, .finished)
        case .halfClosedRemote:
            streams[id] = stream // not reached: the caller refused frames after END_STREAM
        }
    }

    /// The receive window a new stream starts with: the client may use the initial value
    /// until it acknowledges ours, so until then the larger of the two (RFC 9113 §6.9.2).
    var localInitialWindowSize: Int {
        localSettingsAcknowledged ? configuration.initialWindowSize
            : Swift.max(configuration.initialWindowSize, Settings.defaultWindowSize)
    }

    // MARK: HEADERS and CONTINUATION

    mutating func checkSize(of block: HeaderBlock) throws(ProtocolError) {
        let limit = configuration.maxHeaderListSize + configuration.limits.headerBlockSlack
        guard block.bytes.count <= limit else {
            throw .connection(.enhanceYourCalm, "a header block of more than \(limit) octets")
        }
    }

    mutating func receiveHeaderBlock(_ block: HeaderBlock) throws(ProtocolError) {
        let id = block.stream
        // Every block is decoded, even one whose stream is ignored: the table must follow
        // the client's encoder (§4.3).
        let fields: [HeaderField]
        do {
            fields = try decoder.decode(block.bytes)
        } catch {
            throw .connection(error.code, error.description)
        }
        emptyFrames = 0
        if block.priority?.dependency == id && (streams[id] != nil || id > highestStreamID) {
            if id > highestStreamID { highestStreamID = id }
            throw .stream(id, .protocolError, "\(id) depends on itself") // §5.3.1
        }
        if var stream = streams[id] {
            switch stream.phase {
            case .halfClosedRemote:
                throw .stream(id, .streamClosed, "HEADERS on \(id) after END_STREAM")
            case .open, .halfClosedLocal:
                // A second HEADERS is the trailer section, which must end the stream (§8.1).
                guard block.endStream else { throw .stream(id, .protocolError, "trailers on \(id) without END_STREAM") }
                try FieldValidation.trailers(fields, stream: id)
                if let expected = stream.expectedLength, stream.receivedLength != expected {
                    throw .stream(id, .protocolError, "malformed request: \(stream.receivedLength) octets of body, content-length \(expected)")
                }
                stream.receivedUnacknowledged = 0
                events.append(.trailers(id, fields))
                endRemote(id, stream)
            }
            return
        }
        guard id > highestStreamID else {
            switch closedStreams[id] {
            case .resetByUs?, .ignored?: return
            case .resetByPeer?: throw .stream(id, .streamClosed, "HEADERS on \(id) after RST_STREAM")
            case .finished?: throw .connection(.streamClosed, "HEADERS on \(id) after it ended")
            case nil: throw .connection(.protocolError, "HEADERS opening \(id), not above \(highestStreamID)") // §5.1.1
            }
        }
        // A new stream; the idle streams below it are now closed (§5.1.1).
        highestStreamID = id
        if let last = goAwayLastStream, id > last {
            closedStreams.record(id, .ignored) // §6.8: after GOAWAY, new streams are ignored
            return
        }
        guard streams.count < configuration.maxConcurrentStreams else {
            throw .stream(id, .refusedStream, "more than \(configuration.maxConcurrentStreams) concurrent streams")
        }
        guard bufferedResponseBytes < configuration.limits.maxBufferedResponseBytes else {
            throw .stream(id, .refusedStream, "\(bufferedResponseBytes) response octets wait for the client's windows")
        }
        let head = try FieldValidation.request(fields, stream: id, endStream: block.endStream)
        var stream = StreamState(phase: block.endStream ? .halfClosedRemote : .open,
                                 sendWindow: peerSettings.initialWindowSize, receiveWindow: localInitialWindowSize)
        stream.expectedLength = head.contentLength
        streams[id] = stream
        lastAcceptedStreamID = id
        events.append(.request(id, head, endStream: block.endStream))
    }

    // MARK: RST_STREAM and WINDOW_UPDATE

    mutating func receiveReset(_ code: ErrorCode, on id: StreamID) throws(ProtocolError) {
        guard id.isClientInitiated && id <= highestStreamID else {
            throw .connection(.protocolError, "RST_STREAM on idle \(id)") // §6.4
        }
        guard let stream = streams.removeValue(forKey: id) else {
            return try countControlFrame() // already closed: nothing to do, but it is a frame to pay for
        }
        bufferedResponseBytes -= stream.pendingCount
        closedStreams.record(id, .resetByPeer)
        events.append(.streamReset(id, code))
        // Opening streams and resetting them at once costs the client nothing and us a
        // request each (CVE-2023-44487, rapid reset).
        guard resetMeter.record(at: clock) else {
            throw .connection(.enhanceYourCalm, "too many streams reset (more than \(configuration.limits.streamResets.burst) at once)")
        }
    }

    mutating func receiveWindowUpdate(_ increment: UInt32, on id: StreamID) throws(ProtocolError) {
        if id == .connection {
            guard increment > 0 else { throw .connection(.protocolError, "WINDOW_UPDATE of 0 on the connection") } // §6.9
            guard sendWindow + Int(increment) <= Settings.maxWindowSize else {
                throw .connection(.flowControlError, "the connection window above 2^31-1") // §6.9.1
            }
            sendWindow += Int(increment)
            return
        }
        guard id.isClientInitiated && id <= highestStreamID else {
            throw .connection(.protocolError, "WINDOW_UPDATE on idle \(id)")
        }
        guard var stream = streams[id] else { return } // closed: WINDOW_UPDATE may arrive late (§6.9)
        guard increment > 0 else { throw .stream(id, .protocolError, "WINDOW_UPDATE of 0 on \(id)") }
        guard stream.sendWindow + Int(increment) <= Settings.maxWindowSize else {
            throw .stream(id, .flowControlError, "\(id)'s window above 2^31-1")
        }
        stream.sendWindow += Int(increment)
        enqueueIfWritable(id, &stream)
        streams[id] = stream
    }

    // MARK: SETTINGS

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
                if delta > 0 { enqueueIfWritable(id, &stream) }
                streams[id] = stream
            }
        }
        outbound.append(Frame(stream: .connection, payload: .settings(ack: true, parameters: [])), control: true)
        if phase == .awaitingSettings { phase = .open }
    }

    /// The client acknowledged our SETTINGS: the values we announced now hold.
    mutating func acknowledgeLocalSettings() {
        // An acknowledgement we did not ask for changes nothing (the control budget paid for it).
        guard !localSettingsAcknowledged else { return }
        localSettingsAcknowledged = true
        decoder.setMaxAllowedTableSize(configuration.headerTableSize)
        // Streams opened meanwhile got the larger window; they now have ours (§6.9.2).
        let delta = configuration.initialWindowSize - Swift.max(configuration.initialWindowSize, Settings.defaultWindowSize)
        guard delta != 0 else { return }
        for id in Array(streams.keys) { streams[id]?.receiveWindow += delta }
    }

    // MARK: Budgets

    mutating func countControlFrame() throws(ProtocolError) {
        guard controlMeter.record(at: clock) else {
            throw .connection(.enhanceYourCalm, "a flood of control frames (more than \(configuration.limits.controlFrames.burst) at once)")
        }
    }

    mutating func countEmptyFrame() throws(ProtocolError) {
        emptyFrames += 1
        guard emptyFrames <= configuration.limits.maxEmptyFrames else {
            throw .connection(.enhanceYourCalm, "more than \(configuration.limits.maxEmptyFrames) frames in a row without content")
        }
    }
}
