/// The server side of one HTTP/2 connection (RFC 9113) as a state machine without I/O:
/// the transport feeds it received octets with `receive(_:now:)`, gets back what the
/// client did as `ServerEvent`s, answers streams with `respond` (or `sendHeaders`,
/// `sendData`, `sendTrailers`), and writes what `takeOutbound` returns to the socket.
///
/// It speaks h2c with prior knowledge: the client preface comes first, then frames. It
/// answers PING and SETTINGS, keeps both directions' flow control (request data is
/// acknowledged as soon as it is handed over; response data waits for the client's
/// windows, down to one octet), validates requests, and bounds what a hostile peer can
/// make it hold or do (`ServerConfiguration.Limits`). Every error the client makes ends
/// in RST_STREAM or GOAWAY with the RFC's code; none traps.
///
/// Time is an input: `now` is any monotonic clock reading (the rate limits use it).
/// Idle and stall timeouts are the transport's: it reads `openStreamCount`,
/// `isStalledByFlowControl` and `isAwaitingSettingsAcknowledgement` and calls `goAway`.
public struct ServerConnection: Sendable, ReceivingConnection {
    enum Phase: Hashable, Sendable {
        /// The preface is received; the client's first frame must be SETTINGS (RFC 9113 §3.4).
        case awaitingSettings
        case open
        /// A GOAWAY ended the connection (our error, or `goAway` with an error code).
        case closed
    }

    public let configuration: ServerConfiguration
    /// The client's SETTINGS as they stand.
    public internal(set) var peerSettings = Settings()

    var phase = Phase.awaitingSettings
    var parser: FrameParser
    var decoder: HPACKDecoder
    var encoder = HPACKEncoder()
    var outbound = OutboundBuffer()
    var streams = StreamMap<StreamState>()
    var pendingOutput = StreamMap<PendingOutput>()
    var closedStreams: ClosedStreams
    var dataQueue = StreamQueue()
    var headerBlock: HeaderBlock?
    /// The highest stream the client started (opened, refused or ignored): every stream
    /// above is idle, every one below without state is closed (RFC 9113 §5.1.1).
    var highestStreamID = StreamID(0)
    /// The highest stream handed to the application: GOAWAY's last stream identifier.
    var lastAcceptedStreamID = StreamID(0)
    /// The last stream of the GOAWAY we sent, once sent; streams above are ignored.
    var goAwayLastStream: StreamID?
    /// The PING of a graceful shutdown, whose acknowledgement sends the final GOAWAY.
    var shutdownPing: UInt64?
    var localSettingsAcknowledged = false

    /// What we may send on the connection (RFC 9113 §6.9).
    var sendWindow = Settings.defaultWindowSize
    var sendWindowCeiling = Settings.defaultWindowSize
    /// What the client may still send on the connection, and what it sent that we have
    /// handed over but not yet acknowledged.
    var receiveWindow = Settings.defaultWindowSize
    var receivedUnacknowledged = 0
    /// Response octets queued in streams (not yet in `outbound`).
    var queuedDataBytes = 0

    var resetMeter: RateMeter
    var controlMeter: RateMeter
    var emptyFrames = 0
    public internal(set) var framesReceived = 0
    /// The latest `now`, in nanoseconds.
    var clock: Int64 = 0
    /// Events of the `receive` call in progress.
    var events: [ServerEvent] = []

    /// A connection that has sent its SETTINGS (and a WINDOW_UPDATE raising the
    /// connection window, when configured above 65 535) and awaits the client preface.
    /// - Complexity: O(1).
    public init(configuration: ServerConfiguration = ServerConfiguration()) {
        self.configuration = configuration
        parser = FrameParser(maxFrameSize: configuration.maxFrameSize, expectingClientPreface: true)
        decoder = HPACKDecoder(maxTableSize: Swift.max(configuration.headerTableSize, 4_096),
                               maxHeaderListSize: configuration.maxHeaderListSize)
        closedStreams = ClosedStreams(capacity: configuration.limits.closedStreamMemory)
        resetMeter = RateMeter(configuration.limits.streamResets)
        controlMeter = RateMeter(configuration.limits.controlFrames)
        // "The server connection preface consists of a potentially empty SETTINGS frame
        // that MUST be the first frame the server sends" (§3.4); no need to wait for the client's.
        outbound.append(Frame(stream: .connection, payload: .settings(ack: false, parameters: configuration.settings.parameters)))
        // Until the client acknowledges, it may use the initial values: accept the larger.
        receiveWindow = Settings.defaultWindowSize
        raiseConnectionWindow()
    }

    // MARK: Receiving

    /// Processes received octets, in chunks of any size, and returns what the client did.
    /// Answers (acknowledgements, resets, GOAWAY) are queued for `takeOutbound`.
    /// - Parameter now: a monotonic clock reading, any origin; it only moves forward.
    /// - Complexity: O(n + f), n the octets and f the octets of decoded fields.
    public mutating func receive(_ bytes: [UInt8], now: Duration) -> [ServerEvent] {
        bytes.withUnsafeBytes { receive($0, now: now) }
    }

    /// Processes received octets; see `receive(_:now:)`.
    /// - Complexity: O(n + f), n the octets and f the octets of decoded fields.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [ServerEvent] {
        guard phase != .closed else { return [] } // after our GOAWAY nothing more is read
        readFrames(bytes, now: now)
        scheduleData()
        checkInvariants()
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    var isClosed: Bool { phase == .closed }

    mutating func withEncoderAndOutbound<Result>(_ body: (inout HPACKEncoder, inout OutboundBuffer) -> Result) -> Result {
        body(&encoder, &outbound)
    }

    var connectionWindowSize: Int { configuration.connectionWindowSize }

    var receiveLimits: ReceiveLimits {
        ReceiveLimits(initialWindowSize: configuration.initialWindowSize, headerTableSize: configuration.headerTableSize,
                      maxHeaderListSize: configuration.maxHeaderListSize,
                      maxContinuationFrames: configuration.limits.maxContinuationFrames,
                      headerBlockSlack: configuration.limits.headerBlockSlack, controlFrames: configuration.limits.controlFrames,
                      maxEmptyFrames: configuration.limits.maxEmptyFrames,
                      maxPendingControlFrames: configuration.limits.maxPendingControlFrames)
    }

    /// Client-initiated streams above the highest seen, and every server-initiated one (we never push).
    func isIdle(_ id: StreamID) -> Bool { !(id.isClientInitiated && id <= highestStreamID) }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let scaled = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if scaled.overflow { return seconds < 0 ? Int64.min / 2 : Int64.max / 2 }
        return scaled.partialValue &+ attoseconds / 1_000_000_000
    }

    /// A stream error resets its stream and goes on; a connection error ends the connection.
    mutating func handle(_ error: ProtocolError) {
        guard let stream = error.stream else { return fail(error) }
        // RST_STREAM "MUST NOT be sent for a stream in the idle state": such an error is the connection's.
        guard stream.isClientInitiated && stream <= highestStreamID else {
            return fail(.connection(error.code, error.reason))
        }
        resetStream(stream, error: error)
        guard resetMeter.record(at: clock) else {
            return fail(.connection(.enhanceYourCalm, "too many streams reset (more than \(configuration.limits.streamResets.burst) at once)"))
        }
    }

    /// Resets `id` with RST_STREAM for `error`, telling the application if it knew the stream.
    mutating func resetStream(_ id: StreamID, error: ProtocolError) {
        if removeStream(id) != nil { events.append(.streamError(error)) }
        closedStreams.record(id, .resetByUs)
        outbound.append(Frame(stream: id, payload: .rstStream(error.code)), control: true)
    }

    /// Ends the connection: GOAWAY with the error, then nothing more is read or sent.
    mutating func fail(_ error: ProtocolError) {
        guard phase != .closed else { return }
        phase = .closed
        // The reason as debug data (RFC 9113 §6.8), bounded: it is our text, never the peer's.
        let debug = Array(error.reason.utf8.prefix(256))
        outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: lastAcceptedStreamID, code: error.code, debug: debug)))
        goAwayLastStream = lastAcceptedStreamID
        removeAllStreams()
        headerBlock = nil
        events.append(.connectionError(.connection(error.code, error.reason)))
    }

    // MARK: What the transport reads

    /// Whether octets are waiting for `takeOutbound`.
    /// - Complexity: O(1).
    public var hasOutbound: Bool { !outbound.isEmpty }

    /// Octets waiting for `takeOutbound`.
    /// - Complexity: O(1).
    public var outboundByteCount: Int { outbound.count }

    /// Removes and returns up to `maxBytes` octets to send, then refills from the streams'
    /// queued data as flow control allows. A transport should take only what the socket
    /// accepts: what stays here counts against `maxPendingControlFrames`.
    /// - Complexity: O(n), n the octets returned.
    public mutating func takeOutbound(maxBytes: Int = .max) -> [UInt8] {
        let bytes = outbound.take(maxBytes: maxBytes)
        scheduleData()
        return bytes
    }

    /// Response octets queued behind the client's flow-control windows.
    /// - Complexity: O(1).
    public var bufferedResponseBytes: Int { queuedDataBytes }

    /// Streams open or half-closed: 0 for an idle connection.
    /// - Complexity: O(1).
    public var openStreamCount: Int { streams.count }

    /// Whether response data waits for the client's flow-control windows and nothing can
    /// be sent: a transport times such a connection out.
    /// - Complexity: O(1).
    public var isStalledByFlowControl: Bool { bufferedResponseBytes > 0 && outbound.isEmpty }

    /// Whether our SETTINGS is still unacknowledged (a transport may answer a long wait
    /// with `goAway(code: .settingsTimeout)`, RFC 9113 §6.5.3).
    /// - Complexity: O(1).
    public var isAwaitingSettingsAcknowledgement: Bool { !localSettingsAcknowledged }

    /// Whether the connection is over: closed by an error, or gone away with every stream
    /// finished. The transport sends what is left in `takeOutbound`, then closes.
    /// - Complexity: O(1).
    public var isFinished: Bool { phase == .closed || (goAwayLastStream != nil && shutdownPing == nil && streams.isEmpty) }

    /// With `-DPUSHSIM_INVARIANTS` (the test builds): the books balance after every call.
    /// Compiled out otherwise.
    /// - Complexity: O(s), s the open streams, with the flag; O(1) without.
    func checkInvariants() {
        #if PUSHSIM_INVARIANTS
        var buffered = 0
        var queued = 0
        for (id, state) in streams {
            precondition(id.isClientInitiated && id <= highestStreamID, "\(id) has state above the highest stream")
            let output = pendingOutput[id]
            precondition(state.pendingCount == (output.map { $0.data.count - $0.offset } ?? 0), "\(id)'s pending octets out of step")
            precondition(state.hasPendingTrailers == (output?.trailers != nil), "\(id)'s pending trailers out of step")
            precondition(state.sendWindow <= Settings.maxWindowSize, "\(id) send window above 2^31-1")
            precondition(state.sendWindow <= state.sendWindowCeiling, "\(id) send window above its ceiling")
            buffered += state.pendingCount
            if state.queued { queued += 1 }
        }
        precondition(pendingOutput.allSatisfy { streams[$0.key] != nil }, "output queued for a stream without state")
        precondition(buffered == queuedDataBytes, "queued response octets \(buffered) ≠ \(queuedDataBytes)")
        precondition(queued <= dataQueue.count, "\(queued) streams marked queued, \(dataQueue.count) in the queue")
        precondition(streams.count <= configuration.maxConcurrentStreams, "more streams than SETTINGS_MAX_CONCURRENT_STREAMS")
        precondition(sendWindow <= Settings.maxWindowSize && receiveWindow >= 0, "connection windows out of range")
        precondition(sendWindow <= sendWindowCeiling, "the connection's send window above its ceiling")
        precondition(phase != .closed || streams.isEmpty, "a closed connection with streams")
        #endif
    }
}
