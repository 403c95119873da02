import Foundation
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// Strategy comparisons on the shipped scenarios: the numbers a team would act on.
@Suite("Regression", .ownThread(.computing))
struct RegressionTests {
    @Test("two-states: queue beats no-queue by more than 8 points and informs about nearly every mail")
    func twoStatesQueueBeatsNoQueue() throws {
        var scenario = WorldFixtures.shipped("two-states.json")
        scenario.devices = 150   // keeps the debug-build test quick; the gap is ~10 points
        let result = try Simulation.run(scenario, threads: 2)
        let noQueue = result["no-queue"], queue = result["queue"], published = result["queue-as-published"]
        #expect(queue.deliverability - noQueue.deliverability > 0.08)
        #expect(queue.informedRate > 0.995)
        #expect(noQueue.informedRate == noQueue.deliverability)
        // Common random numbers: every strategy saw the same mail.
        #expect(noQueue[.messages] == queue[.messages] && queue[.messages] == published[.messages])
        // The as-published code keeps a stale position: it re-requests pushes already shown
        // (collapsed by collapse id), sends far more pushes and summarises more.
        #expect(published.rerequests > 5 * queue.rerequests)
        #expect(published.collapsed > 0 && queue.collapsed == 0)
        #expect(published[.summarized] > queue[.summarized])
        #expect(Double(published[.pushesSent]) / Double(published[.messages]) > 1.3)
    }

    @Test("mail-january-february, the whole chain: the queue wins back APNs coalescing and nothing else, every family shows up, the measured figure reads low")
    func mailJanuaryFebruaryComparesStrategies() throws {
        var scenario = WorldFixtures.shipped("mail-january-february.json")
        scenario.devices = 200
        let result = try Simulation.run(scenario, threads: 2)
        let noQueue = result["no-queue"], queue = result["queue"], published = result["queue-as-published"]
        let noCollapse = result["queue-no-collapse-id"]
        // The queue's win is APNs' one-per-app storage, and it is most of the gap.
        #expect(queue.deliverability - noQueue.deliverability > 0.02)
        #expect(noQueue.lost(.apnsCoalesced) > 10 * queue.lost(.apnsCoalesced))
        // The settings losses belong to the user, not to the strategy: identical everywhere.
        for reason in [LossReason.disabled, .alertsNotAllowed, .displayOff] {
            #expect(noQueue.lost(reason) > 0)
            #expect(result.aggregates.allSatisfy { $0.lost(reason) == noQueue.lost(reason) })
        }
        // Every family of the file is active in the queue's run.
        #expect(queue.lost(.unregistered) > 0 && queue.chain[.tokenRotations] > 0)
        #expect(queue.lost(.staleSubscription) > 0 && queue.chain[.subscriptionChanges] > 0)
        #expect(queue.lost(.providerOutage) > 0)
        #expect(queue.chain[.retries] > 0)
        #expect(queue.chain[.extensionKilled] > 0)
        #expect(queue.chain[.launches] > 0 && queue[.opened] > 0)
        #expect(queue.apns[.discardedDisabled] == queue.lost(.disabled))
        #expect(queue.apns[.discardedReplaced] > 0 && queue.apns[.deliveredFromStorage] > 0)
        // The talk's logging misses logs not yet uploaded and users whose extension never logs.
        for aggregate in result.aggregates {
            #expect(aggregate.measuredDeliverability < aggregate.deliverability)
            #expect(aggregate.measuredDeliverability > aggregate.deliverability - 0.05)
        }
        // The as-published code re-requests far more (stale saved position).
        #expect(published.rerequests > 5 * queue.rerequests)
        // Jitter reorders pushes, so some re-sends duplicate a push already shown:
        // merged by collapse id in `queue`, shown twice without it.
        #expect(queue.duplicatesShown == 0)
        #expect(noCollapse.duplicatesShown == queue.collapsed)
        #expect(noCollapse[.delivered] == queue[.delivered])
        // The talk's chart: February with the queue above January without it, weekends lower.
        let january = noQueue.daily.prefix(31), february = queue.daily.suffix(28)
        func rate(_ days: some Collection<DayCounts>) -> Double {
            Double(days.reduce(0) { $0 + $1[.delivered] }) / Double(days.reduce(0) { $0 + $1[.messages] })
        }
        #expect(rate(february) - rate(january) > 0.02)
        let weekday = noQueue.daily[4][.messages], saturday = noQueue.daily[2][.messages]
        #expect(saturday < weekday)
    }
}
