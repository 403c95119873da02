import Base

/// Messages in flight, a binary min-heap keyed (arrival time, sending sequence):
/// the agenda's last phase. The sequence is the sending order, so two messages
/// arriving at one instant come out in the order they were sent.
public struct InFlightHeap<Message> {
    public struct Entry {
        public var time: SimTime
        public var sequence: UInt64
        public var message: Message

        @inlinable
        public init(time: SimTime, sequence: UInt64, message: Message) {
            self.time = time
            self.sequence = sequence
            self.message = message
        }

        @inlinable
        public func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    /// The heap is `storage[0 ..< count]`; the slots after it are kept from earlier
    /// messages and overwritten, so a steady heap neither grows nor shrinks. Written
    /// without a uniqueness check per write (`SlotStorage`): made its own again by `removeAll`.
    public var storage = SlotStorage<Entry>()
    /// Messages waiting.
    /// - Complexity: O(1).
    @inlinable public var count: Int { heapCount }
    @usableFromInline var heapCount = 0
    @usableFromInline var nextSequence: UInt64 = 0
    /// `storage[0].time`, or `SimTime.max` when empty: the agenda reads it on every step,
    /// kept apart so that read is one load (no count test, no index check).
    @usableFromInline var rootTime = SimTime.max

    /// An empty heap.
    /// - Complexity: O(1).
    @inlinable
    public init() {}

    /// The earliest arrival, or `SimTime.max` when empty.
    /// - Complexity: O(1).
    @inlinable
    public var firstTime: SimTime { rootTime }

    /// Empty, sequence back to 0, keeping the capacity.
    /// - Complexity: O(1) for messages of a trivial type, else O(n).
    @inlinable
    public mutating func removeAll() {
        heapCount = 0
        nextSequence = 0
        rootTime = .max
        // Slots past `count` are never read, but they would keep what a message refers to alive.
        if _isPOD(Message.self) { storage.makeUnique() } else { storage.releaseAll() }
    }

    /// Adds `message` arriving at `time`.
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable
    public mutating func insert(_ message: Message, at time: SimTime) {
        if !tryInsert(message, at: time) { insertTakingSlot(message, at: time) }
    }

    /// Adds `message` arriving at `time` when the slots written before hold one more entry;
    /// false (nothing added) when it needs a new slot (`insert`).
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable
    public mutating func tryInsert(_ message: Message, at time: SimTime) -> Bool {
        let hole = heapCount
        guard hole < storage.count else { return false }
        let entry = Entry(time: time, sequence: nextSequence, message: message)
        nextSequence &+= 1
        heapCount = hole + 1
        var child = hole
        // With the few messages a world keeps in flight it rarely moves.
        while child > 0 {
            let parent = (child - 1) / 2
            let above = storage[parent]
            guard entry.precedes(above) else { break }
            storage.overwrite(above, at: child)
            child = parent
        }
        storage.overwrite(entry, at: child)
        if child == 0 { rootTime = time }
        checkInvariants()
        return true
    }

    /// `insert` when the heap fills its slots: takes the next slot (the insert writes over it),
    /// then inserts.
    @usableFromInline @inline(never)
    mutating func insertTakingSlot(_ message: Message, at time: SimTime) {
        storage.store(Entry(time: time, sequence: nextSequence, message: message), at: heapCount)
        let inserted = tryInsert(message, at: time)
        precondition(inserted, "a slot taken for the insert")
    }

    /// Adds `message` arriving at `time` as if it had been sent before every message
    /// waiting: it gets the first sequence and theirs move up by one (a run resumed from
    /// another's state, which sent this message first).
    /// - Complexity: O(n).
    @inlinable
    public mutating func insertAsFirstSent(_ message: Message, at time: SimTime) {
        for index in 0..<heapCount {
            var entry = storage[index]
            entry.sequence &+= 1
            storage[index] = entry
        }
        nextSequence &+= 1
        let next = nextSequence
        nextSequence = 0
        insert(message, at: time)
        nextSequence = next
    }

    /// Makes the slots this heap's own (a copy of a running heap shares them).
    /// - Complexity: O(1) when they are already its own, else O(n).
    @inlinable
    public mutating func ownStorage() { storage.makeUnique() }

    /// Removes the earliest entry.
    /// - Precondition: not empty.
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable
    public mutating func removeFirst() -> (time: SimTime, message: Message) {
        precondition(heapCount > 0, "removeFirst on an empty heap")
        return removeRoot()
    }

    /// `removeFirst` for a caller that knows the heap holds something: its `firstTime` is
    /// below `SimTime.max` (the agenda's `next`, which hands out only what is due before its
    /// end). Checked in debug builds only.
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable @usableFromInline
    mutating func removeRoot() -> (time: SimTime, message: Message) {
        #if PUSHSIM_INVARIANTS
        precondition(heapCount > 0, "removeFirst on an empty heap")
        #endif
        // Slots below `heapCount` are written (`initialized` >= `heapCount`): read without the index check.
        let first = storage.base[0]
        let remaining = heapCount &- 1
        heapCount = remaining
        if remaining > 0 { siftDown(count: remaining) } else { rootTime = .max }
        checkInvariants()
        return (first.time, first.message)
    }

    /// How many waiting messages satisfy `predicate`.
    /// - Complexity: O(n).
    @inlinable
    public func count(where predicate: (Message) -> Bool) -> Int {
        var matching = 0
        for index in 0..<heapCount where predicate(storage[index].message) { matching += 1 }
        return matching
    }

    /// Places the entry at `storage[count]` (the last one, just left) at the root of
    /// `storage[0 ..< count]` and moves it down to its place. Out of line: it keeps the
    /// agenda's `next`, which the world inlines, small; the entry is read here, not passed.
    /// Every index it reads or writes is at most `count`, below `initialized`: through the
    /// pointer, without the index check.
    @inlinable @inline(never)
    mutating func siftDown(count: Int) {
        let slots = storage.base
        let entry = slots[count]
        var parent = 0
        while true {
            // `parent < count`, an `Int` heap index: `2 * parent + 2` cannot overflow.
            var child = 2 &* parent &+ 1
            guard child < count else { break }
            if child &+ 1 < count && slots[child &+ 1].precedes(slots[child]) { child &+= 1 }
            let below = slots[child]
            guard below.precedes(entry) else { break }
            slots[parent] = below
            parent = child
        }
        slots[parent] = entry
        rootTime = slots[0].time
    }

    /// Whether this build checks the heap property after every change.
    @inlinable
    public static var checksInvariants: Bool {
        #if PUSHSIM_INVARIANTS
        true
        #else
        false
        #endif
    }

    /// Checks the heap property after every change when built with
    /// `-DPUSHSIM_INVARIANTS` (the test builds set it); compiled out otherwise.
    /// - Complexity: O(n) with the flag, O(1) without.
    @inline(__always)
    @inlinable
    public func checkInvariants() {
        #if PUSHSIM_INVARIANTS
        precondition(rootTime == (heapCount > 0 ? storage[0].time : .max), "the root's time is kept")
        precondition(storage.count >= heapCount, "the heap's slots are written")
        for index in 1..<max(1, heapCount) {
            precondition(!storage[index].precedes(storage[(index - 1) / 2]), "heap order broken at \(index)")
        }
        #endif
    }
}
