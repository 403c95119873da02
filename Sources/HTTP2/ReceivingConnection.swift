/// A header block being received: HEADERS without END_HEADERS, then CONTINUATIONs.
struct HeaderBlock: Sendable {
    var stream: StreamID
    var bytes: [UInt8]
    var endStream: Bool
    var priority: Priority?
    var continuations = 0
}

/// What an endpoint announced and enforces on what it receives, whichever side it is.
struct ReceiveLimits: Sendable {
    /// Our SETTINGS_INITIAL_WINDOW_SIZE, SETTINGS_HEADER_TABLE_SIZE and SETTINGS_MAX_HEADER_LIST_SIZE.
    var initialWindowSize: Int
    var headerTableSize: Int
    var maxHeaderListSize: Int
    /// CONTINUATION frames after one HEADERS, and the compressed octets a block may have
    /// beyond the header list size (CVE-2024-27316).
    var maxContinuationFrames: Int
    var headerBlockSlack: Int
    /// PING, SETTINGS, PRIORITY, GOAWAY, unknown frames (CVE-2019-9512, -9513, -9515).
    var controlFrames: RateLimit
    /// Consecutive frames without content (CVE-2019-9518).
    var maxEmptyFrames: Int
    /// Answers (acknowledgements, resets, window updates) the transport has not taken.
    var maxPendingControlFrames: Int
}

/// What both ends do alike with what they receive: field blocks gathered from HEADERS and
/// CONTINUATION within their limits (RFC 9113 §4.3, §6.10), the budgets against floods of
/// control and empty frames, and our SETTINGS taking effect once the peer acknowledges them.
protocol ReceivingConnection: FlowControlledConnection {
    var parser: FrameParser { get set }
    var headerBlock: HeaderBlock? { get set }
    var decoder: HPACKDecoder { get set }
    var controlMeter: RateMeter { get set }
    var emptyFrames: Int { get set }
    /// Whole frames read so far: what a transport counts as the peer's activity (a byte
    /// now and then is not).
    /// - Complexity: O(1).
    var framesReceived: Int { get set }
    /// The latest `now`, in nanoseconds.
    var clock: Int64 { get set }
    var localSettingsAcknowledged: Bool { get set }
    var receiveLimits: ReceiveLimits { get }
    /// A whole field block of `stream`, to decode and act on.
    mutating func receiveHeaderBlock(stream: StreamID, endStream: Bool, priority: Priority?,
                                     _ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError)
    /// What one frame does.
    mutating func process(_ frame: Frame) throws(ProtocolError)
    /// What a HEADERS frame does, its fragment read where it lies: `process`'s checks of
    /// every frame, then `receiveHeaders`.
    mutating func processHeaders(_ fragment: UnsafeBufferPointer<UInt8>, stream: StreamID, endStream: Bool, endHeaders: Bool,
                                 priority: Priority?) throws(ProtocolError)
    /// A stream error resets its stream; a connection error ends the connection.
    mutating func handle(_ error: ProtocolError)
    /// Ends the connection for the peer's error: GOAWAY.
    mutating func fail(_ error: ProtocolError)
}

extension ReceivingConnection {
    /// Parses and acts on received octets, frame by frame, until they run out or the
    /// connection ends; a peer that sends without reading our answers ends it.
    mutating func readFrames(_ bytes: UnsafeRawBufferPointer, now: Duration) {
        clock = Swift.max(clock, ServerConnection.nanoseconds(now))
        // The parser is taken out while its frames are acted on: a HEADERS frame's block is
        // then decoded where it lies in the parser's buffer, not copied into a frame value.
        var input = parser
        parser = FrameParser()
        defer {
            input.releaseStorageIfEmpty()
            parser = input
        }
        input.append(bytes)
        let maxPending = receiveLimits.maxPendingControlFrames
        while !isClosed {
            do {
                guard let next = try input.nextFrameInPlace() else { break }
                framesReceived += 1
                if next.type == FrameType.headers {
                    try input.withPayload(of: next) { payload throws(ProtocolError) in
                        let headers = try FrameParser.headers(flags: next.flags, stream: next.stream, payload: payload)
                        try processHeaders(headers.fragment, stream: next.stream, endStream: next.flags & FrameFlag.endStream != 0,
                                           endHeaders: next.flags & FrameFlag.endHeaders != 0, priority: headers.priority)
                    }
                } else {
                    try process(input.frame(next))
                }
            } catch {
                handle(error)
            }
            if outbound.pendingControlFrames > maxPending {
                fail(.connection(.enhanceYourCalm, "more than \(maxPending) answers the peer has not read"))
            }
        }
    }

    /// Our preface's WINDOW_UPDATE raising the connection's receive window from 65 535 to
    /// `connectionWindowSize`, when it is larger.
    mutating func raiseConnectionWindow() {
        guard connectionWindowSize > Settings.defaultWindowSize else { return }
        let increment = Swift.min(connectionWindowSize, Settings.maxWindowSize) - Settings.defaultWindowSize
        outbound.append(Frame(stream: .connection, payload: .windowUpdate(increment: UInt32(increment))))
        receiveWindow += increment
    }

    /// "A receiver MUST treat the receipt of any other type of frame or a frame on a
    /// different stream as a connection error of type PROTOCOL_ERROR" (§6.10).
    func checkHeaderBlockContinues(with frame: Frame) throws(ProtocolError) {
        guard case .continuation = frame.payload else { return try checkNoHeaderBlock() }
        guard let block = headerBlock, frame.stream != block.stream else { return }
        throw .connection(.protocolError, "a header block on \(block.stream) interrupted before END_HEADERS")
    }

    /// A frame other than CONTINUATION may not come while a header block is open (§6.10).
    func checkNoHeaderBlock() throws(ProtocolError) {
        guard let block = headerBlock else { return }
        throw .connection(.protocolError, "a header block on \(block.stream) interrupted before END_HEADERS")
    }

    /// A HEADERS frame: its block is acted on now, where it lies, or once its
    /// CONTINUATIONs end it.
    mutating func receiveHeaders(_ fragment: UnsafeBufferPointer<UInt8>, endStream: Bool, endHeaders: Bool, priority: Priority?,
                                 on id: StreamID) throws(ProtocolError) {
        if fragment.isEmpty && !endHeaders { try countEmptyFrame() }
        try checkSize(fragment.count)
        if endHeaders {
            try receiveHeaderBlock(stream: id, endStream: endStream, priority: priority, fragment)
        } else {
            headerBlock = HeaderBlock(stream: id, bytes: Array(fragment), endStream: endStream, priority: priority)
        }
    }

    /// A CONTINUATION frame, within the block's limits.
    mutating func receiveContinuation(_ fragment: [UInt8], endHeaders: Bool, on id: StreamID) throws(ProtocolError) {
        guard var block = headerBlock else { throw .connection(.protocolError, "CONTINUATION without HEADERS on \(id)") }
        let limits = receiveLimits
        block.continuations += 1
        guard block.continuations <= limits.maxContinuationFrames else {
            throw .connection(.enhanceYourCalm, "more than \(limits.maxContinuationFrames) CONTINUATION frames in one header block")
        }
        if fragment.isEmpty && !endHeaders { try countEmptyFrame() }
        block.bytes.append(contentsOf: fragment)
        try checkSize(block.bytes.count)
        if endHeaders {
            headerBlock = nil
            try block.bytes.withUnsafeBufferPointer { bytes throws(ProtocolError) in
                try receiveHeaderBlock(stream: block.stream, endStream: block.endStream, priority: block.priority, bytes)
            }
        } else {
            headerBlock = block
        }
    }

    /// HPACK never makes a field larger than its size (name + value + 32) except for size
    /// updates, so an honest block fits the header list size plus the slack.
    func checkSize(_ blockSize: Int) throws(ProtocolError) {
        let limit = receiveLimits.maxHeaderListSize + receiveLimits.headerBlockSlack
        guard blockSize <= limit else {
            throw .connection(.enhanceYourCalm, "a header block of more than \(limit) octets")
        }
    }

    /// Decodes a whole block's octets into a new list; an HPACK error is the connection's,
    /// since the table can no longer follow the peer's encoder (§4.3).
    mutating func decodeFields(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> HeaderList {
        var list = HeaderList()
        do {
            try decoder.decode(bytes, into: &list)
        } catch {
            throw .connection(error.code, error.description)
        }
        emptyFrames = 0
        return list
    }

    /// The peer acknowledged our SETTINGS: the values we announced now hold.
    mutating func acknowledgeLocalSettings() {
        // An acknowledgement we did not ask for changes nothing (the control budget paid for it).
        guard !localSettingsAcknowledged else { return }
        localSettingsAcknowledged = true
        let limits = receiveLimits
        decoder.setMaxAllowedTableSize(limits.headerTableSize)
        // Streams opened meanwhile got the larger window; they now have ours (§6.9.2).
        let delta = limits.initialWindowSize - Swift.max(limits.initialWindowSize, Settings.defaultWindowSize)
        guard delta != 0 else { return }
        for id in Array(streams.keys) { streams[id]?.receiveWindow += delta }
    }

    /// The receive window a new stream starts with: the peer may use the initial value
    /// until it acknowledges ours, so until then the larger of the two (RFC 9113 §6.9.2).
    var localInitialWindowSize: Int {
        let configured = receiveLimits.initialWindowSize
        return localSettingsAcknowledged ? configured : Swift.max(configured, Settings.defaultWindowSize)
    }

    mutating func countControlFrame() throws(ProtocolError) {
        guard controlMeter.record(at: clock) else {
            throw .connection(.enhanceYourCalm, "a flood of control frames (more than \(receiveLimits.controlFrames.burst) at once)")
        }
    }

    mutating func countEmptyFrame() throws(ProtocolError) {
        emptyFrames += 1
        guard emptyFrames <= receiveLimits.maxEmptyFrames else {
            throw .connection(.enhanceYourCalm, "more than \(receiveLimits.maxEmptyFrames) frames in a row without content")
        }
    }
}
