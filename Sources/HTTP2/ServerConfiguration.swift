/// What a `ServerConnection` announces and enforces. The defaults suit an APNs-like
/// endpoint: small requests, many streams, clients that keep connections for hours.
public struct ServerConfiguration: Hashable, Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: streams open or half-closed at once (RFC 9113 §5.1.2).
    /// A stream beyond it is refused (REFUSED_STREAM: the client may retry it).
    public var maxConcurrentStreams = 100
    /// SETTINGS_INITIAL_WINDOW_SIZE: what the client may send on a stream before we
    /// acknowledge it (we do as soon as the data has been handed over).
    public var initialWindowSize = Settings.defaultWindowSize
    /// The connection's receive window, raised from 65 535 by a WINDOW_UPDATE in our preface.
    public var connectionWindowSize = 1 << 20
    /// SETTINGS_MAX_FRAME_SIZE: the largest frame payload we accept.
    public var maxFrameSize = Settings.minMaxFrameSize
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest request header list (RFC 9113 §6.5.2).
    /// It also bounds a header block's compressed octets (see `Limits`).
    public var maxHeaderListSize = 16_384
    /// SETTINGS_HEADER_TABLE_SIZE: the HPACK table the client's encoder may use.
    public var headerTableSize = 4_096
    /// Bounds against hostile peers.
    public var limits = Limits()

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}

    /// The SETTINGS this configuration announces. Push is disabled although a server
    /// need not say so (clients may not push): it makes the announcement explicit.
    /// - Complexity: O(1).
    public var settings: Settings {
        var settings = Settings()
        settings.enablePush = false
        settings.maxConcurrentStreams = maxConcurrentStreams
        settings.initialWindowSize = initialWindowSize
        settings.maxFrameSize = maxFrameSize
        settings.maxHeaderListSize = maxHeaderListSize
        settings.headerTableSize = headerTableSize
        return settings
    }

    /// Limits beyond SETTINGS, each answering one known attack with GOAWAY
    /// ENHANCE_YOUR_CALM (RFC 9113 §10.5) before it costs unbounded memory or time.
    public struct Limits: Hashable, Sendable {
        /// CONTINUATION frames after one HEADERS (CVE-2024-27316, the CONTINUATION flood).
        /// A header block also may not exceed `maxHeaderListSize` plus this slack in
        /// compressed octets: HPACK never makes a field larger than its size (name +
        /// value + 32) except for size updates, so an honest block always fits.
        public var maxContinuationFrames = 16
        public var headerBlockSlack = 256
        /// Streams that end in a reset, by either side: the client's RST_STREAM (rapid
        /// reset, CVE-2023-44487) and the streams we refuse or reset for its errors
        /// (CVE-2019-9514).
        public var streamResets = RateLimit(burst: 200, perSecond: 20)
        /// PING, SETTINGS, PRIORITY, GOAWAY, RST_STREAM on closed streams and unknown
        /// frame types (CVE-2019-9512 ping flood, CVE-2019-9515 settings flood,
        /// CVE-2019-9513 priority churn).
        public var controlFrames = RateLimit(burst: 1_000, perSecond: 100)
        /// Frames we must answer (PING and SETTINGS acknowledgements, RST_STREAM,
        /// WINDOW_UPDATE) that the transport has not yet taken: a peer that floods
        /// without reading fills this, not our memory.
        public var maxPendingControlFrames = 4_096
        /// Consecutive frames without content: DATA with no data and no END_STREAM,
        /// HEADERS and CONTINUATION with an empty fragment and no END_HEADERS
        /// (CVE-2019-9518).
        public var maxEmptyFrames = 16
        /// Response octets queued behind flow control; above it new streams are refused.
        /// With `maxConcurrentStreams` this bounds what a peer that never opens its window
        /// (zero-window stall, CVE-2019-9517) can make us hold.
        public var maxBufferedResponseBytes = 1 << 20
        /// Closed streams remembered, to tell late frames on a stream we reset (ignored)
        /// from frames on a stream that ended (an error).
        public var closedStreamMemory = 256

        /// The defaults.
        /// - Complexity: O(1).
        public init() {}
    }
}

/// How often a peer may cause one kind of event: `burst` at once, refilled at `perSecond`
/// (a token bucket, measured against the time the transport passes in).
public struct RateLimit: Hashable, Sendable {
    public var burst: Int
    /// 0: `burst` for the connection's whole life.
    public var perSecond: Int

    /// - Complexity: O(1).
    public init(burst: Int, perSecond: Int) {
        self.burst = burst
        self.perSecond = perSecond
    }
}
