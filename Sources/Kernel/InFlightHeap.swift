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

    public var storage = ContiguousArray<Entry>()
    @usableFromInline var nextSequence: UInt64 = 0

    /// Messages waiting.
    /// - Complexity: O(1).
    @inlinable
    public var count: Int { storage.count }

    /// The earliest arrival, or `SimTime.max` when empty.
    /// - Complexity: O(1).
    @inlinable
    public var firstTime: SimTime { storage.first?.time ?? .max }

    /// Empty, sequence back to 0, keeping the capacity.
    /// - Complexity: O(n).
    @inlinable
    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        nextSequence = 0
    }

    /// Adds `message` arriving at `time`.
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable
    public mutating func insert(_ message: Message, at time: SimTime) {
        let sequence = nextSequence
        nextSequence &+= 1
        // Appended in place, then swapped up: with the few messages a world keeps in
        // flight it rarely moves, and the entry is never copied through a temporary.
        storage.append(Entry(time: time, sequence: sequence, message: message))
        siftUp(time: time, sequence: sequence, from: storage.count - 1)
        checkInvariants()
    }

    /// Removes the earliest entry.
    /// - Precondition: not empty.
    /// - Complexity: O(log n).
    @inline(__always)
    @inlinable
    public mutating func removeFirst() -> (time: SimTime, message: Message) {
        let first = storage[0]
        let last = storage.removeLast()
        if !storage.isEmpty { siftDown(last, from: 0) }
        checkInvariants()
        return (first.time, first.message)
    }

    /// How many waiting messages satisfy `predicate`.
    /// - Complexity: O(n).
    @inlinable
    public func count(where predicate: (Message) -> Bool) -> Int {
        var count = 0
        for index in storage.indices where predicate(storage[index].message) { count += 1 }
        return count
    }

    /// Swaps the entry at `start`, keyed (`time`, `sequence`), up to its place.
    /// Through a buffer pointer: one uniqueness check per sift, not one per level.
    @inlinable
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
    @inlinable
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
        for index in storage.indices.dropFirst() {
            precondition(!storage[index].precedes(storage[(index - 1) / 2]), "heap order broken at \(index)")
        }
        #endif
    }
}
