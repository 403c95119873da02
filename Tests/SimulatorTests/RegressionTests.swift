import Foundation
import Testing
@testable import Simulator

/// Strategy comparisons on the shipped scenarios: the numbers a team would act on.
@Suite("Regression")
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
        #expect(noQueue.messages == queue.messages && queue.messages == published.messages)
        // The as-published code keeps a stale position: it re-requests pushes already shown
        // (collapsed by collapse id), sends far more pushes and summarises more.
        #expect(published.rerequests > 5 * queue.rerequests)
        #expect(published.collapsed > 0 && queue.collapsed == 0)
        #expect(published.summarized > queue.summarized)
        #expect(Double(published.pushesSent) / Double(published.messages) > 1.3)
    }

    @Test("mail-january-february: queue beats no-queue, and without collapse ids re-sends show duplicates")
    func mailJanuaryFebruaryComparesStrategies() throws {
        var scenario = WorldFixtures.shipped("mail-january-february.json")
        scenario.devices = 200
        let result = try Simulation.run(scenario, threads: 2)
        let noQueue = result["no-queue"], queue = result["queue"]
        let noCollapse = result["queue-no-collapse-id"]
        #expect(queue.deliverability - noQueue.deliverability > 0.02)
        #expect(queue.informedRate > 0.99)
        #expect(noQueue.lost(.apnsCoalesced) > 0)
        // Jitter reorders pushes, so some re-sends duplicate a push already shown:
        // merged by collapse id in `queue`, shown twice without it.
        #expect(queue.duplicatesShown == 0)
        #expect(noCollapse.duplicatesShown == queue.collapsed)
        #expect(noCollapse.delivered == queue.delivered)
        // Weekend days get less mail (weekendFactor 0.8).
        let weekday = result["no-queue"].daily[4].messages, saturday = result["no-queue"].daily[2].messages
        #expect(saturday < weekday)
    }
}
