/// The client side of one HTTP/2 connection (RFC 9113) as a state machine without I/O,
/// the mirror of `ServerConnection`: requests go in with `send`, the transport writes
/// what `takeOutbound` returns to the socket, feeds received octets to
/// `receive(_:now:)`, and gets back each request's whole response (or its failure) as
/// `ClientEvent`s.
///
/// It speaks h2c with prior knowledge: the client preface and our SETTINGS are queued at
/// once. Requests wait for the server's SETTINGS (its preface, sent as soon as it accepts)
/// so that every stream opens within the server's SETTINGS_MAX_CONCURRENT_STREAMS; beyond
/// it they wait their turn. Streams take odd identifiers in order (1, 3, 5, …); request
/// bodies go out within the server's windows (down to one octet), and response data is
/// acknowledged as it arrives. It answers PING and SETTINGS, follows GOAWAY (the requests
/// it names unprocessed fail as retryable, no new stream opens), and bounds what a hostile
/// server can make it hold (`ClientConfiguration.Limits`). Every error the server makes
/// ends in RST_STREAM or GOAWAY with the RFC's code and fails the requests it touches;
/// none traps.
///
/// Time is an input, as for the server: `now` is any monotonic clock reading (the rate
/// limits use it). Deadlines are the transport's: it calls `cancel` for a request whose
/// time ran out, and `connectionLost` when the socket ends.
public struct ClientConnection: Sendable, ReceivingConnection {
    enum Phase: Hashable, Sendable {
        /// Our preface is queued; the server's first frame must be SETTINGS (RFC 9113 §3.4).
        case awaitingSettings
        case open
        /// The connection ended: our GOAWAY for an error, or the transport lost it.
        case closed
    }

    /// What a stream we opened carries besides its flow-control state: the request it
    /// answers and the response as it arrives.
    struct Exchange: Sendable {
        var request: RequestID
        /// A response to HEAD has no body whatever its `content-length` says (RFC 9110 §9.3.2).
        var isHead: Bool
        var status: Int?
        var fields: [HeaderField] = []
        var body: [UInt8] = []
        var trailers: [HeaderField] = []
    }

    public let configuration: ClientConfiguration
    /// The server's SETTINGS as they stand.
    public internal(set) var peerSettings = Settings()

    var phase = Phase.awaitingSettings
    var parser: FrameParser
    var decoder: HPACKDecoder
    var encoder = HPACKEncoder()
    var outbound = OutboundBuffer()
    var streams = StreamMap<StreamState>()
    var pendingOutput = StreamMap<PendingOutput>()
    var exchanges = StreamMap<Exchange>()
    /// The stream each request got, while it has one.
    var streamOfRequest: [RequestID: StreamID] = [:]
    /// A request waiting for a stream.
    struct WaitingRequest: Sendable {
        var id: RequestID
        var request: ClientRequest
    }

    /// Requests waiting for a stream, oldest first.
    var waiting = FIFOQueue<WaitingRequest>()
    var closedStreams: ClosedStreams
    var dataQueue = StreamQueue()
    var headerBlock: HeaderBlock?
    /// The identifier the next stream takes.
    var nextStreamID: UInt32 = 1
    var nextRequestNumber = 1
    /// The last stream of the server's GOAWAY, once received: no stream opens after it.
    var goAwayLastStream: StreamID?
    /// The error code of the server's GOAWAY, when it was not NO_ERROR: what the requests
    /// still in flight fail with if the connection then ends.
    var goAwayError: (code: ErrorCode, reason: String)?
    /// We went away (`goAway`): no new requests.
    var goingAway = false
    var localSettingsAcknowledged = false

    var sendWindow = Settings.defaultWindowSize
    var sendWindowCeiling = Settings.defaultWindowSize
    var receiveWindow = Settings.defaultWindowSize
    var receivedUnacknowledged = 0
    var queuedDataBytes = 0

    var controlMeter: RateMeter
    var emptyFrames = 0
    public internal(set) var framesReceived = 0
    var clock: Int64 = 0
    /// Events of the call in progress.
    var events: [ClientEvent] = []

    /// A connection whose client preface, SETTINGS (and a WINDOW_UPDATE raising the
    /// connection window, when configured above 65 535) are queued for the transport.
    /// - Complexity: O(1).
    public init(configuration: ClientConfiguration = ClientConfiguration()) {
        self.configuration = configuration
        parser = FrameParser(maxFrameSize: configuration.maxFrameSize)
        decoder = HPACKDecoder(maxTableSize: Swift.max(configuration.headerTableSize, 4_096),
                               maxHeaderListSize: configuration.maxHeaderListSize)
        closedStreams = ClosedStreams(capacity: configuration.limits.closedStreamMemory)
        controlMeter = RateMeter(configuration.limits.controlFrames)
        // "The client connection preface starts with a sequence of 24 octets ... followed
        // by a SETTINGS frame" (§3.4); requests may follow at once, but ours wait for the
        // server's SETTINGS.
        outbound.appendPreface(FrameParser.clientPreface)
        outbound.append(Frame(stream: .connection, payload: .settings(ack: false, parameters: configuration.settings.parameters)))
        raiseConnectionWindow()
    }

    // MARK: Receiving

    /// Processes received octets, in chunks of any size, and returns what the server did:
    /// whole responses, failed requests, GOAWAY, PING. Answers (acknowledgements, window
    /// updates, resets, GOAWAY) are queued for `takeOutbound`.
    /// - Parameter now: a monotonic clock reading, any origin; it only moves forward.
    /// - Complexity: O(n + f), n the octets and f the octets of decoded fields.
    public mutating func receive(_ bytes: [UInt8], now: Duration) -> [ClientEvent] {
        bytes.withUnsafeBytes { receive($0, now: now) }
    }

    /// Processes received octets; see `receive(_:now:)`.
    /// - Complexity: O(n + f), n the octets and f the octets of decoded fields.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [ClientEvent] {
        guard phase != .closed else { return [] }
        readFrames(bytes, now: now)
        openWaitingStreams()
        scheduleData()
        return takeEvents()
    }

    /// The events gathered so far, handed out once.
    mutating func takeEvents() -> [ClientEvent] {
        checkInvariants()
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// A stream error resets its stream and fails its request; a connection error ends
    /// the connection.
    mutating func handle(_ error: ProtocolError) {
        guard let stream = error.stream else { return fail(error) }
        // RST_STREAM "MUST NOT be sent for a stream in the idle state": such an error is the connection's.
        guard !isIdle(stream) else { return fail(.connection(error.code, error.reason)) }
        resetStream(stream, code: error.code, failure: .streamError(error.code, error.reason))
    }

    /// Resets `id` with RST_STREAM `code`, failing its request with `failure`.
    mutating func resetStream(_ id: StreamID, code: ErrorCode, failure: RequestFailure) {
        _ = removeStream(id)
        if let exchange = exchanges.removeValue(forKey: id) {
            streamOfRequest[exchange.request] = nil
            events.append(.failed(exchange.request, failure))
        }
        closedStreams.record(id, .resetByUs)
        outbound.append(Frame(stream: id, payload: .rstStream(code)), control: true)
    }

    /// Ends the connection for the server's error: GOAWAY, then every request fails.
    mutating func fail(_ error: ProtocolError) {
        guard phase != .closed else { return }
        // The reason as debug data (RFC 9113 §6.8), bounded: it is our text, never the peer's.
        // Last stream 0: the server opened none (push is disabled).
        outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: .connection, code: error.code,
                                                                   debug: Array(error.reason.utf8.prefix(256)))))
        events.append(.connectionError(.connection(error.code, error.reason)))
        close(failing: .connectionError(error.code, error.reason))
    }

    /// Closes the connection: every request in flight or waiting fails with `failure`.
    mutating func close(failing failure: RequestFailure) {
        phase = .closed
        for (_, exchange) in exchanges.sorted(by: { $0.key < $1.key }) { events.append(.failed(exchange.request, failure)) }
        for entry in waiting.removeAll() { events.append(.failed(entry.id, failure)) }
        exchanges.removeAll()
        streamOfRequest.removeAll()
        removeAllStreams()
        headerBlock = nil
    }

    // MARK: What the transport reads

    /// Whether octets are waiting for `takeOutbound`.
    /// - Complexity: O(1).
    public var hasOutbound: Bool { !outbound.isEmpty }

    /// Octets waiting for `takeOutbound`.
    /// - Complexity: O(1).
    public var outboundByteCount: Int { outbound.count }

    /// Removes and returns up to `maxBytes` octets to send, then refills from the streams'
    /// queued request data as flow control allows.
    /// - Complexity: O(n), n the octets returned.
    public mutating func takeOutbound(maxBytes: Int = .max) -> [UInt8] {
        let bytes = outbound.take(maxBytes: maxBytes)
        scheduleData()
        return bytes
    }

    /// Streams open or half-closed: what counts against the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS.
    /// - Complexity: O(1).
    public var openStreamCount: Int { streams.count }

    /// Requests sent and not yet answered or failed: on a stream, or waiting for one.
    /// - Complexity: O(1).
    public var requestsInFlight: Int { exchanges.count + waiting.count }

    /// Requests waiting for a stream (the server's concurrency limit, or its SETTINGS).
    /// - Complexity: O(1).
    public var waitingRequestCount: Int { waiting.count }

    /// Whether `send` takes new requests: not after GOAWAY either way, an error, or once
    /// the stream identifiers are used up.
    /// - Complexity: O(1).
    public var acceptsRequests: Bool {
        phase != .closed && goAwayLastStream == nil && !goingAway && nextStreamID <= StreamID.max.rawValue
    }

    /// Whether our SETTINGS is still unacknowledged.
    /// - Complexity: O(1).
    public var isAwaitingSettingsAcknowledgement: Bool { !localSettingsAcknowledged }

    /// Whether the server's SETTINGS (its preface) has arrived.
    /// - Complexity: O(1).
    public var hasServerSettings: Bool { phase == .open }

    /// Whether the connection is over: ended by an error, or taking no new requests with
    /// none left in flight. The transport sends what is left in `takeOutbound`, then closes.
    /// - Complexity: O(1).
    public var isFinished: Bool { phase == .closed || (!acceptsRequests && requestsInFlight == 0 && streams.isEmpty) }

    // MARK: FlowControlledConnection, ReceivingConnection

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

    /// Streams we have not opened yet, and every server-initiated one (push is disabled).
    func isIdle(_ id: StreamID) -> Bool { !(id.isClientInitiated && id.rawValue < nextStreamID) }

    /// With `-DPUSHSIM_INVARIANTS` (the test builds): the books balance after every call.
    /// Compiled out otherwise.
    /// - Complexity: O(s), s the open streams, with the flag; O(1) without.
    func checkInvariants() {
        #if PUSHSIM_INVARIANTS
        var buffered = 0
        for (id, state) in streams {
            precondition(id.isClientInitiated && id.rawValue < nextStreamID, "\(id) has state but was never opened")
            let output = pendingOutput[id]
            precondition(state.pendingCount == (output.map { $0.data.count - $0.offset } ?? 0), "\(id)'s pending octets out of step")
            precondition(state.hasPendingTrailers == (output?.trailers != nil), "\(id)'s pending trailers out of step")
            precondition(state.sendWindow <= Settings.maxWindowSize, "\(id) send window above 2^31-1")
            precondition(state.sendWindow <= state.sendWindowCeiling, "\(id) send window above its ceiling")
            buffered += state.pendingCount
        }
        precondition(pendingOutput.allSatisfy { streams[$0.key] != nil }, "output queued for a stream without state")
        precondition(buffered == queuedDataBytes, "queued request octets \(buffered) ≠ \(queuedDataBytes)")
        for (id, exchange) in exchanges {
            precondition(streamOfRequest[exchange.request] == id, "\(exchange.request) lost its \(id)")
            precondition(exchange.body.count <= configuration.limits.maxResponseBodyBytes, "a response body over the limit")
        }
        precondition(streamOfRequest.count == exchanges.count, "requests with a stream ≠ exchanges")
        precondition(sendWindow <= Settings.maxWindowSize && receiveWindow >= 0, "connection windows out of range")
        precondition(sendWindow <= sendWindowCeiling, "the connection's send window above its ceiling")
        precondition(phase != .closed || (streams.isEmpty && exchanges.isEmpty && waitingRequestCount == 0), "a closed connection with requests")
        #endif
    }
}
