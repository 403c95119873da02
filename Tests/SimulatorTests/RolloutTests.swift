import Foundation
@testable import ScenarioFormat
@testable import Simulator
import TestSupport
import Testing

/// A strategy that reaches devices as an app update: the provider numbers from
/// `from`, each device app switches `adoption` after it.
@Suite("Rollouts")
struct RolloutTests {
    /// Exponential on/off periods, no latency: every draw before the switch is the no-queue world's.
    static func scenario(devices: Int, days: Int, rollout: String, extra: String = "") -> Scenario {
        WorldFixtures.twoStates(perDay: 48, onMean: "3h", offMean: "1h", devices: devices, days: days, extra: extra,
                                strategies: """
                                { "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 20 },
                                { "name": "queue", "label": "rollout", "repeatMaxCount": 20, \(rollout) }
                                """)
    }

    @Test("before its first day a rollout is no-queue exactly: the same messages, outcomes and requests, day by day")
    func beforeTheSwitchItIsTheOldStrategy() throws {
        // 2026-01-05 + 3 days: numbering starts on day 4.
        let scenario = Self.scenario(devices: 60, days: 6, rollout: #""from": "2026-01-08", "adoption": 0"#)
        let result = try Simulation.run(scenario, threads: 2)
        let old = result["no-queue"], rollout = result["rollout"]
        for day in 0..<3 { #expect(rollout.daily[day] == old.daily[day], "day \(day + 1)") }
        // From the switch on the queue wins mail back that no-queue loses.
        let after = 3..<6
        let lostAfter = { (aggregate: StrategyAggregate) in after.reduce(0) { $0 + aggregate.daily[$1][.lost] } }
        #expect(lostAfter(rollout) < lostAfter(old) / 2)
        #expect(rollout.rerequests > 0)
        // Adoption 0: every device app updates at the switch, once.
        #expect(rollout.chain[.appUpdates] == Int64(scenario.devices))
        #expect(old.chain[.appUpdates] == 0 && result["queue"].chain[.appUpdates] == 0)
    }

    @Test("a rollout whose first day is the run's first day, adopted at once, is the queue strategy exactly")
    func switchAtTheStartIsTheNewStrategy() throws {
        let scenario = Self.scenario(devices: 40, days: 3, rollout: #""from": "2026-01-05""#)
        let result = try Simulation.run(scenario, threads: 2)
        var rollout = result["rollout"]
        rollout.chain[.appUpdates] = 0
        #expect(rollout == result["queue"])
    }

    @Test("the share of device apps updated by the end follows the adoption law: exponential mean 1 day, 2 days → 1 − e⁻²")
    func adoptionCurve() throws {
        let scenario = WorldFixtures.scenario("""
        { "name": "adoption", "seed": 3, "start": "2026-01-05", "duration": "3d", "devices": 3000,
          "mail": { "perDay": 1 },
          "strategies": [ { "name": "queue", "from": "2026-01-06",
                            "adoption": { "distribution": "exponential", "mean": "1d" } } ] }
        """)
        let result = try Simulation.run(scenario, threads: 2)["queue"]
        let expected = 1 - exp(-2.0)                                              // ≈ 0.8647
        let share = Double(result.chain[.appUpdates]) / Double(scenario.devices)
        // Binomial over devices: SE = √(p(1−p)/n) ≈ 0.0062; tolerance 4 SE.
        let se = (expected * (1 - expected) / Double(scenario.devices)).squareRoot()
        #expect(abs(share - expected) < 4 * se, "share \(share), expected \(expected), SE \(se)")
    }

    @Test("the same seed gives every rollout strategy the same update instants (common random numbers)")
    func updatesAreCommonRandomNumbers() throws {
        let scenario = WorldFixtures.twoStates(perDay: 24, onMean: "3h", offMean: "1h", devices: 50, days: 4, strategies: """
            { "name": "queue", "label": "a", "from": "2026-01-06", "adoption": { "distribution": "uniform", "min": 0, "max": "2d" } },
            { "name": "queue", "label": "b", "from": "2026-01-06", "adoption": { "distribution": "uniform", "min": 0, "max": "2d" } }
            """)
        let result = try Simulation.run(scenario, threads: 2)
        #expect(result["a"] == result["b"])
        // Uniform over 2 days, 2 days left after the switch: every app updates.
        #expect(result["a"].chain[.appUpdates] == 50)
    }

    @Test("rollout fields are checked: a date inside the run, a queue strategy, a known old strategy, from named",
          arguments: [
            (#""from": "2026-01-20""#, "strategies[0].from: 2026-01-20 is outside the run"),
            (#""from": "2026-01-04""#, "strategies[0].from: 2026-01-04 is outside the run"),
            (#""from": "Jan 6""#, "strategies[0].from: not a date: \"Jan 6\" (write YYYY-MM-DD)"),
            (#""from": "2026-01-32""#, "strategies[0].from: not a calendar date: \"2026-01-32\" (January 2026 has 31 days)"),
            (#""before": "no-queue""#, "strategies[0].before: a rollout needs \"from\""),
            (#""from": "2026-01-06", "before": "fifo""#, "strategies[0].before: unknown strategy \"fifo\""),
            (#""from": "2026-01-06", "adoption": 5"#, "strategies[0].adoption: a duration needs a unit"),
          ])
    func fieldsAreChecked(fields: String, message: String) {
        let text = """
        { "name": "bad", "start": "2026-01-05", "duration": "3d", "devices": 1, "mail": { "perDay": 1 },
          "strategies": [ { "name": "queue", \(fields) } ] }
        """
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "bad.json")
            Issue.record("decoded \(fields)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("no-queue cannot roll out: it has nothing to switch on")
    func noQueueHasNoRollout() {
        let text = """
        { "name": "bad", "start": "2026-01-05", "duration": "3d", "devices": 1, "mail": { "perDay": 1 },
          "strategies": [ { "name": "no-queue", "from": "2026-01-06" } ] }
        """
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode(Array(text.utf8), file: "bad.json") }
    }
}
