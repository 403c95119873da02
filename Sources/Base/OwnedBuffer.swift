import FoundationEssentials
import Glibc

/// A growable buffer of plain values that one owner writes without a uniqueness check
/// per write.
///
/// A `ContiguousArray` held in a struct checks that its storage is not shared (a call
/// into the runtime, about 15 instructions) on every write, because a copy of the
/// struct may share it. The simulation's hot structures (the ledger's records, the push
/// pool) are written several times an event by the one world that owns them, so this
/// buffer checks once, when its owner starts over (`makeUnique`), and writes through a
/// pointer after that.
///
/// **Copies share the elements** until one of them calls `makeUnique`: copy a value
/// that holds one only to read it (the world's ledger, shown to an observer), or make
/// it unique before writing to the copy. Indices are checked against `count` (two
/// instructions), so an access is never out of bounds.
public struct OwnedBuffer<Element: BitwiseCopyable> {
    /// Keeps the allocation alive and frees it with the last copy.
    @usableFromInline final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<Element>
        @usableFromInline let capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    @usableFromInline var storage: Storage
    /// `storage.base`, kept here: no load through the reference per access.
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    /// Elements held: `0 ..< count` are valid.
    @usableFromInline var held = 0

    /// An empty buffer.
    /// - Complexity: O(1).
    public init(capacity: Int = 16) {
        storage = Storage(capacity: Swift.max(1, capacity))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// Elements held.
    @inlinable public var count: Int { held }

    /// A buffer holding `elements`.
    /// - Complexity: O(n).
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        self.init(capacity: elements.underestimatedCount)
        for element in elements { append(element) }
    }

    /// Whether it holds nothing.
    @inlinable public var isEmpty: Bool { held == 0 }

    /// The element at `index`.
    @inlinable public subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: held), "index out of range")
            return base[index]
        }
        @inline(__always) nonmutating _modify {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: held), "index out of range")
            yield &base[index]
        }
        @inline(__always) nonmutating set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: held), "index out of range")
            base[index] = newValue
        }
    }

    /// The last element, if any.
    @inlinable public var last: Element? { held > 0 ? base[held - 1] : nil }

    /// Adds `element` at the end.
    /// - Complexity: amortized O(1).
    @inlinable @inline(__always)
    public mutating func append(_ element: Element) {
        if held == capacity { grow(to: held + 1) }
        (base + held).initialize(to: element)
        // Below `capacity` (an allocation's count) before: the increment cannot overflow.
        held &+= 1
    }

    /// Adds `count` elements at the end, made by `element` in order, the room checked once.
    /// - Complexity: O(`count`).
    @inlinable @inline(__always)
    public mutating func append(count added: Int, _ element: () throws -> Element) rethrows {
        guard added > 0 else { return }
        if held + added > capacity { grow(to: held + added) }
        // `added` more fit from `held` on (just checked): each is written once, in order.
        for offset in 0..<added { (base + held + offset).initialize(to: try element()) }
        held += added
    }

    /// Adds `count` copies of `element` at the end.
    /// - Complexity: O(`count`).
    public mutating func append(repeating element: Element, count added: Int) {
        guard added > 0 else { return }
        if held + added > capacity { grow(to: held + added) }
        (base + held).initialize(repeating: element, count: added)
        held += added
    }

    /// Inserts `count` copies of `element` at the front.
    /// - Complexity: O(n).
    public mutating func prepend(repeating element: Element, count added: Int) {
        guard added > 0 else { return }
        if held + added > capacity { grow(to: held + added) }
        _ = memmove(base + added, base, held * MemoryLayout<Element>.stride)
        base.update(repeating: element, count: added)
        held += added
    }

    /// Drops the first `dropped` elements, moving the rest to the front.
    /// - Complexity: O(n).
    public mutating func removeFirst(_ dropped: Int) {
        precondition(dropped >= 0 && dropped <= held, "removing more than the buffer holds")
        _ = memmove(base, base + dropped, (held - dropped) * MemoryLayout<Element>.stride)
        held -= dropped
    }

    /// Forgets every element, keeping the capacity.
    /// - Complexity: O(1).
    @inlinable public mutating func removeAll() { held = 0 }

    /// Makes the elements this value's own: a copy sharing them gets none of its later writes.
    /// - Complexity: O(1) when they are already its own, else O(n).
    public mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        let copy = Storage(capacity: capacity)
        copy.base.initialize(from: base, count: held)
        storage = copy
        base = copy.base
    }

    /// Calls `body` with the elements.
    @inlinable public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: held))
    }

    /// Calls `body` with the elements to write in place: no uniqueness check (a copy that
    /// shares them sees the writes, see the type's note).
    @inlinable public mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: held))
    }

    @usableFromInline mutating func grow(to needed: Int) {
        let copy = Storage(capacity: Swift.max(needed, 2 * capacity))
        copy.base.initialize(from: base, count: held)
        storage = copy
        base = copy.base
        capacity = copy.capacity
    }
}

extension OwnedBuffer: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { held }
}

extension OwnedBuffer: ExpressibleByArrayLiteral {
    /// A buffer holding `elements` (an actor's effects written out in a test).
    /// - Complexity: O(n).
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension OwnedBuffer: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order.
    /// - Complexity: O(n).
    public static func == (lhs: OwnedBuffer, rhs: OwnedBuffer) -> Bool { lhs.elementsEqual(rhs) }
}
