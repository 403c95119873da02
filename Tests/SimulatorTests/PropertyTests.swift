@testable import Base
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Testing
import TestThreads

/// Random valid scenarios (every family of the delivery chain, several strategies) and
/// what must hold for each: the same bytes on 1 and 2 threads and through shards +
/// merge, and for lanes played window by window and folded as they play; every message accounted
/// once, shares in [0, 1], funnel stages that never grow along the chain.
/// 25 scenarios by default (about two seconds); `PUSHSIM_PROPERTY_SCENARIOS=1000 swift test
/// --filter PropertyTests` runs more, `PUSHSIM_PROPERTY_SEED` starts elsewhere.
@Suite("Properties over random valid scenarios", .ownThread(.computing))
struct PropertyTests {
    /// How many scenarios one run checks.
    static let count = ProcessInfo.processInfo.environment["PUSHSIM_PROPERTY_SCENARIOS"].flatMap { Int($0) } ?? 25
    /// The first scenario's seed; scenario k uses seed + k.
    static let firstSeed = ProcessInfo.processInfo.environment["PUSHSIM_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 1

    /// Draws scenario texts: a splitmix64 stream per scenario.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
        mutating func share(_ maximum: Double = 1) -> String { String(format: "%.3f", Double(int(0...1000)) / 1000 * maximum) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

        /// A duration distribution with a mean of roughly `scale` (e.g. "2h").
        mutating func distribution(_ scale: [String]) -> String {
            let value = pick(scale)
            switch int(0...4) {
            case 0: return "\"\(value)\""
            case 1: return "{ \"distribution\": \"exponential\", \"mean\": \"\(value)\" }"
            case 2: return "{ \"distribution\": \"uniform\", \"min\": \"0s\", \"max\": \"\(value)\" }"
            case 3: return "{ \"distribution\": \"lognormal\", \"median\": \"\(value)\", \"sigma\": \(share(1.5)) }"
            default: return "{ \"distribution\": \"constant\", \"value\": \"\(value)\" }"
            }
        }

        /// One valid scenario file, each optional family present about half the time.
        mutating func scenario(index: Int) -> String {
            let days = int(1...4)
            var fields = [
                "\"name\": \"property-\(index)\"", "\"seed\": \(int(0...1_000_000))",
                "\"start\": \"2026-0\(int(1...9))-1\(int(0...9))\"", "\"duration\": \"\(days)d\"",
                "\"devices\": \(int(2...12))",
            ]
            var mail = "\"perDay\": \(int(1...40))"
            if chance(0.3) {
                // The first weight is positive: at least one must be.
                mail += ", \"diurnal\": [1, " + (0..<23).map { _ in share(5) }.joined(separator: ", ") + "]"
            }
            if chance(0.3) { mail += ", \"weekendFactor\": \(share(3))" }
            fields.append("\"mail\": { \(mail) }")
            if chance(0.8) {
                var connectivity: [String] = []
                if chance(0.8) {
                    connectivity.append("\"online\": \(distribution(["30m", "2h", "6h"]))")
                    connectivity.append("\"offline\": \(distribution(["5m", "1h", "3h"]))")
                }
                if chance(0.4) {
                    let windows = (0..<int(1...3)).map { _ in
                        "{ \"start\": \"\(String(format: "%02d:%02d", int(0...23), int(0...59)))\", \"duration\": "
                            + distribution(["20m", "2h"]) + ", \"probability\": \(share()), \"days\": \"\(pick(["all", "weekdays", "weekends"]))\" }"
                    }
                    connectivity.append("\"offlineWindows\": [\(windows.joined(separator: ", "))]")
                }
                fields.append("\"connectivity\": { \(connectivity.joined(separator: ", ")) }")
            }
            if chance(0.5) {
                fields.append("\"latency\": { \"providerToAPNs\": \(distribution(["50ms", "1s"])), "
                              + "\"apnsToDevice\": \(distribution(["400ms", "5s"])), "
                              + "\"rerequestRoundTrip\": \(distribution(["300ms", "10s"])) }")
            }
            var provider: [String] = []
            if chance(0.4) { provider.append("\"payloadTTL\": \"\(pick(["30m", "2h", "24h"]))\"") }
            if chance(0.3) { provider.append("\"expiredPositions\": \"\(pick(["resendRest", "error"]))\"") }
            if chance(0.3) { provider.append("\"retries\": \(int(0...3)), \"backoff\": \"\(pick(["1s", "30s"]))\"") }
            if chance(0.3) { provider.append("\"network\": { \"failureProbability\": \(share(0.3)), \"timeout\": \"10s\" }") }
            if chance(0.3) {
                var outages: [String] = []
                if chance(0.5) { outages.append("\"scheduled\": [{ \"start\": \"START\", \"duration\": \"\(pick(["10m", "3h"]))\" }]") }
                if chance(0.7) {
                    outages.append("\"random\": { \"between\": \(distribution(["6h", "1d"])), \"duration\": \(distribution(["10m", "1h"])) }")
                }
                provider.append("\"outages\": { \(outages.joined(separator: ", ")) }")
            }
            let launches = chance(0.6)
            if chance(0.3) {
                provider.append("\"subscriptions\": { \"changesPerDay\": \(share(3)), \"mailShare\": \(share()), "
                                + "\"syncOn\": \"\(launches ? pick(["reconnect", "launch"]) : "reconnect")\" }")
            }
            if !provider.isEmpty { fields.append("\"provider\": { \(provider.joined(separator: ", ")) }") }
            var apns: [String] = []
            if chance(0.3) { apns.append("\"expiration\": \"\(pick(["0", "1h", "2d"]))\"".replacingOccurrences(of: "\"0\"", with: "0")) }
            if chance(0.4) { apns.append("\"storage\": \"nondeterministic\", \"closeTogether\": \"\(pick(["1s", "5s"]))\"") }
            if chance(0.3) { apns.append("\"rateLimit\": { \"burst\": \(int(1...30)), \"window\": \"1m\" }") }
            if chance(0.3) { apns.append("\"priority5Deferral\": \(distribution(["1m", "10m"]))") }
            if !apns.isEmpty { fields.append("\"apns\": { \(apns.joined(separator: ", ")) }") }
            var device: [String] = []
            if chance(0.3) { device.append("\"extensionTimeLimit\": \"\(pick(["5s", "30s"]))\"") }
            for key in ["notificationsDisabled", "alertsNotAllowed", "displayOff", "legacyIOS"] where chance(0.3) {
                device.append("\"\(key)\": \(share(0.3))")
            }
            if chance(0.3) {
                device.append("\"extensionMemory\": { \"footprintMB\": { \"distribution\": \"lognormal\", \"median\": \(int(2...20)), "
                              + "\"sigma\": \(share(0.6)) }, \"olderIOS\": \(share()) }")
            }
            if chance(0.3) { device.append("\"tokenRotation\": { \"perDay\": \(share(0.5)), \"withPrompt\": \(share()) }") }
            if chance(0.3) { device.append("\"deviceIDChangesPerDay\": \(share(0.5))") }
            if chance(0.3) { device.append("\"accounts\": { \"1\": 0.5, \"2\": 0.3, \"3\": 0.2 }") }
            if chance(0.3) { device.append("\"apps\": \(pick(["1", "2", "{ \"1\": 0.6, \"2\": 0.4 }"]))") }
            if launches { device.append("\"launches\": { \"perDay\": \(int(1...6)) }") }
            if chance(0.4) { device.append("\"taps\": { \"probability\": \(share(0.5)), \"delay\": \(distribution(["1m", "10m"])) }") }
            if !device.isEmpty { fields.append("\"device\": { \(device.joined(separator: ", ")) }") }

            var strategies = ["{ \"name\": \"no-queue\" }"]
            for index in 0..<int(1...3) {
                var strategy = "\"name\": \"\(pick(["queue", "queue-as-published"]))\", \"label\": \"s\(index)\", "
                    + "\"repeatMaxCount\": \(int(0...12))"
                if chance(0.3) { strategy += ", \"collapseID\": false" }
                if chance(0.3) { strategy += ", \"registration\": \"once\"" }
                if chance(0.3) { strategy += ", \"priority\": 5" }
                if chance(0.3) { strategy += ", \"from\": \"FROM\", \"adoption\": \(distribution(["1h", "1d"]))" }
                strategies.append("{ \(strategy) }")
            }
            fields.append("\"strategies\": [\(strategies.joined(separator: ", "))]")
            return "{\n  " + fields.joined(separator: ",\n  ") + "\n}\n"
        }
    }

    /// Scenario `index`: drawn, then dates that depend on the start filled in.
    static func scenario(_ index: Int) throws -> (text: String, scenario: Scenario) {
        var generator = Generator(state: firstSeed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
        var text = generator.scenario(index: index)
        // Outages and rollouts start on the run's first day, so they are inside it.
        let start = try #require(text.range(of: "\"start\": \"")).upperBound
        let date = String(text[start...].prefix(10))
        text = text.replacingOccurrences(of: "\"START\"", with: "\"\(date)T06:00\"")
            .replacingOccurrences(of: "\"FROM\"", with: "\"\(date)\"")
        do {
            return (text, try ScenarioDecoder.decode(Array(text.utf8), file: "property-\(index).json"))
        } catch {
            Issue.record("the generator made an invalid scenario: \(error)\n\(text)")
            throw error
        }
    }

    @Test("random valid scenarios: threads and shards give the same bytes; identities, shares and funnel hold")
    func properties() throws {
        for index in 0..<Self.count {
            let (text, scenario) = try Self.scenario(index)
            let context = Comment(rawValue: "scenario \(index) (PUSHSIM_PROPERTY_SEED=\(Self.firstSeed)):\n\(text)")
            let one = try Simulation.run(scenario, threads: 1)
            let two = try Simulation.run(scenario, threads: 2)
            #expect(one == two, context)
            // Every lane played a few entries at a time and folded as it plays: the same counts.
            let folded = try Simulation.run(scenario, threads: 1, memory: .init(timelineWindow: 3, recordsHeld: 1))
            #expect(one == folded, context)
            let whole = RunOutput(scenario: scenario, scenarioText: text, result: one, commandLine: "pushsim", record:
                RunRecord(scenario: scenario, scenarioBytes: Array(text.utf8), commandLine: ["pushsim"]))
            let twoThreads = RunOutput(scenario: scenario, scenarioText: text, result: two, commandLine: "pushsim", record:
                RunRecord(scenario: scenario, scenarioBytes: Array(text.utf8), commandLine: ["pushsim"]))
            #expect(whole.files.map(\.contents) == twoThreads.files.map(\.contents), context)

            // Shards written as partial files, read back and merged.
            var merged: SimulationResult?
            for shard in 1...2 {
                let users = Simulation.shardRange(index: shard, count: 2, devices: scenario.devices)
                let part = try Simulation.run(scenario, users: users, threads: 1)
                let encoded = PartialResult(scenarioText: text, seed: scenario.seed, shard: (shard, 2), result: part).encoded()
                let decoded = try PartialResult.decode(Array(encoded.utf8), file: "part-\(shard).json").partial.result
                if merged == nil { merged = decoded } else { merged?.merge(decoded) }
            }
            let shards = try #require(merged)
            #expect(Reports(scenario: scenario, result: shards).files.map(\.contents)
                    == Reports(scenario: scenario, result: one).files.map(\.contents), context)

            #expect(one.checkIdentity() == nil, context)
            for (strategyIndex, aggregate) in one.aggregates.enumerated() {
                #expect(aggregate[.delivered] + aggregate[.summarized] + aggregate.lost + aggregate.pending == aggregate[.messages], context)
                for metric in Metric.allCases where metric != .pushesPerMessage {
                    // Without a denominator there is no value (NaN), never a share outside [0, 1].
                    let value = one.estimate(metric, strategy: strategyIndex).value
                    #expect((value >= 0 && value <= 1) == (metric.denominator(of: aggregate) > 0), "\(metric.name) = \(value); \(context)")
                }
                let pushes = one.estimate(.pushesPerMessage, strategy: strategyIndex).value
                #expect(aggregate[.messages] == 0 ? pushes.isNaN : pushes >= 0, context)
                // The funnel's stages never grow along each branch of the chain (docs/reports.md, funnel.csv:
                // `shown` and `logged` are two branches after `reached_device`, not in order).
                let stage = Dictionary(uniqueKeysWithValues: Reports.funnelStages.map { ($0.stage, $0.count.total(in: aggregate)) })
                for branch in [["messages", "provider_sent", "apns_accepted", "reached_device", "shown", "opened"],
                               ["reached_device", "logged", "uploaded"]] {
                    let counts = branch.map { stage[$0] ?? -1 }
                    #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 >= $1 && $1 >= 0 },
                            "funnel \(branch) = \(counts) of \(one.strategies[strategyIndex].label); \(context)")
                }
            }
        }
    }
}
