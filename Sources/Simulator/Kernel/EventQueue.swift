import FakeAPNs

/// The discrete-event kernel's agenda: a binary min-heap of events ordered by
/// (time, sequence). The sequence number is the insertion order, so two events
/// at the same instant run in the order they were scheduled: runs are
/// deterministic without any tie-breaking rule in the events themselves.
///
/// Like swift-nio's `EmbeddedEventLoop`, time never goes back: scheduling
/// before `now` is a programming error.
///
/// Events scheduled for `now` itself (zero-delay messages) skip the heap: they go
/// to a FIFO that is served after the heap's events at `now`. Those were scheduled
/// before the clock reached `now`, so they have smaller sequence numbers: the
/// order is exactly (time, sequence), for less work.
public struct EventQueue<Event> {
    struct Entry {
        var time: SimTime
        var sequence: UInt64
        var event: Event

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    var storage: ContiguousArray<Entry> = []
    var nextSequence: UInt64 = 0
    /// Events due at `now`, in scheduling order: `immediateHead..<immediateTail`.
    /// Slots are overwritten rather than removed: emptying an array costs more
    /// than the few events that pass through it at one instant.
    var immediate: ContiguousArray<Event> = []
    var immediateHead = 0
    var immediateTail = 0

    /// The instant of the event handed out last (0 before the first).
    public private(set) var now: SimTime = 0

    /// An empty agenda at time 0.
    /// - Complexity: O(1).
    public init() {}

    /// Number of events waiting.
    public var count: Int { storage.count + immediateTail - immediateHead }

    /// True when nothing is waiting.
    public var isEmpty: Bool { count == 0 }

    /// Back to time 0 with nothing scheduled; keeps the capacity so a reused
    /// queue allocates nothing.
    /// - Complexity: O(n).
    public mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        immediate.removeAll(keepingCapacity: true)
        immediateHead = 0
        immediateTail = 0
        nextSequence = 0
        now = 0
    }

    /// Schedules `event` at `time` (not before `now`).
    /// - Complexity: O(log n).

    public mutating func schedule(_ event: Event, at time: SimTime) {
        precondition(time >= now, "an event was scheduled in the past")
        if time == now {
            if immediateTail < immediate.count {
                immediate[immediateTail] = event
            } else {
                immediate.append(event)
            }
            immediateTail += 1
            return
        }
        let sequence = nextSequence
        nextSequence &+= 1
        // Appended in place, then swapped up: with the few events a world keeps in
        // flight it rarely moves, and the entry is never copied through a temporary.
        storage.append(Entry(time: time, sequence: sequence, event: event))
        siftUp(time: time, sequence: sequence, from: storage.count - 1)
    }

    /// The instant of the next event `popNext` would hand out (`now` while
    /// zero-delay events wait), or `SimTime.max` when nothing waits.
    /// - Complexity: O(1).
    public var nextTime: SimTime {
        if immediateHead < immediateTail { return now }
        return storage.first?.time ?? .max
    }

    /// Moves the clock to `time` for an event handled outside the queue (a
    /// timeline merged with it): later schedules count from there.
    /// - Precondition: `time` is not before `now` and not after `nextTime`.
    /// - Complexity: O(1).
    public mutating func advance(to time: SimTime) {
        precondition(time >= now && time <= nextTime, "the clock would skip an event or go back")
        now = time
    }

    /// Removes and returns the earliest event, advancing `now` to its time, unless
    /// it lies after `limit`.
    /// - Complexity: O(log n).

    public mutating func popNext(notAfter limit: SimTime) -> (time: SimTime, event: Event)? {
        if immediateHead < immediateTail, storage.first?.time != now, now <= limit {
            let event = immediate[immediateHead]
            immediateHead += 1
            if immediateHead == immediateTail {
                immediateHead = 0
                immediateTail = 0
            }
            return (now, event)
        }
        guard let first = storage.first, first.time <= limit else { return nil }
        let last = storage.removeLast()
        if !storage.isEmpty { siftDown(last, from: 0) }
        now = first.time
        return (first.time, first.event)
    }

    /// How many waiting events satisfy `predicate`, without copying them
    /// (the end-of-run check runs once per user and app: it must not allocate).
    /// - Complexity: O(n).
    public func countPending(where predicate: (Event) -> Bool) -> Int {
        var count = 0
        for index in storage.indices where predicate(storage[index].event) { count += 1 }
        for index in immediateHead..<immediateTail where predicate(immediate[index]) { count += 1 }
        return count
    }

    /// Swaps the entry at `start`, keyed (`time`, `sequence`), up to its place.
    /// Through a buffer pointer: one uniqueness check per sift, not one per level.
    mutating func siftUp(time: SimTime, sequence: UInt64, from start: Int) {
        storage.withUnsafeMutableBufferPointer { heap in
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                let above = heap[parent]
                guard time < above.time || (time == above.time && sequence < above.sequence) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    /// Places `entry` at `start` and moves it down to its place.
    mutating func siftDown(_ entry: Entry, from start: Int) {
        storage.withUnsafeMutableBufferPointer { heap in
            var parent = start
            let count = heap.count
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
                guard heap[child].precedes(entry) else { break }
                heap[parent] = heap[child]
                parent = child
            }
            heap[parent] = entry
        }
    }
}

#if PUSHSIM_INVARIANTS
extension EventQueue {
    /// Checks the heap property; compiled in only with `-DPUSHSIM_INVARIANTS`.
    /// - Complexity: O(n).
    public func checkInvariants() {
        for index in 1..<max(1, storage.count) {
            precondition(!storage[index].precedes(storage[(index - 1) / 2]), "heap order broken at \(index)")
        }
    }
}
#endif
