import FakeAPNs

/// Where something stands among everything due at one instant: the middle of
/// the agenda's key (time, phase, sequence). At one instant, phases come in
/// declaration order; within a phase, sequence order.
///
/// Ties need equal microseconds, which only scheduled instants (outages, offline
/// windows) and zero delays make; the order is nevertheless fixed, because it
/// decides report bytes.
enum AgendaPhase: UInt8, Comparable, CaseIterable {
    /// A message that takes no time (a connection or disconnection reaching APNs,
    /// a delivery bouncing off a device that went offline, a token change reaching
    /// APNs, a registration or a subscription sync reaching the provider), sent by
    /// what ran at this very instant. First, in sending order: it is the rest of
    /// what just ran, so nothing else due now comes between.
    case zeroTime
    /// The user's timeline, drawn before the run whatever the strategy, in this
    /// order at one instant: the provider's schedule changes first, then the
    /// device's identity, the app's token and subscriptions, the network, and only
    /// then what meets that state: mail, then the user opening the app. Within one
    /// kind, the order they were drawn in.
    case outage, deviceIDChange, tokenRotation, subscriptionChange, connectivity, mail, launch
    /// Messages in flight (requests, deliveries, answers, timers), in sending
    /// order. After the timeline: what the world does on its own at an instant
    /// (a device going offline at t) is settled before what arrives at t meets it.
    case inFlight

    static func < (lhs: AgendaPhase, rhs: AgendaPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TimelineEvent {
    /// The event's phase in the agenda's key.
    var phase: AgendaPhase {
        switch self {
        case .outage: .outage
        case .deviceIDChange: .deviceIDChange
        case .tokenRotation: .tokenRotation
        case .subscriptionChange: .subscriptionChange
        case .connectivity: .connectivity
        case .mail: .mail
        case .launch: .launch
        }
    }
}

extension TimelineEntry {
    /// The agenda's order for a timeline drawn from several sources: (time,
    /// phase); a stable sort keeps each source's drawing order as the sequence.
    static func agendaOrder(_ lhs: TimelineEntry, _ rhs: TimelineEntry) -> Bool {
        lhs.time < rhs.time || (lhs.time == rhs.time && lhs.event.phase < rhs.event.phase)
    }
}

/// The kernel's agenda: the one place that decides what happens next in a
/// world. It merges three sources under the key (time, `AgendaPhase`, sequence):
/// messages that take no time, the user's timeline, and messages in flight. Time
/// never goes back: sending into the past is a programming error.
///
/// Like SimPy's `(time, priority, id)` heap and swift-nio's `EmbeddedEventLoop`,
/// work due now goes the same way as later work; each source is kept in the
/// form that makes its part of the key free: zero-time messages in a FIFO (all
/// at `now`), the timeline as a sorted array with a cursor (a long lane's drawn
/// one window at a time, as the cursor reaches its end), messages in flight
/// in a binary heap keyed (time, sequence), whose same-instant sends skip the
/// heap into a FIFO (they have the largest sequences at `now`).
struct Agenda<Message> {
    /// What `next` hands out.
    enum Item {
        case message(Message)
        case occurrence(TimelineEvent)
    }

    /// The instant of the item handed out last (0 before the first).
    private(set) var now: SimTime = 0

    private var zeroTime = FIFO<Message>()
    private var timeline = ContiguousArray<TimelineEntry>()
    private var cursor = 0
    /// What is left to draw of a long timeline; nil: `timeline` holds all of it.
    private var timelineRest: LaneDraw?
    /// `timelineRest != nil`, kept apart: the check runs on every step.
    private var timelineContinues = false
    private var timelineWindow = 0
    private var inFlight = InFlightHeap<Message>()
    private var inFlightNow = FIFO<Message>()

    /// An empty agenda at time 0.
    /// - Complexity: O(1).
    init() {}

    /// Back to time 0 with `timeline` (sorted by `TimelineEntry.agendaOrder`) and
    /// nothing in flight; keeps every buffer's capacity.
    /// - Complexity: O(n) in what it held.
    mutating func start(timeline: ContiguousArray<TimelineEntry>) {
        startEmpty()
        self.timeline = timeline
        timelineRest = nil
        timelineContinues = false
    }

    /// Back to time 0 with the timeline `draw` hands out, read `window` entries
    /// at a time, and nothing in flight.
    /// - Complexity: O(`window` × k) for k timeline sources.
    mutating func start(drawing draw: LaneDraw, window: Int) {
        startEmpty()
        // A buffer of its own: the previous one may be a lane's whole timeline, shared.
        timeline = ContiguousArray()
        timeline.reserveCapacity(window)
        timelineRest = draw
        timelineContinues = true
        timelineWindow = window
        drawTimelineWindow()
    }

    private mutating func startEmpty() {
        now = 0
        zeroTime.removeAll()
        cursor = 0
        inFlight.removeAll()
        inFlightNow.removeAll()
    }

    /// Replaces the window just read with the next one.
    @inline(never)
    private mutating func drawTimelineWindow() {
        guard var draw = timelineRest else { return }
        timelineRest = nil
        timeline.removeAll(keepingCapacity: true)
        cursor = 0
        draw.fill(&timeline, upTo: timelineWindow)
        if draw.isFinished { timelineContinues = false } else { timelineRest = draw }
    }

    /// The next item before `end`, advancing `now` to its time; nil when nothing
    /// is due before `end`.
    /// - Complexity: O(log n) in the messages in flight.
    @inline(__always)
    mutating func next(before end: SimTime) -> Item? {
        if let message = zeroTime.popFirst() { return .message(message) }
        if cursor == timeline.count, timelineContinues { drawTimelineWindow() }
        let timelineAt = cursor < timeline.count ? timeline[cursor].time : SimTime.max
        let inFlightAt = inFlightNow.isEmpty ? inFlight.firstTime : now
        if timelineAt <= inFlightAt {
            guard timelineAt < end else { return nil }
            now = timelineAt
            cursor += 1
            return .occurrence(timeline[cursor - 1].event)
        }
        guard inFlightAt < end else { return nil }
        // Messages sent earlier for this instant wait in the heap: they go first.
        if inFlight.firstTime != now, let message = inFlightNow.popFirst() { return .message(message) }
        let (time, message) = inFlight.removeFirst()
        now = time
        return .message(message)
    }

    /// Sends a message that takes no time: it comes before anything else due now.
    /// - Complexity: amortized O(1).
    @inline(__always)
    mutating func sendNow(_ message: Message) { zeroTime.append(message) }

    /// Sends a message that arrives at `time` (not before `now`).
    /// - Complexity: O(log n) in the messages in flight.
    @inline(__always)
    mutating func send(_ message: Message, arrivingAt time: SimTime) {
        precondition(time >= now, "a message was sent into the past")
        if time == now { inFlightNow.append(message) } else { inFlight.insert(message, at: time) }
    }

    /// Messages waiting (zero-time and in flight), not counting the timeline.
    /// - Complexity: O(1).
    var messagesWaiting: Int { zeroTime.count + inFlightNow.count + inFlight.count }

    /// How many waiting messages satisfy `predicate`, without copying them (the
    /// end-of-run check runs once per user and app: it must not allocate).
    /// - Complexity: O(n).
    func countMessages(where predicate: (Message) -> Bool) -> Int {
        zeroTime.count(where: predicate) + inFlightNow.count(where: predicate) + inFlight.count(where: predicate)
    }
}
