/// What each received frame does to the connection (RFC 9113 §5.1 states, §6 frame
/// definitions, §8 HTTP semantics).
extension ServerConnection {
    mutating func process(_ frame: Frame) throws(ProtocolError) {
        try checkHeaderBlockContinues(with: frame)
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
            try fragment.withUnsafeBufferPointer { fragment throws(ProtocolError) in
                try processHeaders(fragment, stream: id, endStream: endStream, endHeaders: endHeaders, priority: priority)
            }
        case .continuation(let fragment, let endHeaders):
            try receiveContinuation(fragment, endHeaders: endHeaders, on: id)
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
            if phase == .awaitingSettings { phase = .open }
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
            // Without effect it is a frame to pay for, like PING (the WINDOW_UPDATE flood).
            if try !receiveWindowUpdate(increment, on: id) { try countControlFrame() }
        case .unknown:
            // §5.5: "Implementations MUST ignore unknown or unsupported values ... frames of unknown types".
            try countControlFrame()
        }
    }

    /// What a HEADERS frame does (`process`'s checks of every frame first), its fragment
    /// read where it lies.
    mutating func processHeaders(_ fragment: UnsafeBufferPointer<UInt8>, stream id: StreamID, endStream: Bool, endHeaders: Bool,
                                 priority: Priority?) throws(ProtocolError) {
        try checkNoHeaderBlock()
        guard phase != .awaitingSettings else { throw .connection(.protocolError, "the client preface is not followed by SETTINGS") }
        // §5.1.1: "Streams initiated by a client MUST use odd-numbered stream identifiers".
        guard id.isClientInitiated else { throw .connection(.protocolError, "HEADERS on even-numbered \(id)") }
        try receiveHeaders(fragment, endStream: endStream, endHeaders: endHeaders, priority: priority, on: id)
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
            acknowledge(length, on: id, &stream) // handed over is consumed
            streams[id] = stream
        }
    }

    // MARK: HEADERS and CONTINUATION

    mutating func receiveHeaderBlock(stream id: StreamID, endStream: Bool, priority: Priority?,
                                     _ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) {
        // Every block is decoded, even one whose stream is ignored: the table must follow
        // the client's encoder (§4.3).
        let fields = try decodeFields(bytes)
        if priority?.dependency == id && (streams[id] != nil || id > highestStreamID) {
            if id > highestStreamID { highestStreamID = id }
            throw .stream(id, .protocolError, "\(id) depends on itself") // §5.3.1
        }
        if var stream = streams[id] {
            switch stream.phase {
            case .halfClosedRemote:
                throw .stream(id, .streamClosed, "HEADERS on \(id) after END_STREAM")
            case .open, .halfClosedLocal:
                // A second HEADERS is the trailer section, which must end the stream (§8.1).
                guard endStream else { throw .stream(id, .protocolError, "trailers on \(id) without END_STREAM") }
                try FieldValidation.trailers(fields, stream: id)
                if let expected = stream.expectedLength, stream.receivedLength != expected {
                    throw .stream(id, .protocolError, "malformed request: \(stream.receivedLength) octets of body, content-length \(expected)")
                }
                stream.receivedUnacknowledged = 0
                events.append(.trailers(id, Array(fields)))
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
        let head = try FieldValidation.request(fields, stream: id, endStream: endStream)
        var stream = StreamState(phase: endStream ? .halfClosedRemote : .open,
                                 sendWindow: peerSettings.initialWindowSize, receiveWindow: localInitialWindowSize)
        stream.expectedLength = head.contentLength
        streams[id] = stream
        lastAcceptedStreamID = id
        events.append(.request(id, head, endStream: endStream))
    }

    // MARK: RST_STREAM

    mutating func receiveReset(_ code: ErrorCode, on id: StreamID) throws(ProtocolError) {
        guard id.isClientInitiated && id <= highestStreamID else {
            throw .connection(.protocolError, "RST_STREAM on idle \(id)") // §6.4
        }
        guard removeStream(id) != nil else {
            return try countControlFrame() // already closed: nothing to do, but it is a frame to pay for
        }
        closedStreams.record(id, .resetByPeer)
        events.append(.streamReset(id, code))
        // Opening streams and resetting them at once costs the client nothing and us a
        // request each (CVE-2023-44487, rapid reset).
        guard resetMeter.record(at: clock) else {
            throw .connection(.enhanceYourCalm, "too many streams reset (more than \(configuration.limits.streamResets.burst) at once)")
        }
    }
}
