/// One stream the client opened, while it is open or half-closed (RFC 9113 §5.1). Idle
/// and closed streams have no state: an identifier above the highest seen is idle, one
/// at or below it without state is closed (`ClosedStreams` remembers how, for a while).
///
/// Plain values only: a stream's state is copied out and back several times a request,
/// so what it has queued to send (`PendingOutput`) is kept apart, for the streams that have any.
struct StreamState: Sendable {
    /// The states of RFC 9113 §5.1 a stream has state in (a server never reserves).
    enum Phase: Hashable, Sendable {
        case open
        /// We sent END_STREAM; the client may still send.
        case halfClosedLocal
        /// The client sent END_STREAM; we may still send.
        case halfClosedRemote
    }

    var phase: Phase
    /// What we may still send on the stream (may go negative when the client lowers
    /// SETTINGS_INITIAL_WINDOW_SIZE, RFC 9113 §6.9.2).
    var sendWindow: Int
    /// The largest `sendWindow` has been (moved with SETTINGS_INITIAL_WINDOW_SIZE): a
    /// WINDOW_UPDATE while the window is below it gives back what our DATA used.
    var sendWindowCeiling: Int
    /// What the client may still send on it.
    var receiveWindow: Int
    /// Octets handed over since our last WINDOW_UPDATE for the stream.
    var receivedUnacknowledged = 0
    /// The request's content-length, checked against its DATA (RFC 9113 §8.1.1).
    var expectedLength: Int?
    var receivedLength = 0

    /// Whether the final (non-1xx) response HEADERS went out.
    var responseStarted = false
    /// The application ended its side: END_STREAM is queued, or already sent.
    var localEndQueued = false
    /// Body octets waiting for flow control (in the connection's `pendingOutput`).
    var pendingCount = 0
    /// END_STREAM goes with the last pending octet (or with the trailers).
    var pendingEnd = false
    /// Trailers wait in the connection's `pendingOutput` until the pending data is out.
    var hasPendingTrailers = false
    /// Whether the stream is in the connection's data queue.
    var queued = false

    init(phase: Phase, sendWindow: Int, receiveWindow: Int) {
        self.phase = phase
        self.sendWindow = sendWindow
        sendWindowCeiling = sendWindow
        self.receiveWindow = receiveWindow
    }

    /// Whether the scheduler has something to write: data, or an END_STREAM or trailers.
    var hasPendingWork: Bool { pendingCount > 0 || pendingEnd || hasPendingTrailers }
}

/// What a stream has queued to send: body octets `data[offset...]` waiting for flow
/// control, then trailers.
struct PendingOutput: Sendable {
    var data: [UInt8] = []
    var offset = 0
    var trailers: [HeaderField]?
}

/// How a closed stream closed, remembered for the streams closed most recently.
enum ClosedReason: Hashable, Sendable {
    /// We sent RST_STREAM (or refused it): the client's frames in flight are ignored
    /// (RFC 9113 §5.1, closed).
    case resetByUs
    /// The client sent RST_STREAM: any later frame is a stream error STREAM_CLOSED.
    case resetByPeer
    /// Both sides sent END_STREAM: any later frame is a connection error STREAM_CLOSED.
    case finished
    /// A new stream after our GOAWAY's last stream: ignored, never opened (RFC 9113 §6.8).
    case ignored
}

/// The last `capacity` closed streams and how each closed: a map for lookups, a ring of
/// identifiers for evicting the oldest. Bounded whatever the peer does.
struct ClosedStreams: Sendable {
    private var reasons = StreamMap<ClosedReason>()
    private var order: [StreamID] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
    }

    /// - Complexity: O(1).
    subscript(stream: StreamID) -> ClosedReason? { reasons[stream] }

    /// Streams remembered, at most `capacity`.
    var count: Int { reasons.count }

    /// Remembers `stream`, forgetting the oldest when full.
    /// - Complexity: amortised O(1).
    mutating func record(_ stream: StreamID, _ reason: ClosedReason) {
        if reasons.updateValue(reason, forKey: stream) != nil { return }
        if order.count < capacity {
            order.append(stream)
        } else {
            reasons[order[next]] = nil
            order[next] = stream
            next = (next + 1) % capacity
        }
    }
}

/// Streams with data or an end to write, in round-robin order.
typealias StreamQueue = FIFOQueue<StreamID>

/// A first-in first-out queue on an array with a moving head: appends and removals from
/// the front in amortised O(1), the space of what was taken reclaimed as it grows.
struct FIFOQueue<Element: Sendable>: Sendable {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    /// Elements queued.
    var count: Int { items.count - head }

    /// - Complexity: amortised O(1).
    mutating func append(_ item: Element) { items.append(item) }

    /// - Complexity: amortised O(1).
    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024 && head * 2 > items.count {
            items.removeSubrange(0..<head)
            head = 0
        }
        return item
    }

    /// Puts `front` back before the rest, in order.
    /// - Complexity: O(n).
    mutating func prepend(_ front: [Element]) {
        guard !front.isEmpty else { return }
        items = front + items[head...]
        head = 0
    }

    /// Removes the first element that matches; whether one did.
    /// - Complexity: O(n).
    @discardableResult
    mutating func removeFirst(where matches: (Element) -> Bool) -> Bool {
        guard let index = items[head...].firstIndex(where: matches) else { return false }
        items.remove(at: index)
        return true
    }

    /// Removes and returns every element, in order.
    /// - Complexity: O(n).
    mutating func removeAll() -> [Element] {
        defer {
            items.removeAll()
            head = 0
        }
        return Array(items[head...])
    }
}
