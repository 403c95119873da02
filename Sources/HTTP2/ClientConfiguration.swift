/// What a `ClientConnection` announces and enforces. The defaults suit a provider talking
/// to APNs: small responses, many streams on one connection kept for hours, and a server
/// that is not trusted to stay within bounds.
public struct ClientConfiguration: Hashable, Sendable {
    /// SETTINGS_INITIAL_WINDOW_SIZE: what the server may send on a stream before we
    /// acknowledge it (we do as soon as the octets are received).
    public var initialWindowSize = Settings.defaultWindowSize
    /// The connection's receive window, raised from 65 535 by a WINDOW_UPDATE in our preface.
    public var connectionWindowSize = 1 << 20
    /// SETTINGS_MAX_FRAME_SIZE: the largest frame payload we accept.
    public var maxFrameSize = Settings.minMaxFrameSize
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest response header list (and trailers),
    /// counted as RFC 9113 §6.5.2 does; decoding stops beyond it and the connection ends.
    public var maxHeaderListSize = 16_384
    /// SETTINGS_HEADER_TABLE_SIZE: the HPACK table the server's encoder may use.
    public var headerTableSize = 4_096
    /// Bounds against a hostile or broken server.
    public var limits = Limits()

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}

    /// The SETTINGS this configuration announces: push disabled (we accept none), our
    /// windows, frame size, header list size and table.
    /// - Complexity: O(1).
    public var settings: Settings {
        var settings = Settings()
        settings.enablePush = false
        settings.initialWindowSize = initialWindowSize
        settings.maxFrameSize = maxFrameSize
        settings.maxHeaderListSize = maxHeaderListSize
        settings.headerTableSize = headerTableSize
        return settings
    }

    /// Limits beyond SETTINGS: a response larger than `maxResponseBodyBytes` fails its
    /// request (the stream is reset with CANCEL); every other one ends the connection with
    /// GOAWAY ENHANCE_YOUR_CALM, as `ServerConfiguration.Limits` does for the other side.
    public struct Limits: Hashable, Sendable {
        /// The body of one response, once received: memory is bounded by this times the
        /// streams in flight.
        public var maxResponseBodyBytes = 1 << 20
        /// CONTINUATION frames after one HEADERS, and the compressed octets a block may
        /// have beyond `maxHeaderListSize` (CVE-2024-27316).
        public var maxContinuationFrames = 16
        public var headerBlockSlack = 256
        /// PING, SETTINGS, PRIORITY, GOAWAY, RST_STREAM on closed streams and unknown frames.
        public var controlFrames = RateLimit(burst: 1_000, perSecond: 100)
        /// Answers (acknowledgements, window updates) the transport has not taken.
        public var maxPendingControlFrames = 4_096
        /// Consecutive frames without content (CVE-2019-9518).
        public var maxEmptyFrames = 16
        /// Closed streams remembered, to tell late frames on a stream we reset (ignored)
        /// from frames on a stream that ended (an error).
        public var closedStreamMemory = 256

        /// The defaults.
        /// - Complexity: O(1).
        public init() {}
    }
}
