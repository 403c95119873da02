import Foundation
import Testing
@testable import Simulator

@Suite("Determinism")
struct DeterminismTests {
    static let scenario: Scenario = {
        var scenario = WorldFixtures.shipped("mail-january-february.json")
        scenario.devices = 300
        scenario.duration = 10 * 86_400_000_000
        return scenario
    }()

    @Test("one seed gives the same result, whatever the number of threads")
    func sameResultForAnyThreadCount() throws {
        let one = try Simulation.run(Self.scenario, threads: 1)
        let two = try Simulation.run(Self.scenario, threads: 2)
        let five = try Simulation.run(Self.scenario, threads: 5)
        #expect(one == two)
        #expect(one == five)
        #expect(Reports(scenario: Self.scenario, result: one).summary == Reports(scenario: Self.scenario, result: five).summary)
    }

    @Test("another seed gives another result")
    func seedMatters() throws {
        var other = Self.scenario
        other.seed += 1
        #expect(try Simulation.run(Self.scenario, threads: 2) != Simulation.run(other, threads: 2))
    }

    @Test("shards simulated apart and merged equal one run, report for report")
    func shardsThenMergeEqualOneRun() throws {
        let whole = try Simulation.run(Self.scenario, threads: 2)
        var merged: SimulationResult?
        for index in 1...3 {
            let users = Simulation.shardRange(index: index, count: 3, devices: Self.scenario.devices)
            let part = try Simulation.run(Self.scenario, users: users, threads: 1)
            // Through the partial file format, as `pushsim merge` reads it.
            let text = PartialResult(scenarioText: "{}", seed: Self.scenario.seed, shard: (index, 3), result: part).encoded()
            #expect(text.contains("\"shard\":[\(index),3]"))
            if merged == nil { merged = part } else { merged!.merge(part) }
        }
        #expect(merged == whole)
        #expect(Reports(scenario: Self.scenario, result: merged!).daily == Reports(scenario: Self.scenario, result: whole).daily)
    }

    @Test("shard ranges cover every device exactly once")
    func shardRangesPartitionDevices() {
        for devices in [1, 7, 100, 1_000_003] {
            for count in [1, 2, 3, 8, 13] {
                var next = 0
                for index in 1...count {
                    let range = Simulation.shardRange(index: index, count: count, devices: devices)
                    #expect(range.lowerBound == next)
                    next = range.upperBound
                }
                #expect(next == devices)
            }
        }
    }

    @Test("a user's world is the same simulated alone or among others")
    func userIndependentOfNeighbours() throws {
        let all = try Simulation.run(Self.scenario, users: 0..<40, threads: 1)
        var pieces = try Simulation.run(Self.scenario, users: 0..<17, threads: 1)
        pieces.merge(try Simulation.run(Self.scenario, users: 17..<40, threads: 2))
        #expect(all == pieces)
    }
}
