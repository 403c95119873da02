/// A first-in first-out buffer whose slots are overwritten rather than removed:
/// emptying an array costs more than the few messages that pass through it.
public struct FIFO<Element> {
    @usableFromInline var slots = ContiguousArray<Element>()
    @usableFromInline var head = 0
    @usableFromInline var tail = 0

    /// Elements waiting.
    /// - Complexity: O(1).
    @inlinable
    public var count: Int { tail - head }

    /// True when nothing waits.
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { head == tail }

    /// Adds `element` last.
    /// - Complexity: amortized O(1).
    @inline(__always)
    @inlinable
    public mutating func append(_ element: Element) {
        if tail < slots.count { slots[tail] = element } else { slots.append(element) }
        tail += 1
    }

    /// Removes and returns the first element, or nil.
    /// - Complexity: O(1).
    @inline(__always)
    @inlinable
    public mutating func popFirst() -> Element? {
        guard head < tail else { return nil }
        let element = slots[head]
        head += 1
        if head == tail { (head, tail) = (0, 0) }
        return element
    }

    /// Forgets every element, keeping the capacity.
    /// - Complexity: O(n).
    @inlinable
    public mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        (head, tail) = (0, 0)
    }

    /// How many waiting elements satisfy `predicate`.
    /// - Complexity: O(n).
    @inlinable
    public func count(where predicate: (Element) -> Bool) -> Int {
        var count = 0
        for index in head..<tail where predicate(slots[index]) { count += 1 }
        return count
    }
}
