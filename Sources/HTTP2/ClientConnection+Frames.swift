/// What each frame the server sends does to a client connection (RFC 9113 §5.1 states,
/// §6 frame definitions, §8 HTTP semantics).
extension ClientConnection {
    mutating func process(_ frame: Frame) throws(ProtocolError) {
        try checkHeaderBlockContinues(with: frame)
        if phase == .awaitingSettings {
            // "The server connection preface consists of a potentially empty SETTINGS frame
            // that MUST be the first frame the server sends" (§3.4).
            guard case .settings(ack: false, _) = frame.payload else {
                throw .connection(.protocolError, "the server's first frame is not SETTINGS")
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
        case .priority:
            try countControlFrame() // deprecated by RFC 9113 and meaningless from a server
        case .rstStream(let code):
            try receiveReset(code, on: id)
        case .settings(let ack, let parameters):
            try countControlFrame()
            if ack { return acknowledgeLocalSettings() }
            try applyPeerSettings(parameters)
            if phase == .awaitingSettings { phase = .open }
        case .pushPromise:
            // §8.4: push is disabled in our SETTINGS; a promise is a PROTOCOL_ERROR (we do not
            // wait for the acknowledgement: the block would have to be decoded to keep HPACK
            // in step, for a stream we would only refuse).
            throw .connection(.protocolError, "PUSH_PROMISE though SETTINGS_ENABLE_PUSH is 0")
        case .ping(let ack, let data):
            try countControlFrame()
            if ack {
                events.append(.pingAcknowledged(data))
            } else {
                outbound.append(Frame(stream: .connection, payload: .ping(ack: true, data: data)), control: true)
                events.append(.ping(data))
            }
        case .goAway(let lastStream, let code, let debug):
            try countControlFrame()
            receiveGoAway(lastStream: lastStream, code: code, debug: debug)
        case .windowUpdate(let increment):
            // Without effect it is a frame to pay for, like PING (the WINDOW_UPDATE flood).
            if try !receiveWindowUpdate(increment, on: id) { try countControlFrame() }
        case .unknown:
            // §5.5: "Implementations MUST ignore unknown or unsupported values ... frames of unknown types".
            try countControlFrame()
        }
    }

    /// What a frame on a stream without state means: ignored when we reset it (frames
    /// were in flight), an error otherwise (RFC 9113 §5.1, closed).
    func checkClosedStream(_ id: StreamID, frame name: String) throws(ProtocolError) {
        switch closedStreams[id] {
        case .resetByUs?, .ignored?: return
        case .finished?: throw .connection(.streamClosed, "\(name) on \(id) after it ended")
        case .resetByPeer?, nil: throw .stream(id, .streamClosed, "\(name) on closed \(id)")
        }
    }

    // MARK: DATA

    mutating func receiveData(_ bytes: [UInt8], endStream: Bool, length: Int, on id: StreamID) throws(ProtocolError) {
        if bytes.isEmpty && !endStream { try countEmptyFrame() } else if !bytes.isEmpty { emptyFrames = 0 }
        guard !isIdle(id) else { throw .connection(.protocolError, "DATA on idle \(id)") }
        // The connection window counts every DATA frame, whatever becomes of its stream (§6.9).
        guard length <= receiveWindow else {
            throw .connection(.flowControlError, "DATA of \(length) octets beyond the connection window of \(receiveWindow)")
        }
        receiveWindow -= length
        consume(length) // received is handed over: the response is gathered here, bounded
        guard var stream = streams[id] else { return try checkClosedStream(id, frame: "DATA") }
        guard stream.phase != .halfClosedRemote else { throw .stream(id, .streamClosed, "DATA on \(id) after END_STREAM") }
        guard length <= stream.receiveWindow else {
            throw .stream(id, .flowControlError, "DATA of \(length) octets beyond \(id)'s window of \(stream.receiveWindow)")
        }
        stream.receiveWindow -= length
        guard var exchange = exchanges[id], exchange.status != nil else {
            throw .stream(id, .protocolError, "malformed response: DATA before the response's HEADERS")
        }
        stream.receivedLength += bytes.count
        if let expected = stream.expectedLength,
           stream.receivedLength > expected || (endStream && stream.receivedLength != expected) {
            throw .stream(id, .protocolError, "malformed response: \(stream.receivedLength) octets of body, content-length \(expected)")
        }
        let limit = configuration.limits.maxResponseBodyBytes
        guard exchange.body.count + bytes.count <= limit else {
            return resetStream(id, code: .cancel, failure: .responseTooLarge(limit: limit))
        }
        exchange.body += bytes
        if endStream {
            complete(id, exchange)
            endRemote(id, stream)
        } else {
            acknowledge(length, on: id, &stream)
            exchanges[id] = exchange
            streams[id] = stream
        }
    }

    /// The response on `id` is whole: reported, and forgotten.
    mutating func complete(_ id: StreamID, _ exchange: Exchange) {
        exchanges[id] = nil
        streamOfRequest[exchange.request] = nil
        events.append(.response(exchange.request, ClientResponse(status: exchange.status ?? 0, fields: exchange.fields,
                                                                 body: exchange.body, trailers: exchange.trailers)))
    }

    // MARK: HEADERS

    /// What a HEADERS frame does (`process`'s checks of every frame first), its fragment
    /// read where it lies.
    mutating func processHeaders(_ fragment: UnsafeBufferPointer<UInt8>, stream id: StreamID, endStream: Bool, endHeaders: Bool,
                                 priority: Priority?) throws(ProtocolError) {
        try checkNoHeaderBlock()
        guard phase != .awaitingSettings else { throw .connection(.protocolError, "the server's first frame is not SETTINGS") }
        try receiveHeaders(fragment, endStream: endStream, endHeaders: endHeaders, priority: priority, on: id)
    }

    mutating func receiveHeaderBlock(stream id: StreamID, endStream: Bool, priority: Priority?,
                                     _ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) {
        // Every block is decoded, even one whose stream is gone: the table must follow the
        // server's encoder (§4.3).
        let fields = Array(try decodeFields(bytes))
        guard var stream = streams[id] else {
            guard !isIdle(id) else { throw .connection(.protocolError, "HEADERS on idle \(id)") }
            return try checkClosedStream(id, frame: "HEADERS")
        }
        guard stream.phase != .halfClosedRemote else { throw .stream(id, .streamClosed, "HEADERS on \(id) after END_STREAM") }
        guard var exchange = exchanges[id] else { throw .stream(id, .protocolError, "HEADERS on \(id), whose response ended") }
        if exchange.status == nil {
            let head = try FieldValidation.response(fields, stream: id)
            if head.status < 200 {
                // Informational (§8.1): skipped; the final response follows on the stream.
                guard !endStream else { throw .stream(id, .protocolError, "malformed response: \(head.status) ending the stream") }
                return
            }
            exchange.status = head.status
            exchange.fields = head.fields
            // A response to HEAD, a 204 and a 304 have no body whatever content-length says.
            if !exchange.isHead && head.status != 204 && head.status != 304 { stream.expectedLength = head.contentLength }
        } else {
            // A second block is the trailer section, which must end the stream (§8.1).
            guard endStream else { throw .stream(id, .protocolError, "malformed response: trailers without END_STREAM") }
            for field in fields {
                if field.isPseudo { throw .stream(id, .protocolError, "malformed response: pseudo-header field \(field.nameString) in trailers") }
                if let problem = FieldValidation.regularFieldProblem(field) {
                    throw .stream(id, .protocolError, "malformed response: trailers with " + problem)
                }
            }
            exchange.trailers = fields
        }
        if endStream {
            if let expected = stream.expectedLength, stream.receivedLength != expected {
                throw .stream(id, .protocolError, "malformed response: \(stream.receivedLength) octets of body, content-length \(expected)")
            }
            complete(id, exchange)
            endRemote(id, stream)
        } else {
            exchanges[id] = exchange
            streams[id] = stream
        }
    }

    // MARK: RST_STREAM and GOAWAY

    mutating func receiveReset(_ code: ErrorCode, on id: StreamID) throws(ProtocolError) {
        guard !isIdle(id) else { throw .connection(.protocolError, "RST_STREAM on idle \(id)") } // §6.4
        guard removeStream(id) != nil else {
            return try countControlFrame() // already closed: nothing to do, but it is a frame to pay for
        }
        closedStreams.record(id, .resetByPeer)
        // After a whole response, RST_STREAM (NO_ERROR) only stops the rest of our request (§8.1).
        guard let exchange = exchanges.removeValue(forKey: id) else { return }
        streamOfRequest[exchange.request] = nil
        // REFUSED_STREAM: "no application processing" happened (§8.7), the request may go again.
        events.append(.failed(exchange.request, code == .refusedStream ? .notProcessed(code) : .reset(code)))
    }

    /// The server goes away (§6.8): streams above its last one were not processed and
    /// fail as retryable, as do the requests still waiting; no new stream opens.
    mutating func receiveGoAway(lastStream: StreamID, code: ErrorCode, debug: [UInt8]) {
        // A later GOAWAY may only lower the last stream; never raise what was refused.
        let last = Swift.min(lastStream, goAwayLastStream ?? .max)
        goAwayLastStream = last
        if code != .noError {
            goAwayError = (code, "the server's GOAWAY: " + String(decoding: debug.prefix(256), as: UTF8.self))
        }
        for id in streams.keys.sorted() where id > last {
            _ = removeStream(id)
            closedStreams.record(id, .ignored)
            if let exchange = exchanges.removeValue(forKey: id) {
                streamOfRequest[exchange.request] = nil
                events.append(.failed(exchange.request, .notProcessed(code)))
            }
        }
        for entry in waiting.removeAll() { events.append(.failed(entry.id, .notProcessed(code))) }
        events.append(.goAway(lastStream: lastStream, code: code, debug: debug))
    }
}
