@testable import Base
@testable import CLI
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Synchronization
import TestSupport
import Testing

/// The bounds on numbers that drive work or memory, and the cost check before a run:
/// each case a hostile user found (issue 14) is refused with the field and the bound.
@Suite("Scenario limits: bounds and the cost check")
struct ScenarioLimitsTests {
    /// A valid scenario with `fields` merged in at the top level (they replace the defaults
    /// named the same) and `strategies` as given.
    static func text(_ fields: [String: String] = [:], strategies: String = #"[{ "name": "no-queue" }]"#) -> String {
        var all = ["\"name\"": #""limits""#, "\"start\"": #""2026-01-05""#, "\"duration\"": #""2d""#, "\"devices\"": "1",
                   "\"mail\"": #"{ "perDay": 10 }"#, "\"strategies\"": strategies]
        for (key, value) in fields { all["\"\(key)\""] = value }
        return "{ " + all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ",\n") + " }"
    }

    /// The error decoding `text` throws, or nil when it decodes.
    static func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "limits.json")
            return nil
        } catch {
            return error
        }
    }

    @Test("a weekendFactor of 1e300 is refused at mail.weekendFactor, naming the bound of 100")
    func weekendFactor() throws {
        let error = try #require(Self.error(Self.text(["mail": #"{ "perDay": 10, "weekendFactor": 1e300 }"#])))
        #expect(error.path == "mail.weekendFactor")
        #expect("\(error)".contains("weekendFactor is at most 100"))
        #expect(Self.error(Self.text(["mail": #"{ "perDay": 10, "weekendFactor": 100 }"#])) == nil)
    }

    @Test("two diurnal weights of 1e308 (whose sum overflowed to 0 messages) are refused at the first")
    func diurnalOverflow() throws {
        let weights = ["1e308", "1e308"] + Array(repeating: "0", count: 22)
        let error = try #require(Self.error(Self.text(["mail": "{ \"perDay\": 10, \"diurnal\": [\(weights.joined(separator: ","))] }"])))
        #expect(error.path == "mail.diurnal[0]")
        #expect("\(error)".contains("at most 1000000"))
        // The largest allowed weights sum without overflow and give the messages of a flat day.
        let big = ["1000000", "1000000"] + Array(repeating: "0", count: 22)
        let scenario = try ScenarioDecoder.decode(
            Array(Self.text(["mail": "{ \"perDay\": 10, \"diurnal\": [\(big.joined(separator: ","))] }"]).utf8), file: "x")
        #expect(abs(scenario.expectedMailsPerLane - 20) < 1e-9)
    }

    @Test("random outages 1 ms apart over 100 years are refused before any outage is drawn")
    func randomOutageDensity() throws {
        let provider = #"{ "outages": { "random": { "between": "1ms", "duration": "1ms" } } }"#
        let error = try #require(Self.error(Self.text(["duration": #""36500d""#, "provider": provider])))
        #expect(error.path == "provider.outages.random")
        #expect("\(error)".contains("more than 100000"))
        // A realistic density (a few a week) passes.
        let weekly = #"{ "outages": { "random": { "between": "3d", "duration": "1h" } } }"#
        #expect(Self.error(Self.text(["duration": #""36500d""#, "provider": weekly])) == nil)
    }

    @Test("2,000 strategies over 36,500 days are refused at strategies, naming both bounds")
    func strategyDays() throws {
        let many = "[" + (0..<2000).map { "{ \"name\": \"no-queue\", \"label\": \"s\($0)\" }" }.joined(separator: ",") + "]"
        let error = try #require(Self.error(Self.text(["duration": #""36500d""#], strategies: many)))
        #expect(error.path == "strategies")
        #expect("\(error)".contains("at most 100 strategies, found 2000"))
        let ten = "[" + (0..<11).map { "{ \"name\": \"no-queue\", \"label\": \"s\($0)\" }" }.joined(separator: ",") + "]"
        let long = try #require(Self.error(Self.text(["duration": #""36500d""#], strategies: ten)))
        #expect("\(long)".contains("11 strategies × 36500 days is more than 400000 strategy-days"))
    }

    @Test("100,000 strategies are refused by count, and 100 distinct labels decode (a set, not a quadratic scan)")
    func manyStrategies() throws {
        let many = "[" + (0..<100_000).map { "{ \"name\": \"no-queue\", \"label\": \"s\($0)\" }" }.joined(separator: ",") + "]"
        let error = try #require(Self.error(Self.text(strategies: many)))
        #expect("\(error)".contains("at most 100 strategies, found 100000"))
        let hundred = "[" + (0..<100).map { "{ \"name\": \"no-queue\", \"label\": \"s\($0)\" }" }.joined(separator: ",") + "]"
        let scenario = try ScenarioDecoder.decode(Array(Self.text(strategies: hundred).utf8), file: "x")
        #expect(scenario.strategies.count == 100)
        let twice = #"[{ "name": "no-queue", "label": "a" }, { "name": "queue", "label": "a" }]"#
        #expect("\(try #require(Self.error(Self.text(strategies: twice))))".contains("two strategies are labelled \"a\""))
    }

    @Test("more offline windows, scheduled outages or expectations than the bounds are refused at the list")
    func listBounds() throws {
        let window = #"{ "start": "08:00", "duration": "1h", "probability": 0.5 }"#
        let windows = "{ \"offlineWindows\": [" + Array(repeating: window, count: 101).joined(separator: ",") + "] }"
        let windowError = try #require(Self.error(Self.text(["connectivity": windows])))
        #expect(windowError.path == "connectivity.offlineWindows")
        #expect("\(windowError)".contains("at most 100 offline windows, found 101"))

        let outage = #"{ "start": "2026-01-05T01:00", "duration": "1m" }"#
        let outages = "{ \"outages\": { \"scheduled\": [" + Array(repeating: outage, count: 10_001).joined(separator: ",") + "] } }"
        let outageError = try #require(Self.error(Self.text(["provider": outages])))
        #expect(outageError.path == "provider.outages.scheduled")
        #expect("\(outageError)".contains("at most 10000 scheduled outages, found 10001"))

        let expectation = #"{ "metric": "deliverability", "strategy": "no-queue", "atLeast": 0 }"#
        let expect = "[" + Array(repeating: expectation, count: 1001).joined(separator: ",") + "]"
        let expectError = try #require(Self.error(Self.text(["expect": expect])))
        #expect(expectError.path == "expect")
        #expect("\(expectError)".contains("at most 1000 expectations, found 1001"))
    }

    @Test("validate /dev/zero stops after 16 MB with one error line, exit 65")
    func devZero() {
        let captured = CapturedConsole()
        let code = PushSimCommand.main(["validate", "/dev/zero"], console: captured.console)
        #expect(code == .dataError)
        #expect(captured.err == "error: /dev/zero: cannot read the scenario: larger than 16 MB, the most pushsim reads\n")
    }

    @Test("a scenario file one byte past 16 MB is refused; one of exactly 16 MB is read")
    func fileSizeCap() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-big-\(UUID().uuidString).json").path
        defer { unlink(path) }
        // Sparse: the file takes no disk, only its length matters.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(ftruncate(descriptor, off_t(ScenarioLimits.fileBytes + 1)) == 0)
        close(descriptor)
        #expect(throws: FileReadError(reason: "larger than 16 MB, the most pushsim reads")) {
            try FileBytes.read(path: path, limit: ScenarioLimits.fileBytes)
        }
        #expect(truncate(path, off_t(ScenarioLimits.fileBytes)) == 0)
        #expect(try FileBytes.read(path: path, limit: ScenarioLimits.fileBytes).count == ScenarioLimits.fileBytes)
    }

    @Test("a million mails a day for one device over 100 years stops before the simulation, exit 65, naming --allow-large")
    func costRefusedBeforeRun() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-cost-\(UUID().uuidString).json").path
        defer { unlink(path) }
        try Data(Self.text(["duration": #""36500d""#, "mail": #"{ "perDay": 1000000 }"#]).utf8).write(to: URL(fileURLWithPath: path))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-cost-out-\(UUID().uuidString)").path
        let simulated = Mutex(false)
        let captured = CapturedConsole()
        let code = RunCommand.main(["--out", out, path][...], console: captured.console) { _, _, _, _, _ in
            simulated.withLock { $0 = true }
            throw AccountingError(description: "not reached")
        }
        #expect(code == .dataError)
        #expect(!simulated.withLock { $0 })
        #expect(captured.err.hasPrefix("error: \(path): the run is too large: about 36,500,000,000 messages, above the limit"))
        #expect(captured.err.hasSuffix("pass --allow-large to run it anyway\n"))
        #expect(captured.err.split(separator: "\n").count == 1)
        #expect(access(out, F_OK) != 0)

        // With the override the run goes ahead (here to a simulation that stops at once).
        let allowed = CapturedConsole()
        _ = RunCommand.main(["--out", out, "--allow-large", path][...], console: allowed.console) { _, _, _, _, _ in
            simulated.withLock { $0 = true }
            throw AccountingError(description: "stopped by the test")
        }
        #expect(simulated.withLock { $0 })
        try? FileManager.default.removeItem(atPath: out)
    }

    @Test("a sweep whose point passes a cost limit stops before any point runs, naming the point and --allow-large")
    func sweepCostRefusedBeforeRun() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-cost-\(UUID().uuidString).json").path
        defer { unlink(path) }
        try Data(Self.text(["duration": #""36500d""#]).utf8).write(to: URL(fileURLWithPath: path))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-cost-out-\(UUID().uuidString)").path
        let simulated = Mutex(false)
        let captured = CapturedConsole()
        let code = SweepCommand.main(["--out", out, path, "--set", "mail.perDay=1,1000000"][...], console: captured.console) { _, _, _, _, _ in
            simulated.withLock { $0 = true }
            throw AccountingError(description: "not reached")
        }
        #expect(code == .dataError)
        #expect(!simulated.withLock { $0 })
        #expect(captured.err.hasPrefix("error: \(path): point 2 of the sweep is too large: about 36,500,000,000 messages"))
        #expect(captured.err.hasSuffix("pass --allow-large to run it anyway\n"))
        #expect(access(out, F_OK) != 0)
        let allowed = CapturedConsole()
        _ = SweepCommand.main(["--out", out, path, "--set", "mail.perDay=1,1000000", "--allow-large"][...],
                              console: allowed.console) { _, _, _, _, _ in
            simulated.withLock { $0 = true }
            throw AccountingError(description: "stopped by the test")
        }
        #expect(simulated.withLock { $0 })
        try? FileManager.default.removeItem(atPath: out)
    }

    @Test("the cost estimate: events follow the volume; memory only with what the model keeps per message; shipped scenarios fit")
    func costEstimate() throws {
        let scenario = try ScenarioDecoder.decode(Array(Self.text(["duration": #""7d""#]).utf8), file: "x")
        let cost = RunCost(scenario, threads: 1)
        #expect(cost.messages == 70)
        #expect(cost.timelineEntriesPerLane == 70)
        #expect(cost.events == 70 * RunCost.eventsPerMessage + 70)
        #expect(cost.modelBytesPerLane == 0)
        #expect(cost.limitPassed == nil)
        // A million mails a day for a year on one device: the timeline and the ledger hold a
        // window at a time, so without numbering the memory is what a day's run takes.
        func heavy(_ strategies: String, ttl: String? = nil) throws -> RunCost {
            var fields = ["duration": #""365d""#, "mail": #"{ "perDay": 1000000 }"#]
            if let ttl { fields["provider"] = #"{ "payloadTTL": "\#(ttl)" }"# }
            return RunCost(try ScenarioDecoder.decode(Array(Self.text(fields, strategies: strategies).utf8), file: "x"),
                           threads: 1)
        }
        let flat = try heavy(#"[{ "name": "no-queue" }]"#)
        #expect(flat.timelineEntriesPerLane == 365e6)
        #expect(flat.limitPassed == nil)
        let oneDay = RunCost(try ScenarioDecoder.decode(Array(Self.text(["duration": #""1d""#, "mail": #"{ "perDay": 1000000 }"#]).utf8),
                                                        file: "x"), threads: 1)
        // 364 more days of counts (and of the reports rendered from them), and of a long lane's
        // two folded counts a day (doubled for growth).
        let moreDays = RunCost.countsBytes(strategyDays: 365, working: 1) - RunCost.countsBytes(strategyDays: 1, working: 1)
        #expect(abs(flat.memoryBytes - oneDay.memoryBytes - (moreDays + 364 * RunCost.growth * 16)) < 1e-3)
        // Numbered with collapse ids, no payload TTL: Notification Center keeps about a
        // window of ids (it forgets those no copy can match) and the provider keeps runs.
        let numbered = try heavy(#"[{ "name": "queue" }]"#)
        let plain = try heavy(#"[{ "name": "queue", "collapseID": false }]"#)
        #expect(numbered.modelBytesPerLane == 0 && plain.modelBytesPerLane == 0)
        #expect(abs(numbered.memoryBytes - plain.memoryBytes - RunCost.growth * Double(UserTimeline.window) * (8 / 0.75 + 16)) < 1)
        #expect(numbered.limitPassed == nil)
        // A one-hour payload TTL: the provider keeps an hour's payloads.
        let bounded = try heavy(#"[{ "name": "queue", "collapseID": false }]"#, ttl: "1h")
        #expect(abs(bounded.modelBytesPerLane - 365e6 * 16 / (365 * 24)) < 1)
        #expect(bounded.limitPassed == nil)
        // A payload TTL as long as the year: every payload is held, and the year is refused.
        let everything = try heavy(#"[{ "name": "queue" }]"#, ttl: "365d")
        #expect(abs(everything.modelBytesPerLane - 365e6 * 16) < 1)
        #expect(everything.limitPassed?.contains("kept by the provider's payloads within provider.payloadTTL") == true)
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
        for name in try FileManager.default.contentsOfDirectory(atPath: scenarios.path) where name.hasSuffix(".json") {
            let shipped = try ScenarioDecoder.load(path: scenarios.appendingPathComponent(name).path)
            #expect(RunCost(shipped, threads: 64).limitPassed == nil, "\(name)")
        }
    }
}
