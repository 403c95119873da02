/// A first-in first-out buffer whose slots are overwritten rather than removed:
/// emptying an array costs more than the few messages that pass through it. Its slots
/// are written without a uniqueness check per write (`SlotStorage`): they are made its
/// own again by `removeAll`.
public struct FIFO<Element> {
    @usableFromInline var slots = SlotStorage<Element>()
    @usableFromInline var head = 0
    @usableFromInline var tail = 0

    /// An empty buffer.
    /// - Complexity: O(1).
    @inlinable
    public init() {}

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
        slots.store(element, at: tail)
        tail += 1
    }

    /// Adds `element` last when a slot written before is free for it; false (nothing added)
    /// when it would take a new one (`append`).
    /// - Complexity: O(1).
    @inline(__always)
    @inlinable
    public mutating func tryAppend(_ element: Element) -> Bool {
        guard tail < slots.count else { return false }
        slots.overwrite(element, at: tail)
        tail += 1
        return true
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

    /// Forgets every element, keeping the capacity; the slots are this buffer's own after it.
    /// - Complexity: O(1) for elements of a trivial type, else O(n).
    @inlinable
    public mutating func removeAll() {
        (head, tail) = (0, 0)
        // Slots are overwritten, never read past `tail`: only what elements refer to needs releasing.
        if _isPOD(Element.self) { slots.makeUnique() } else { slots.releaseAll() }
    }

    /// Makes the slots this buffer's own (a copy of a running buffer shares them).
    /// - Complexity: O(1) when they are already its own, else O(n).
    @inlinable
    public mutating func ownStorage() { slots.makeUnique() }

    /// How many waiting elements satisfy `predicate`.
    /// - Complexity: O(n).
    @inlinable
    public func count(where predicate: (Element) -> Bool) -> Int {
        var count = 0
        for index in head..<tail where predicate(slots[index]) { count += 1 }
        return count
    }
}
