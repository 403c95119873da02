/// Notification Center, as far as collapse ids go: the ids of the notifications
/// shown, so a push with the id of one already there replaces it instead of adding one.
///
/// Notification Center never forgets in the model. A long run would hold one id per
/// notification it ever showed, so under `remembersOrder` it also keeps the message
/// each id was entered for, oldest first: the observer of the run, which accounts
/// every copy, may then say that no copy of the messages before some index can
/// reach the phone again (`forget(messagesBefore:)`). Their ids can never be
/// matched, so dropping them changes no answer.
struct ShownNotifications {
    private var keys = CollapseKeySet()
    /// Under `remembersOrder`: the message of each id entered, oldest first, from `orderStart`.
    private var order: ContiguousArray<(message: Int32, key: UInt64)> = []
    private var orderStart = 0
    private(set) var remembersOrder = false

    /// Collapse ids held.
    var count: Int { keys.count }

    /// Enters the notification of `message` with collapse id `key`; true when one
    /// with that id was already there (it is replaced).
    /// - Complexity: O(1) on average.
    @inline(__always)
    mutating func enter(key: UInt64, message: Int32) -> Bool {
        guard keys.insert(key) else { return true }
        if remembersOrder { order.append((message, key)) }
        return false
    }

    /// Drops the ids entered for messages before `message`, oldest first, up to the
    /// first id entered for a later one (the rest go when it does).
    /// - Complexity: O(k) in the ids dropped, amortized.
    mutating func forget(messagesBefore message: Int32) {
        var start = orderStart
        while start < order.count, order[start].message < message {
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
