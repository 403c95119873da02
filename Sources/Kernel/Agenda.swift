import Base

/// An occurrence at its instant, as a timeline holds it.
public struct Timed<Occurrence> {
    public var time: SimTime
    public var event: Occurrence

    @inlinable
    public init(time: SimTime, event: Occurrence) {
        self.time = time
        self.event = event
    }
}

/// A timeline too long to hold whole, drawn a window at a time in the order the
/// agenda hands it out.
public protocol TimelineDraw<Occurrence> {
    associatedtype Occurrence
    /// Appends the next entries, in order, until `buffer` holds `capacity` or the draw ends.
    mutating func fill(_ buffer: inout ContiguousArray<Timed<Occurrence>>, upTo capacity: Int)
    /// Nothing is left to draw.
    var isFinished: Bool { get }
}

/// The kernel's agenda: the one place that decides what happens next in a
/// world. It merges three sources under one key, (time, source, sequence), with
/// the sources in this order at one instant:
/// 1. messages that take no time, sent by what ran at this very instant, in sending
///    order: they are the rest of what just ran;
/// 2. the timeline, drawn ahead, in the order its owner sorted it (the world sorts
///    it by (time, its own phase of the occurrence)) ;
/// 3. messages in flight, in sending order.
/// Time never goes back: sending into the past is a programming error. It names no
/// domain type: `Message` and `Draw.Occurrence` are the world's.
///
/// Like SimPy's `(time, priority, id)` heap and swift-nio's `EmbeddedEventLoop`,
/// work due now goes the same way as later work; each source is kept in the
/// form that makes its part of the key free: zero-time messages in a FIFO (all
/// at `now`), the timeline as a sorted array with a cursor (a long lane's drawn
/// one window at a time, as the cursor reaches its end), messages in flight
/// in a binary heap keyed (time, sequence), whose same-instant sends skip the
/// heap into a FIFO (they have the largest sequences at `now`).
public struct Agenda<Message, Draw: TimelineDraw> {
    public typealias Occurrence = Draw.Occurrence
    public typealias Entry = Timed<Occurrence>
    /// What `next` hands out.
    public enum Item {
        case message(Message)
        case occurrence(Occurrence)
    }

    /// The instant of the item handed out last (0 before the first).
    public var now: SimTime = 0

    @usableFromInline var zeroTime = FIFO<Message>()
    @usableFromInline var timeline = ContiguousArray<Entry>()
    @usableFromInline var cursor = 0
    /// `timeline[cursor].time`, or `SimTime.max` past the timeline's end: read on every
    /// step, kept apart so the step neither compares the cursor with the count nor checks
    /// the index (done once an entry, when it is taken).
    @usableFromInline var timelineAt = SimTime.max
    /// What is left to draw of a long timeline; nil: `timeline` holds all of it.
    @usableFromInline var timelineRest: Draw?
    /// `timelineRest != nil`, kept apart: the check runs on every step.
    @usableFromInline var timelineContinues = false
    @usableFromInline var timelineWindow = 0
    @usableFromInline var inFlight = InFlightHeap<Message>()
    @usableFromInline var inFlightNow = FIFO<Message>()
    /// Messages waiting in `zeroTime` and `inFlightNow` together: each step tests this one
    /// field (almost always 0) instead of both queues' ends.
    @usableFromInline var waitingNow = 0

    /// An empty agenda at time 0.
    /// - Complexity: O(1).
    @inlinable
    public init() {}

    /// Back to time 0 with `timeline` (in the order it is to be handed out) and
    /// nothing in flight; keeps every buffer's capacity.
    /// - Complexity: O(n) in what it held.
    @inlinable
    public mutating func start(timeline: ContiguousArray<Entry>) {
        startEmpty()
        self.timeline = timeline
        timelineAt = timeline.first?.time ?? .max
        timelineRest = nil
        timelineContinues = false
    }

    /// Back to time 0 with the timeline `draw` hands out, read `window` entries
    /// at a time, and nothing in flight.
    /// - Complexity: O(`window` × k) for k timeline sources.
    @inlinable
    public mutating func start(drawing draw: Draw, window: Int) {
        startEmpty()
        // A buffer of its own: the previous one may be a lane's whole timeline, shared.
        timeline = ContiguousArray()
        timeline.reserveCapacity(window)
        timelineRest = draw
        timelineContinues = true
        timelineWindow = window
        drawTimelineWindow()
    }

    @inlinable
    mutating func startEmpty() {
        now = 0
        zeroTime.removeAll()
        cursor = 0
        inFlight.removeAll()
        inFlightNow.removeAll()
        waitingNow = 0
    }

    /// Replaces the window just read with the next one.
    @inline(never)
    @inlinable
    mutating func drawTimelineWindow() {
        guard var draw = timelineRest else { return }
        timelineRest = nil
        timeline.removeAll(keepingCapacity: true)
        cursor = 0
        draw.fill(&timeline, upTo: timelineWindow)
        timelineAt = timeline.first?.time ?? .max
        if draw.isFinished { timelineContinues = false } else { timelineRest = draw }
    }

    /// Hands out the timeline's entry at the cursor (`timelineAt` is its time, not the
    /// end's) and reads the next one's time, drawing the next window after a window's last.
    @inline(__always)
    @inlinable
    mutating func takeTimelineEntry() -> Occurrence {
        #if PUSHSIM_INVARIANTS
        precondition(cursor >= 0 && cursor < timeline.count && timeline[cursor].time == timelineAt, "the timeline's next time is kept")
        #endif
        // `timelineAt` is an entry's time, not the end's: `cursor` is inside the timeline
        // (checked above in debug builds), read without the index check.
        let (event, next) = timeline.withUnsafeBufferPointer { entries in
            let next = cursor &+ 1
            return (entries[cursor].event, next < entries.count ? entries[next].time : SimTime.max)
        }
        cursor &+= 1
        timelineAt = next
        if next == .max, timelineContinues { drawTimelineWindow() }
        return event
    }

    /// The next item before `end`, advancing `now` to its time; nil when nothing
    /// is due before `end`.
    /// - Complexity: O(log n) in the messages in flight.
    @inline(__always)
    @inlinable
    public mutating func next(before end: SimTime) -> Item? {
        #if PUSHSIM_INVARIANTS
        precondition(waitingNow == zeroTime.count + inFlightNow.count, "the messages waiting now are counted")
        #endif
        if waitingNow != 0, let message = zeroTime.popFirst() {
            waitingNow &-= 1
            return .message(message)
        }
        let timelineAt = timelineAt
        // Past the zero-time queue, `waitingNow` counts `inFlightNow`'s messages.
        let inFlightAt = waitingNow == 0 ? inFlight.firstTime : now
        if timelineAt <= inFlightAt {
            guard timelineAt < end else { return nil }
            now = timelineAt
            return .occurrence(takeTimelineEntry())
        }
        guard inFlightAt < end else { return nil }
        // Messages sent earlier for this instant wait in the heap: they go first.
        if waitingNow != 0, inFlight.firstTime != now, let message = inFlightNow.popFirst() {
            waitingNow &-= 1
            return .message(message)
        }
        // `inFlightAt` (the heap's first time, or now, below `end`) is below `SimTime.max`,
        // so the heap holds a message: `removeRoot` needs no emptiness check.
        let (time, message) = inFlight.removeRoot()
        now = time
        return .message(message)
    }

    /// The instant of the next item, without handing it out; nil when nothing is left. A
    /// process that moves another's clock (the live provider) asks it to go there first.
    /// - Complexity: O(1).
    @inlinable
    public mutating func nextTime() -> SimTime? {
        if !zeroTime.isEmpty || !inFlightNow.isEmpty { return now }
        let next = min(timelineAt, inFlight.firstTime)
        return next == SimTime.max ? nil : next
    }

    /// Sends a message that takes no time: it comes before anything else due now.
    /// - Complexity: amortized O(1).
    @inline(__always)
    @inlinable
    public mutating func sendNow(_ message: Message) {
        zeroTime.append(message)
        // One a message waiting, at most the slots' count: no overflow.
        waitingNow &+= 1
    }

    /// Sends a message that arrives at `time` (not before `now`).
    /// - Complexity: O(log n) in the messages in flight.
    @inline(__always)
    @inlinable
    public mutating func send(_ message: Message, arrivingAt time: SimTime) {
        precondition(time >= now, "a message was sent into the past")
        if time == now {
            inFlightNow.append(message)
            waitingNow &+= 1
        } else {
            inFlight.insert(message, at: time)
        }
    }

    /// `send` when the agenda's queues hold the message in slots written before; false
    /// (nothing sent) when it needs a new slot, for the caller to `send` apart: a caller's
    /// inlined fast path then makes no call, and keeps no address of a queue for one.
    /// - Complexity: O(log n) in the messages in flight.
    @inline(__always)
    @inlinable
    public mutating func trySend(_ message: Message, arrivingAt time: SimTime) -> Bool {
        precondition(time >= now, "a message was sent into the past")
        if time == now {
            guard inFlightNow.tryAppend(message) else { return false }
            waitingNow &+= 1
            return true
        }
        return inFlight.tryInsert(message, at: time)
    }

    /// `sendNow` when a slot written before is free for it; false (nothing sent) when it
    /// needs a new one (`trySend`).
    /// - Complexity: O(1).
    @inline(__always)
    @inlinable
    public mutating func trySendNow(_ message: Message) -> Bool {
        guard zeroTime.tryAppend(message) else { return false }
        waitingNow &+= 1
        return true
    }

    /// Sends a message arriving at `time` (after `now`) as if it had been sent before
    /// every message now in flight: a run resumed from another's state, which would have
    /// sent it at its start, orders its ties the same.
    /// - Complexity: O(n) in the messages in flight.
    @inlinable
    public mutating func sendAsFirstSent(_ message: Message, arrivingAt time: SimTime) {
        precondition(time > now, "a message sent first arrives after now")
        inFlight.insertAsFirstSent(message, at: time)
    }

    /// Makes the agenda's queues its own: a copy of a running agenda shares their slots
    /// until one of them starts over (`SlotStorage`); call this on a copy kept to resume from.
    /// - Complexity: O(n) in the messages waiting.
    @inlinable
    public mutating func ownStorage() {
        zeroTime.ownStorage()
        inFlight.ownStorage()
        inFlightNow.ownStorage()
    }

    /// Whether a message sent with `sendNow` waits: the next one handed out is then one of them.
    /// - Complexity: O(1).
    @inlinable
    public var holdsZeroTimeMessages: Bool { !zeroTime.isEmpty }

    /// Messages waiting (zero-time and in flight), not counting the timeline.
    /// - Complexity: O(1).
    @inlinable
    public var messagesWaiting: Int { zeroTime.count + inFlightNow.count + inFlight.count }

    /// How many waiting messages satisfy `predicate`, without copying them (the
    /// end-of-run check runs once per user and app: it must not allocate).
    /// - Complexity: O(n).
    @inlinable
    public func countMessages(where predicate: (Message) -> Bool) -> Int {
        zeroTime.count(where: predicate) + inFlightNow.count(where: predicate) + inFlight.count(where: predicate)
    }
}
