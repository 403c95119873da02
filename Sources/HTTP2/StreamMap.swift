/// A map from stream identifiers to values: open addressing with linear probing over a
/// power-of-two table, an identifier hashed by one multiplication.
///
/// What a connection looks up several times a request (its streams, the closed streams it
/// remembers, the requests whose bodies are arriving): `Dictionary` hashed each identifier
/// with SipHash, about ten times a request. A peer chooses its identifiers and could make
/// them collide; the maps hold at most the concurrency limit or the closed-stream memory,
/// so a probe sequence is bounded by that, as a scan of them would be.
public struct StreamMap<Value>: Sequence {
    /// Identifiers by slot; 0, the connection's, never a key, marks an empty slot.
    @usableFromInline var slotKeys: [UInt32] = []
    @usableFromInline var values: [Value?] = []
    /// Entries held.
    /// - Complexity: O(1).
    public var count: Int { storedCount }
    @usableFromInline var storedCount = 0

    /// An empty map.
    /// - Complexity: O(1).
    @inlinable
    public init() {}

    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { count == 0 }

    @usableFromInline var mask: Int { slotKeys.count - 1 }

    /// The slot where `key`'s probe sequence starts (Fibonacci hashing: the high bits of
    /// the product spread consecutive identifiers across the table).
    @inlinable @inline(__always)
    func home(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot holding `key`, if any.
    @inlinable @inline(__always)
    func slot(of key: UInt32) -> Int? {
        guard key != 0, storedCount > 0 else { return nil }
        var slot = home(key)
        while true {
            let held = slotKeys[slot]
            if held == key { return slot }
            if held == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// The value for `key`; setting nil removes it.
    /// - Complexity: O(1) expected.
    @inlinable
    public subscript(key: StreamID) -> Value? {
        get { slot(of: key.rawValue).flatMap { values[$0] } }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Sets the value for `key`, returning the one it replaced.
    /// - Precondition: `key` is not stream 0.
    /// - Complexity: amortised O(1) expected.
    @discardableResult
    @inlinable
    public mutating func updateValue(_ value: Value, forKey key: StreamID) -> Value? {
        let raw = key.rawValue
        precondition(raw != 0, "stream 0 is the connection, not a stream")
        if let slot = slot(of: raw) {
            var old: Value? = value
            swap(&old, &values[slot])
            return old
        }
        if (storedCount + 1) * 2 > slotKeys.count { grow() }
        var slot = home(raw)
        while slotKeys[slot] != 0 { slot = (slot + 1) & mask }
        slotKeys[slot] = raw
        values[slot] = value
        storedCount += 1
        return nil
    }

    /// Removes `key`, returning its value.
    /// - Complexity: O(1) expected.
    @discardableResult
    @inlinable
    public mutating func removeValue(forKey key: StreamID) -> Value? {
        guard let slot = slot(of: key.rawValue) else { return nil }
        var removed: Value?
        swap(&removed, &values[slot])
        // Backward shift: later entries of the probe run move into the hole when their
        // home is not between it and them, so no tombstones are needed.
        var hole = slot
        var next = (slot + 1) & mask
        while slotKeys[next] != 0 {
            if (next - home(slotKeys[next])) & mask >= (next - hole) & mask {
                slotKeys[hole] = slotKeys[next]
                values.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
        slotKeys[hole] = 0
        storedCount -= 1
        return removed
    }

    /// Removes every entry.
    /// - Complexity: O(capacity).
    @inlinable
    public mutating func removeAll() {
        slotKeys = []
        values = []
        storedCount = 0
    }

    /// The identifiers held, in no particular order.
    /// - Complexity: O(capacity).
    @inlinable
    public var keys: [StreamID] { map(\.key) }

    @usableFromInline mutating func grow() {
        let old = zip(slotKeys, values)
        let capacity = Swift.max(16, slotKeys.count * 2)
        slotKeys = [UInt32](repeating: 0, count: capacity)
        values = [Value?](repeating: nil, count: capacity)
        for (key, value) in old where key != 0 {
            var slot = home(key)
            while slotKeys[slot] != 0 { slot = (slot + 1) & mask }
            slotKeys[slot] = key
            values[slot] = value
        }
    }

    /// The entries, in no particular order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let map: StreamMap
        @usableFromInline var slot = 0

        @inlinable init(map: StreamMap) { self.map = map }

        @inlinable
        public mutating func next() -> (key: StreamID, value: Value)? {
            while slot < map.slotKeys.count {
                defer { slot += 1 }
                if map.slotKeys[slot] != 0, let value = map.values[slot] { return (StreamID(map.slotKeys[slot]), value) }
            }
            return nil
        }
    }

    /// - Complexity: O(1); iterating is O(capacity).
    @inlinable
    public func makeIterator() -> Iterator { Iterator(map: self) }
}

extension StreamMap: Sendable where Value: Sendable {}
