/// The latest entries of a list kept to `capacity` (a device app's log, its Notification
/// Center), oldest first: a ring, so keeping one more when full overwrites the oldest in
/// place instead of shifting the rest down (`Array.removeFirst`).
///
/// Until it is full the storage is in order (`start` 0); after, logical index `i` is at
/// `(start + i) % capacity`.
package struct RecentEntries<Element>: RandomAccessCollection {
    package let capacity: Int
    private var storage: ContiguousArray<Element> = []
    /// Where the oldest entry is in `storage` (0 until it is full).
    private var start = 0

    /// - Complexity: O(1).
    package init(capacity: Int) {
        precondition(capacity > 0, "a ring of no entries")
        self.capacity = capacity
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.count }

    /// The `index`-th oldest entry.
    /// - Complexity: O(1).
    package subscript(index: Int) -> Element {
        get { storage[physical(index)] }
        set { storage[physical(index)] = newValue }
    }

    /// Keeps `entry` as the newest, over the oldest when full.
    /// - Complexity: O(1) amortized.
    package mutating func append(_ entry: Element) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[start] = entry
            start = start + 1 == capacity ? 0 : start + 1
        }
    }

    /// Removes the `index`-th oldest entry, keeping the order of the rest.
    /// - Complexity: O(capacity).
    package mutating func remove(at index: Int) {
        precondition(index >= 0 && index < storage.count, "index out of range")
        if start != 0 {
            // Back in order, in place (three reversals rotate by `start`).
            storage[..<start].reverse()
            storage[start...].reverse()
            storage.reverse()
            start = 0
        }
        storage.remove(at: index)
    }

    @inline(__always)
    private func physical(_ index: Int) -> Int {
        precondition(index >= 0 && index < storage.count, "index out of range")
        let at = start + index
        return at >= storage.count ? at - storage.count : at
    }
}

extension RecentEntries: Sendable where Element: Sendable {}
