import Base
import FakeAPNs

/// What the Push Notifications Console shows by day for one lane: APNs's own counters
/// (`APNsServer.counters`), cut at each local midnight, so a day gets what APNs counted
/// while its events played (`consoleReceived`, `consoleDelivered`). APNs keeps no days:
/// the world cuts before the first event past a midnight.
package struct ConsoleDays {
    /// What one cut found APNs had counted since the one before, and the day it goes to.
    package struct Cut {
        package var day: Int
        package var received: Int64
        package var delivered: Int64
    }

    /// The day being counted, and the instant it ends.
    package private(set) var day = 0
    package private(set) var dayEnd: SimTime = TimeUnit.day
    /// The run's last day: what APNs counts past it (the run's end) goes to it.
    private let lastDay: Int
    /// What APNs had counted at the last cut.
    private var received: Int64 = 0
    private var delivered: Int64 = 0
    /// The lane's cuts that found something, in order. They go to an aggregate at the lane's
    /// end (`add(into:block:)`), all at once: one uniqueness check per array a lane, not
    /// three a day. A lane kept for another strategy (`World.resume`) carries its start's.
    package private(set) var cuts: ContiguousArray<Cut> = []

    /// A lane's Console over a run of `days` days.
    /// - Complexity: O(1) (one allocation: room for every cut of the lane).
    package init(days: Int) {
        lastDay = Swift.max(days - 1, 0)
        // A cut a midnight, and the run end's two.
        cuts.reserveCapacity(days + 2)
    }

    /// Keeps what `counters` counted since the last cut for the day being counted (the
    /// run's last at most), then counts the day of `now` from here.
    /// - Complexity: O(1). Called once a day: kept out of line, so the event loop stays small.
    @inline(never)
    package mutating func cut(at now: SimTime, counters: APNsCounters) {
        let receivedNow = counters[.accepted]
        let deliveredNow = counters[.delivered] + counters[.deliveredFromStorage]
        if receivedNow != received || deliveredNow != delivered {
            cuts.append(Cut(day: Swift.min(day, lastDay), received: receivedNow - received, delivered: deliveredNow - delivered))
            (received, delivered) = (receivedNow, deliveredNow)
        }
        day = Int(now / TimeUnit.day)
        dayEnd = SimTime(day + 1) * TimeUnit.day
    }

    /// Adds the cuts so far to `aggregate` (a lane's end): each to its day, the totals and
    /// block `block`'s counts.
    /// - Complexity: O(cuts).
    package func add(into aggregate: inout StrategyAggregate, block: Int) {
        aggregate.add(cuts.lazy.map { (day: $0.day, count: $0.received) }, to: .consoleReceived, block: block)
        aggregate.add(cuts.lazy.map { (day: $0.day, count: $0.delivered) }, to: .consoleDelivered, block: block)
    }
}
