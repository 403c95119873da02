import Base
import FakeAPNs

/// What the Push Notifications Console shows by day for one lane: APNs's own counters
/// (`APNsServer.counters`), cut at each local midnight, so a day gets what APNs counted
/// while its events played (`consoleReceived`, `consoleDelivered`). APNs keeps no days:
/// the world cuts before the first event past a midnight.
package struct ConsoleDays {
    /// The day being counted, and the instant it ends.
    package private(set) var day = 0
    package private(set) var dayEnd: SimTime = TimeUnit.day
    /// What APNs had counted at the last cut.
    private var received: Int64 = 0
    private var delivered: Int64 = 0
    /// The counts each cut added, kept when `recording` (a lane whose start another
    /// strategy's run will share: it adds them to its own aggregate, `World.resume`).
    package private(set) var cuts: [(day: Int, received: Int64, delivered: Int64)] = []
    package var recording = false

    package init() {}

    /// Adds the cuts recorded so far to `aggregate`, as they were added to the one they were made in.
    package func replayCuts(into aggregate: inout StrategyAggregate, block: Int) {
        for cut in cuts {
            if cut.received != 0 { aggregate.add(cut.received, to: .consoleReceived, day: cut.day, block: block) }
            if cut.delivered != 0 { aggregate.add(cut.delivered, to: .consoleDelivered, day: cut.day, block: block) }
        }
    }

    /// Adds what `counters` counted since the last cut to the day being counted (the last of
    /// the run's `aggregate.daily` at most), then counts the day of `now` from here.
    /// - Complexity: O(1). Called once a day: kept out of line, so the event loop stays small.
    @inline(never)
    package mutating func cut(at now: SimTime, counters: APNsCounters, into aggregate: inout StrategyAggregate, block: Int) {
        let receivedNow = counters[.accepted]
        let deliveredNow = counters[.delivered] + counters[.deliveredFromStorage]
        let countedDay = Swift.min(day, aggregate.daily.count - 1)
        if recording { cuts.append((countedDay, receivedNow - received, deliveredNow - delivered)) }
        if receivedNow != received || deliveredNow != delivered {
            aggregate.addConsole(received: receivedNow - received, delivered: deliveredNow - delivered, day: countedDay, block: block)
            (received, delivered) = (receivedNow, deliveredNow)
        }
        day = Int(now / TimeUnit.day)
        dayEnd = SimTime(day + 1) * TimeUnit.day
    }
}
