import Base

/// Notification Center, as far as collapse ids go: the ids of the notifications
/// shown, so a push with the id of one already there replaces it instead of adding one.
///
/// Notification Center never forgets in the model. A long run would hold one id per
/// notification it ever showed, so under `remembersOrder` it also keeps, oldest
/// first, when each id was entered and the position of the push that entered it:
/// the phone then drops the ids no later copy can match (`Phone`'s own bound,
/// `forget(enteredBefore:atOrBelow:)`), which changes no answer.
struct ShownNotifications {
    /// One id entered, with what the phone's bound needs of it, in 16 bytes.
    private struct Entry {
        var key: UInt64
        /// When it was entered, in whole seconds rounded up: later, never earlier,
        /// so the bound stays safe (32 bits cover 136 years; runs last at most 100).
        var enteredBySecond: UInt32
        /// The push's position (0: not numbered).
        var position: Int32
    }

    private var keys = CollapseKeySet()
    /// Under `remembersOrder`: the ids entered, oldest first, from `orderStart`.
    private var order: ContiguousArray<Entry> = []
    private var orderStart = 0
    private(set) var remembersOrder = false

    /// Collapse ids held.
    var count: Int { keys.count }

    /// Makes the ids' table this value's own (`CollapseKeySet`): a copy shares it until then.
    /// - Complexity: O(capacity) when shared.
    mutating func ownStorage() { keys.ownStorage() }

    /// Enters the notification of the push numbered `position` with collapse id
    /// `key` at `now`; true when one with that id was already there (it is replaced).
    /// - Complexity: O(1) on average.
    @inline(__always)
    mutating func enter(key: UInt64, position: Int32, at now: SimTime) -> Bool {
        guard keys.insert(key) else { return true }
        if remembersOrder {
            let second = UInt32(clamping: (now + TimeUnit.second - 1) / TimeUnit.second)
            order.append(Entry(key: key, enteredBySecond: second, position: position))
        }
        return false
    }

    /// Drops the oldest ids while they were entered before `fence` for a position
    /// at or below `floor`, up to the first that was not (the rest wait for it: a
    /// conservative bound that keeps the check O(1) per id).
    /// - Complexity: O(k) in the ids dropped, amortized.
    mutating func forget(enteredBefore fence: SimTime, atOrBelow floor: Int32) {
        var start = orderStart
        while start < order.count, SimTime(order[start].enteredBySecond) * TimeUnit.second < fence,
              order[start].position <= floor {
            _ = keys.remove(order[start].key)
            start += 1
        }
        guard start > orderStart else { return }
        orderStart = start
        if start * 2 >= order.count {
            order.removeFirst(start)
            orderStart = 0
        }
    }

    /// Empties it, keeping its tables.
    /// - Complexity: O(capacity).
    mutating func removeAll(remembersOrder: Bool) {
        keys.removeAll()
        order.removeAll(keepingCapacity: true)
        orderStart = 0
        self.remembersOrder = remembersOrder
    }
}
