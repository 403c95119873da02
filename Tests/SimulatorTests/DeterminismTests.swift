import Foundation
@testable import Reports
@testable import Simulator
import TestSupport
import Testing
import TestThreads

@Suite("Determinism", .ownThread(.computing))
struct DeterminismTests {
    /// mail-january-february with 300 devices over 10 days (its scheduled outage and rollout moved
    /// into them), decoded from `scenarioText`, the text a shard's partial embeds.
    static let scenario = WorldFixtures.scenario(scenarioText)

    @Test("one seed gives the same result, whatever the number of threads")
    func sameResultForAnyThreadCount() throws {
        let one = try Simulation.run(Self.scenario, threads: 1)
        let two = try Simulation.run(Self.scenario, threads: 2)
        let five = try Simulation.run(Self.scenario, threads: 5)
        #expect(one == two)
        #expect(one == five)
        // Every file, the standard errors and the comparison included, and for every baseline.
        for baseline in Self.scenario.strategies.indices {
            #expect(Reports(scenario: Self.scenario, result: one, baseline: baseline).files.map(\.contents)
                    == Reports(scenario: Self.scenario, result: five, baseline: baseline).files.map(\.contents))
        }
        // The blocks carry real spread: the standard errors are not all 0.
        #expect(one.estimate(.deliverability, strategy: 0).standardError > 0)
        #expect(one.dailyEstimate(.deliverability, strategy: 0, day: 1).standardError > 0)
    }

    @Test("another seed gives another result")
    func seedMatters() throws {
        var other = Self.scenario
        other.seed += 1
        #expect(try Simulation.run(Self.scenario, threads: 2) != Simulation.run(other, threads: 2))
    }

    /// The shipped file's text, shortened.
    static let scenarioText: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("scenarios/mail-january-february.json")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.replacingOccurrences(of: "\"devices\": 2000,", with: "\"devices\": 300,")
            .replacingOccurrences(of: "\"duration\": \"59d\",", with: "\"duration\": \"10d\",")
            .replacingOccurrences(of: "\"start\": \"2026-02-10T14:00\"", with: "\"start\": \"2026-01-08T14:00\"")
            .replacingOccurrences(of: "\"from\": \"2026-02-01\"", with: "\"from\": \"2026-01-05\"")
    }()

    @Test("shards simulated apart, written as partial files, read back and merged equal one run, report for report")
    func shardsThenMergeEqualOneRun() throws {
        #expect(Self.scenario.devices == 300 && Self.scenario.dayCount == 10)
        let whole = try Simulation.run(Self.scenario, threads: 2)
        var merged: SimulationResult?
        // In `pushsim merge`'s order of arguments, not the shards' own.
        for index in [2, 3, 1] {
            let users = Simulation.shardRange(index: index, count: 3, devices: Self.scenario.devices)
            let part = try Simulation.run(Self.scenario, users: users, threads: 1)
            // Through the partial file format, as `pushsim merge` reads it: encoded to
            // bytes, decoded (checked), then summed with checked sums.
            let bytes = Array(PartialResult(scenarioText: Self.scenarioText, seed: Self.scenario.seed, shard: (index, 3),
                                            result: part).encoded().utf8)
            let decoded = try PartialResult.decode(bytes, file: "part\(index).json")
            #expect(decoded.scenario == Self.scenario)
            #expect(decoded.partial.shard == (index, 3))
            #expect(decoded.partial.result == part)
            if merged == nil { merged = decoded.partial.result } else {
                try merged!.merge(part: decoded.partial.result, file: "part\(index).json")
            }
        }
        #expect(merged == whole)
        let fromParts = Reports(scenario: Self.scenario, result: merged!), fromWhole = Reports(scenario: Self.scenario, result: whole)
        #expect(fromParts.files.map(\.contents) == fromWhole.files.map(\.contents))
        #expect(fromParts.table == fromWhole.table)
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
