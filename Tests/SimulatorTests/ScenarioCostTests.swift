@testable import Base
@testable import CLI
@testable import FakeAPNs
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// `validate`'s estimate of what a run will cost.
@Suite("Scenario cost: expected messages")
struct ScenarioCostTests {
    static func scenario(duration: String, mail: String, device: String = "", strategies: Int = 2,
                         devices: Int = 1000) throws -> Scenario {
        let names = ["no-queue", "queue", "queue-as-published"].prefix(strategies)
        let text = """
        { "name": "cost", "start": "2026-01-05", "duration": "\(duration)", "devices": \(devices),
          "mail": \(mail), \(device)
          "strategies": [\(names.map { "{ \"name\": \"\($0)\" }" }.joined(separator: ", "))] }
        """
        return try ScenarioDecoder.decode(Array(text.utf8), file: "cost.json")
    }

    @Test("a week from a Monday: devices × (5 weekdays + 2 weekend days × factor) × perDay × strategies, exactly")
    func weekClosedForm() throws {
        let scenario = try Self.scenario(duration: "7d", mail: #"{ "perDay": 10, "weekendFactor": 0.5 }"#)
        #expect(scenario.start.weekday == 0)
        let mails: Double = 5 * 10 + 2 * 10 * 0.5
        #expect(scenario.expectedMailsPerLane == mails)
        #expect(scenario.expectedMessages == 1000 * mails * 2)
    }

    @Test("a partial last day counts the hours it reaches with their diurnal weights")
    func partialDay() throws {
        // Weights 1 (night half) and 3 (day half) normalise to 0.5 and 1.5: the first 12 h of
        // Tuesday carry 10 × 12 × 0.5 / 24 = 2.5 mails, the last 30 min of them 10 × 0.5 × 1.5 / 24.
        let diurnal = (Array(repeating: "1", count: 12) + Array(repeating: "3", count: 12)).joined(separator: ", ")
        let scenario = try Self.scenario(duration: "36.5h", mail: "{ \"perDay\": 10, \"diurnal\": [\(diurnal)] }")
        let lastHalfHour: Double = 10 * 0.5 * 1.5 / 24
        #expect(scenario.expectedMailsPerLane == 10 + 2.5 + lastHalfHour)
    }

    @Test("mean apps and mean accounts multiply the messages")
    func appsAndAccounts() throws {
        let scenario = try Self.scenario(duration: "7d", mail: #"{ "perDay": 10, "weekendFactor": 0.5 }"#,
                                         device: #""device": { "apps": 2, "accounts": { "1": 0.5, "2": 0.5 } },"#)
        let expected: Double = 1000 * 2 * 1.5 * 60 * 2
        #expect(scenario.expectedMessages == expected)
    }

    @Test("10^8 devices for a century at a million mails a day stay finite (floating point, no overflow)")
    func noOverflow() throws {
        let scenario = try Self.scenario(duration: "36500d", mail: #"{ "perDay": 1000000 }"#,
                                         device: #""device": { "apps": 20, "accounts": 20 },"#,
                                         strategies: 3, devices: 100_000_000)
        let expected: Double = 1e8 * 20 * 20 * 1e6 * 36500 * 3
        #expect(scenario.expectedMessages == expected)
        #expect(scenario.expectedMessages.isFinite)
    }

    @Test("validate's cost line: messages, per device and strategy, and wall time at the assumed speed")
    func costLine() throws {
        let scenario = try Self.scenario(duration: "59d", mail: #"{ "perDay": 10 }"#, strategies: 3, devices: 100_000_000)
        // 10^8 × 590 × 3 = 1.77 × 10^11 messages / (2.5 × 10^6 × 2) = 35,400 s.
        #expect(ValidateCommand.costLine(scenario, threads: 2) == "cost: about 177,000,000,000 messages "
                + "(590 per device and strategy); about 9.8 h on 2 threads (at 2.5 million messages a second per thread)")
        let small = try Self.scenario(duration: "1d", mail: #"{ "perDay": 10 }"#, strategies: 1, devices: 1)
        #expect(ValidateCommand.costLine(small, threads: 8) == "cost: about 10 messages (10 per device and strategy); "
                + "under a second on 1 thread (at 2.5 million messages a second per thread)")
    }
}

/// The memory estimate against peaks measured on the fixtures in `Tests/Fixtures/cost`
/// (release build, `/usr/bin/time -v`, recorded in docs/performance.md; the recipe is
/// `Tests/Fixtures/cost/measure.sh`). The figures here are the model's closed form; the
/// measured ones are constants, so nothing is timed or measured in the test.
@Suite("Scenario cost: memory against measured peaks")
struct ScenarioCostMemoryTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cost")

    static func fixture(_ name: String, sets: [String] = []) throws -> Scenario {
        let bytes = try ScenarioDecoder.readBytes(path: fixtures.appendingPathComponent(name).path)
        return try ScenarioDecoder.decode(bytes, file: name, overrides: try sets.map { try ScenarioOverride($0) })
    }

    static let mebibyte = 1_048_576.0

    @Test("token rotations: APNs's slot for every token, at the power of two its arrays reach, within 1.5× of the measured peak",
          arguments: [
            // (duration, the arrays' capacity, measured peak in MiB of `run --threads 1`)
            ("1d", 1 << 20, 155.3), ("2d", 1 << 21, 287.7), ("4d", 1 << 22, 553.0),
          ])
    func tokenRotations(duration: String, capacity: Int, measuredMiB: Double) throws {
        let scenario = try Self.fixture("token-rotations.json", sets: ["duration=" + duration])
        let cost = RunCost(scenario, threads: 1)
        let days = Double(scenario.duration) / Double(TimeUnit.day)
        #expect(cost.rotationsPerLane == 1_000_000 * days)
        #expect(cost.tokenBytesPerThread == Double(capacity * APNsServer.bytesPerToken))
        let estimateMiB = cost.memoryBytes / Self.mebibyte
        #expect(measuredMiB <= 1.5 * estimateMiB && estimateMiB <= 1.5 * measuredMiB, "estimate \(estimateMiB) MiB")
        #expect(cost.limitPassed == nil)
    }

    @Test("a million rotations a day for 49 days (8 GB of APNs's token slots) passes the memory limit")
    func rotationsPastTheLimit() throws {
        let cost = RunCost(try Self.fixture("token-rotations.json", sets: ["duration=49d"]), threads: 1)
        #expect(cost.tokenBytesPerThread == Double((1 << 26) * APNsServer.bytesPerToken))
        let passed = try #require(cost.limitPassed)
        #expect(passed.contains("by APNs for the tokens of 49,000,000 rotations"))
    }

    @Test("strategies × days: each thread's counts and their sum while simulating, the sum and the reports while rendering",
          arguments: [
            // (duration, devices, threads, measured peak in MiB: `run` on one device, `bench` on 128 for two threads)
            ("1000d", 1, 1, 786.9), ("2000d", 1, 1, 1533.8), ("4000d", 1, 1, 3038.3), ("1000d", 128, 2, 1099.9),
          ])
    func strategyDays(duration: String, devices: Int, threads: Int, measuredMiB: Double) throws {
        let scenario = try Self.fixture("strategy-days.json", sets: ["duration=" + duration, "devices=\(devices)"])
        let cost = RunCost(scenario, threads: threads)
        let strategyDays = Double(scenario.strategies.count * scenario.dayCount)
        let counts = strategyDays * RunCost.strategyDayBytes
        #expect(cost.dailyBytes == max(Double(threads + 1) * counts, counts + strategyDays * RunCost.reportBytesPerStrategyDay))
        let estimateMiB = cost.memoryBytes / Self.mebibyte
        #expect(measuredMiB <= 1.5 * estimateMiB && estimateMiB <= 1.5 * measuredMiB, "estimate \(estimateMiB) MiB")
        #expect(cost.limitPassed == nil)
    }
}
