/// The slots behind the agenda's queues (`FIFO`, `InFlightHeap`), written without a
/// uniqueness check per write.
///
/// A `ContiguousArray` held in a struct checks that its storage is not shared (a call
/// into the runtime, about 15 instructions) on every write, since a copy of the struct
/// may share it; a world's agenda writes a slot or two for every message it carries.
/// These slots are the agenda's own from its start: the queues call `makeUnique` when the
/// agenda starts over (`Agenda.start`), and write through a pointer after that. A queue
/// only ever reuses slots it wrote before or takes the next one (`store(_:at:)`), so
/// slots `0 ..< initialized` hold elements and the rest are raw memory.
///
/// **A copy of an agenda made while it plays shares its slots** until one of them starts
/// over: copy a running agenda only to read it. Indices are checked (two instructions).
public struct SlotStorage<Element> {
    /// Owns the allocation; frees it, and the elements it holds, with the last copy.
    @usableFromInline final class Box {
        @usableFromInline let base: UnsafeMutablePointer<Element>
        @usableFromInline let capacity: Int
        /// Slots holding elements (mirrored in `SlotStorage.initialized`, changed only
        /// when a slot is first used or all are released).
        @usableFromInline var initialized = 0

        @usableFromInline init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: initialized)
            base.deallocate()
        }
    }

    @usableFromInline var box: Box
    /// `box.base`, `box.capacity` and `box.initialized`, kept here: no load through the
    /// reference (and no exclusivity check of the class's property) per access.
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var initialized = 0

    /// No slots yet.
    /// - Complexity: O(1).
    @inlinable
    public init() {
        box = Box(capacity: 16)
        base = box.base
        capacity = box.capacity
    }

    /// The element in slot `index` (one written before).
    @inlinable
    public subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: initialized), "slot out of range")
            return base[index]
        }
        @inline(__always) nonmutating set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: initialized), "slot out of range")
            base[index] = newValue
        }
    }

    /// Writes `element` to slot `index`: one written before, or the next one.
    /// - Complexity: O(1), amortized when it takes a new slot.
    @inlinable @inline(__always)
    public mutating func store(_ element: Element, at index: Int) {
        if UInt(bitPattern: index) < UInt(bitPattern: initialized) {
            base[index] = element
        } else {
            takeSlot(element, at: index)
        }
    }

    /// Writes `element` over slot `index`, one written before (`count`). It never takes a slot,
    /// so a caller that keeps taking one apart (`Agenda.trySend`) inlines no call, and the
    /// routing loops around it keep no address of a queue for that call.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public func overwrite(_ element: Element, at index: Int) {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: initialized), "slot out of range")
        base[index] = element
    }

    /// Slots written so far.
    @inlinable public var count: Int { initialized }

    /// The first write to slot `index`, the next one: grows the allocation when full.
    @usableFromInline @inline(never)
    mutating func takeSlot(_ element: Element, at index: Int) {
        precondition(index == initialized, "a slot skipped")
        if index == capacity || !isKnownUniquelyReferenced(&box) { replaceBox(capacity: max(capacity, 2 * index)) }
        (base + index).initialize(to: element)
        initialized += 1
        box.initialized = initialized
    }

    /// Makes the slots this value's own: a copy sharing them gets none of its later writes.
    /// - Complexity: O(1) when they are already its own, else O(n).
    @inlinable
    public mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { replaceBox(capacity: capacity) }
    }

    /// Releases every element (what they refer to is freed now, not when the slot is
    /// reused), keeping the allocation.
    /// - Complexity: O(n).
    @inlinable
    public mutating func releaseAll() {
        makeUnique()
        base.deinitialize(count: initialized)
        initialized = 0
        box.initialized = 0
    }

    @usableFromInline
    mutating func replaceBox(capacity newCapacity: Int) {
        let copy = Box(capacity: newCapacity)
        copy.base.initialize(from: base, count: initialized)
        copy.initialized = initialized
        box = copy
        base = copy.base
        capacity = copy.capacity
    }
}
