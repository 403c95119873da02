import Base

/// The collapse ids in Notification Center: a set of 64-bit keys by open
/// addressing (linear probing). The keys are already hashes, so it mixes them
/// with one multiply where `Set` would run SipHash, and a reused set keeps its
/// table: the phone inserts one key per notification shown.
///
/// The table is an `OwnedBuffer`, written without a uniqueness check per insert: **a
/// copy shares it** until `ownStorage()` (`Phone.ownStorage()`). A phone is one lane's,
/// written by that lane alone, and the copy a world keeps to resume from takes its own:
/// no two writers share a table, whatever thread each runs on.
struct CollapseKeySet: @unchecked Sendable {
    /// A new set's table, and the smallest a reused one is made anew at.
    private static let initialSlots = 64
    /// 0 marks an empty slot; the key 0 itself is kept in `containsZero`.
    private var slots = emptyTable(initialSlots)
    private var containsZero = false
    /// Keys in the set.
    private(set) var count = 0
    /// Keys held by recent lanes at their end, halved at each start (`removeAll`).
    private var recentPeak = 0
    /// The table grows before an insert finds this many keys: 3/4 of its slots, kept with the table.
    private var growsAt = threshold(initialSlots)

    /// Keys a table of `slots` holds before it grows: 3/4 of them, so probes stay short.
    private static func threshold(_ slots: Int) -> Int { slots / 4 * 3 }

    /// A table of `slots` empty slots.
    private static func emptyTable(_ slots: Int) -> OwnedBuffer<UInt64> {
        var table = OwnedBuffer<UInt64>(capacity: slots)
        table.append(repeating: 0, count: slots)
        return table
    }

    /// Makes the table this value's own: a copy shares it until then.
    /// - Complexity: O(capacity) when shared.
    mutating func ownStorage() { slots.makeUnique() }

    /// Inserts `key`; returns false when it was already there.
    /// Inlined: the phone's delivery path enters a key with each showing.
    /// - Complexity: O(1) on average.
    @inline(__always)
    mutating func insert(_ key: UInt64) -> Bool {
        if key == 0 {
            defer { containsZero = true }
            return !containsZero
        }
        // Grow at 3/4 full: probes stay short.
        if count >= growsAt { grow() }
        // Wrapping: an index below the table's count, and a count below it, cannot overflow.
        let inserted = slots.withUnsafeMutableBufferPointer { table in
            let mask = table.count &- 1
            var index = Self.home(of: key, mask: mask)
            while table[index] != 0 {
                if table[index] == key { return false }
                index = (index &+ 1) & mask
            }
            table[index] = key
            return true
        }
        if inserted { count &+= 1 }
        return inserted
    }

    /// Removes `key`; returns false when it was not there. Linear probing needs no
    /// tombstones: the keys after the hole that may move back into it do.
    /// - Complexity: O(1) on average.
    mutating func remove(_ key: UInt64) -> Bool {
        if key == 0 {
            defer { containsZero = false }
            return containsZero
        }
        let removed = slots.withUnsafeMutableBufferPointer { table in
            let mask = table.count - 1
            var hole = Self.home(of: key, mask: mask)
            while table[hole] != key {
                if table[hole] == 0 { return false }
                hole = (hole + 1) & mask
            }
            var next = (hole + 1) & mask
            while table[next] != 0 {
                // A key may fill the hole when its home is no nearer to it than the hole is.
                let fromHome = (next - Self.home(of: table[next], mask: mask)) & mask
                if fromHome >= (next - hole) & mask {
                    table[hole] = table[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            table[hole] = 0
            return true
        }
        if removed { count -= 1 }
        return removed
    }

    /// Empties the set, keeping its table unless it is much larger than what it held.
    /// - Complexity: O(capacity).
    mutating func removeAll() {
        // A table grown for one busy lane would be cleared whole for every lane after it:
        // one much larger than recent lanes needed (their peak, halved at each start) is
        // made anew at that size.
        recentPeak = Swift.max(count, recentPeak / 2)
        var fitting = Self.initialSlots
        while recentPeak >= Self.threshold(fitting) { fitting *= 2 }
        if slots.count > 4 * fitting {
            slots = Self.emptyTable(fitting)
            growsAt = Self.threshold(fitting)
        } else if count > 0 {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        count = 0
        containsZero = false
    }

    private static func home(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) >> 32) & mask
    }

    /// Doubles the table, each key placed straight into the new one: the keys are distinct and
    /// none is 0, so a key needs only its probe, not `insert`'s checks (a uniqueness check each).
    private mutating func grow() {
        var table = Self.emptyTable(slots.count * 2)
        // Wrapping: an index below the table's count cannot overflow.
        table.withUnsafeMutableBufferPointer { table in
            let mask = table.count &- 1
            slots.withUnsafeBufferPointer { old in
                for key in old where key != 0 {
                    var index = Self.home(of: key, mask: mask)
                    while table[index] != 0 { index = (index &+ 1) & mask }
                    table[index] = key
                }
            }
        }
        slots = table
        growsAt = Self.threshold(slots.count)
    }
}
