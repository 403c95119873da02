import Base

/// Messages in flight, a binary min-heap keyed (arrival time, sending sequence):
/// the agenda's last phase. The sequence is the sending order, so two messages
/// arriving at one instant come out in the order they were sent.
package struct InFlightHeap<Message> {
    package struct Entry {
        package var time: SimTime
        package var sequence: UInt64
        package var message: Message

        package func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    package private(set) var storage = ContiguousArray<Entry>()
    private var nextSequence: UInt64 = 0

    /// Messages waiting.
    /// - Complexity: O(1).
    package var count: Int { storage.count }

    /// The earliest arrival, or `SimTime.max` when empty.
    /// - Complexity: O(1).
    package var firstTime: SimTime { storage.first?.time ?? .max }

    /// Empty, sequence back to 0, keeping the capacity.
    /// - Complexity: O(n).
    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        nextSequence = 0
    }

    /// Adds `message` arriving at `time`.
    /// - Complexity: O(log n).
    @inline(__always)
    package mutating func insert(_ message: Message, at time: SimTime) {
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
    package mutating func removeFirst() -> (time: SimTime, message: Message) {
        let first = storage[0]
        let last = storage.removeLast()
        if !storage.isEmpty { siftDown(last, from: 0) }
        checkInvariants()
        return (first.time, first.message)
    }

    /// How many waiting messages satisfy `predicate`.
    /// - Complexity: O(n).
    package func count(where predicate: (Message) -> Bool) -> Int {
        var count = 0
        for index in storage.indices where predicate(storage[index].message) { count += 1 }
        return count
    }

    /// Swaps the entry at `start`, keyed (`time`, `sequence`), up to its place.
    /// Through a buffer pointer: one uniqueness check per sift, not one per level.
    private mutating func siftUp(time: SimTime, sequence: UInt64, from start: Int) {
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
    private mutating func siftDown(_ entry: Entry, from start: Int) {
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
    package static var checksInvariants: Bool {
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
    package func checkInvariants() {
        #if PUSHSIM_INVARIANTS
        for index in storage.indices.dropFirst() {
            precondition(!storage[index].precedes(storage[(index - 1) / 2]), "heap order broken at \(index)")
        }
        #endif
    }
}
