import Base
@testable import FakeAPNs
@testable import Simulator
import TestSupport
import Testing

/// The counts kept by their own day rather than the mail's: launches (by the launch's day)
/// and the Console's received and delivered (by the day APNs counted them).
@Suite("Counts by their own day")
struct OwnDayCountsTests {
    @Test("the Console's counts go to the day being played when APNs counted them; the run's end, to its last day")
    func consoleCuts() {
        var aggregate = StrategyAggregate(days: 4)
        var console = ConsoleDays(days: 4)
        var counters = APNsCounters()
        // Day 0: 5 accepted, 3 handed out (one from storage).
        counters[.accepted] = 5
        counters[.delivered] = 2
        counters[.deliveredFromStorage] = 1
        // The first event of day 2 cuts: day 0 gets what was counted so far.
        let dayTwo = 2 * TimeUnit.day + 10
        console.cut(at: dayTwo, counters: counters)
        #expect(console.day == 2 && console.dayEnd == 3 * TimeUnit.day)
        // Day 2: 2 more accepted, 3 more handed out (yesterday's storage among them).
        counters[.accepted] = 7
        counters[.deliveredFromStorage] = 4
        // The end of a run that stops inside day 5 counts on the last day the run has (3).
        console.cut(at: 5 * TimeUnit.day, counters: counters)
        counters[.delivered] = 3
        console.cut(at: 5 * TimeUnit.day, counters: counters)
        // The lane's end adds its cuts.
        console.add(into: &aggregate, block: 3)
        #expect(aggregate.daily.map { $0[.consoleReceived] } == [5, 0, 2, 0])
        #expect(aggregate.daily.map { $0[.consoleDelivered] } == [3, 0, 3, 1])
        #expect(aggregate[.consoleReceived] == 7 && aggregate[.consoleDelivered] == 7)
        #expect(aggregate.count(.outcome(.consoleDelivered), day: 2, block: 3) == 3)
        #expect(aggregate.count(.outcome(.consoleReceived), block: 3) == 7)
        #expect(aggregate.checkBlocks() == nil)
    }

    @Test("launches count on their own day, once in the chain and once by day, and a reset forgets them")
    func launchDays() {
        var ledger = Ledger()
        for time in [TimeUnit.hour, 20 * TimeUnit.hour, 3 * TimeUnit.day + 5, 3 * TimeUnit.day + 6] { ledger.launched(at: time) }
        var aggregate = StrategyAggregate(days: 4)
        #expect(ledger.fold(into: &aggregate, block: 5) == nil)
        #expect(aggregate.daily.map { $0[.launches] } == [2, 0, 0, 2])
        #expect(aggregate[.launches] == 4 && aggregate.chain[.launches] == 4)
        #expect(aggregate.count(.outcome(.launches), day: 3, block: 5) == 2)
        ledger.reset(folding: nil)
        var empty = StrategyAggregate(days: 4)
        #expect(ledger.fold(into: &empty, block: 5) == nil)
        #expect(empty[.launches] == 0 && empty.chain[.launches] == 0)
    }

    @Test("in a run, APNs accepts a mail's push on the mail's day, and every day's counts add up to apns.csv's")
    func consoleFollowsTheMail() throws {
        // Long offline periods: stored pushes are handed out on a later day than they were accepted.
        let scenario = WorldFixtures.twoStates(perDay: 48, onMean: "5h", offMean: "5h", devices: 40, days: 4,
                                               strategies: #"{ "name": "no-queue" }"#)
        let aggregate = try Simulation.run(scenario).aggregates[0]
        for day in aggregate.daily.indices {
            // Only a push sent in a day's last milliseconds can reach APNs the next day.
            #expect(abs(aggregate.daily[day][.consoleReceived] - aggregate.daily[day][.messages]) <= 2, "day \(day + 1)")
        }
        #expect(aggregate[.consoleReceived] == aggregate.apns[.accepted])
        #expect(aggregate[.consoleDelivered] == aggregate.apns[.delivered] + aggregate.apns[.deliveredFromStorage])
        // Storage was used: some pushes were handed out at a reconnect, hours after APNs took them.
        #expect(aggregate.apns[.deliveredFromStorage] > 0)
    }
}
