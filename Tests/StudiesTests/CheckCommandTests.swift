@testable import Base
@testable import CLI
import ChildProcesses
import Foundation
@testable import Reports
@testable import Simulator
@testable import Studies
import TestSupport
import Testing

/// `pushsim check`, `run --format json` and `run.json`, run in-process on a 20-device
/// scenario. Verdict logic is tested on hand-built estimates in `VerdictTests`; here the
/// bounds are far from the values (whatever standard error comes back, the verdicts stand).
@Suite("pushsim check, JSON output and run.json")
struct CheckCommandTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// `CommandFixtures.tiny` with an `expect` list.
    static func scenario(expect entries: [String]) -> String {
        CommandFixtures.tiny.replacingOccurrences(of: "\n  ]\n}", with: "\n  ],\n  \"expect\": [\n    "
                                           + entries.joined(separator: ",\n    ") + "\n  ]\n}")
    }

    /// Holds for any standard error: no-queue sends exactly one push a message, and
    /// the queue delivers far more than 30% of 20 devices' mail.
    static let holding = [
        #"{ "metric": "pushes_per_message", "strategy": "no-queue", "atLeast": 0.99, "atMost": 1.01 }"#,
        #"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.3 }"#,
    ]
    /// Cannot hold: more than all messages delivered.
    static let failing = #"{ "metric": "deliverability", "strategy": "queue", "minus": "no-queue", "atLeast": 1.5 }"#

    /// Runs the CLI in-process.
    private func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        CapturedConsole.run(arguments)
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether `xmllint --version` runs. Without it the JUnit schema test is skipped, except
    /// with CI=true, where its absence fails the test (`.ci/run` installs libxml2-utils).
    static let xmllintPresent: Bool = {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Validates `file` against the Ant JUnit schema shipped in Tests/Fixtures with xmllint
    /// (a real consumer of the format). Returns xmllint's messages.
    private func validateJUnit(_ file: String) throws -> (valid: Bool, messages: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--noout", "--schema",
                             Self.repository.appendingPathComponent("Tests/Fixtures/junit.xsd").path, file]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus == 0, messages)
    }

    @Test("every expectation holding exits 0, prints each with its verdict, and writes a JUnit file with no failure")
    func passingCheck() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.scenario(expect: Self.holding))
        let junit = scratch.file("ci/junit.xml")
        let result = pushsim(["check", scenario, "--out", scratch.file("out"), "--junit", junit])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.hasPrefix("tiny: 20 devices"))
        #expect(result.out.contains("pushes_per_message of no-queue ≥ 0.99 and ≤ 1.01 (95% interval)  1.0000"))
        #expect(result.out.hasSuffix("all 2 expectations hold\n"))
        // The reports are written as `run` writes them.
        #expect(contents(scratch.file("out/summary.csv")) != nil && contents(scratch.file("out/run.json")) != nil)
        let xml = try #require(contents(junit))
        #expect(xml.contains(#"tests="2" failures="0" errors="0""#))
        #expect(!xml.contains("<failure"))
    }

    @Test("a failing expectation exits 2 and its JUnit test case names it with a readable failure")
    func failingCheck() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.scenario(expect: Self.holding + [Self.failing]))
        let junit = scratch.file("junit.xml")
        let result = pushsim(["check", scenario, "--out", scratch.file("out"), "--junit", junit])
        #expect(result.code == .failedCheck)
        #expect(ExitCode.failedCheck.rawValue == 2)
        #expect(result.out.contains("1 of 3 expectations FAILED\n  deliverability of queue − no-queue is "))
        let xml = try #require(contents(junit))
        #expect(xml.contains(#"tests="3" failures="1""#))
        let failedCase = #"<testcase name="deliverability of queue − no-queue ≥ 1.5 (95% interval)" classname="pushsim.tiny" time="0">"#
            + "\n" + #"    <failure message="deliverability of queue − no-queue is "#
        #expect(xml.contains(failedCase))
        #expect(xml.contains("is below 1.5\" type=\"expectation\">"))
        #expect(xml.contains(#"<testcase name="deliverability of queue ≥ 0.3 (95% interval)" classname="pushsim.tiny" time="0"/>"#))
    }

    @Test("the JUnit files of a passing and a failing check validate against the Ant JUnit schema (xmllint); one without its host name does not",
          .enabled(if: xmllintPresent || required, "apt-get install -y libxml2-utils (with CI=true its absence fails the test)"))
    func junitFilesValidate() throws {
        try #require(Self.xmllintPresent, "CI=true, but xmllint is missing (apt-get install -y libxml2-utils)")
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, entries) in [("passing", Self.holding), ("failing", Self.holding + [Self.failing])] {
            let scenario = try scratch.write(name + ".json", Self.scenario(expect: entries))
            let junit = scratch.file(name + ".xml")
            _ = pushsim(["check", scenario, "--out", scratch.file(name), "--junit", junit, "--quiet"])
            let validation = try validateJUnit(junit)
            #expect(validation.valid, "\(name): \(validation.messages)")
        }
        // The schema is a real check: the same file without its required host name is refused.
        let xml = try #require(contents(scratch.file("passing.xml")))
        let broken = try scratch.write("broken.xml", xml.replacingOccurrences(of: #" hostname=""#, with: #" host=""#))
        #expect(try !validateJUnit(broken).valid)
    }

    @Test("--quiet prints nothing on stdout, one line per failed expectation on stderr, and keeps the exit code")
    func quietCheck() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.scenario(expect: Self.holding + [Self.failing]))
        let result = pushsim(["check", scenario, "--out", scratch.file("out"), "--quiet"])
        #expect(result.code == .failedCheck)
        #expect(result.out.isEmpty)
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("error: expectation failed: deliverability of queue − no-queue is ") == true)
        let passing = try scratch.write("pass.json", Self.scenario(expect: Self.holding))
        let quiet = pushsim(["check", passing, "--out", scratch.file("out2"), "--quiet"])
        #expect(quiet.code == .success && quiet.out.isEmpty && quiet.err.isEmpty)
    }

    @Test("check refuses, before simulating, a scenario without expect, a --strategy leaving out a strategy expect needs, and --shard")
    func checkUsageErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let plain = try scratch.write("plain.json", CommandFixtures.tiny)
        let gate = try scratch.write("gate.json", Self.scenario(expect: [Self.failing]))
        let out = scratch.file("out")
        let none = pushsim(["check", plain, "--out", out])
        #expect(none.code == .usage)
        #expect(none.err.hasPrefix("error: the scenario has no 'expect' entries, so there is nothing to check"))
        let filtered = pushsim(["check", gate, "--strategy", "queue", "--out", out])
        #expect(filtered.code == .usage)
        #expect(filtered.err.hasPrefix("error: expect[0] needs strategy 'no-queue', which --strategy leaves out"))
        let shard = pushsim(["check", gate, "--shard", "1/2", "--out", out])
        #expect(shard.code == .usage)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a broken expect entry exits 65 with its file, field path and line:column, and writes nothing")
    func brokenExpectation() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.scenario(expect: [#"{ "metric": "speed", "strategy": "queue", "atLeast": 1 }"#]))
        let result = pushsim(["check", scenario, "--out", scratch.file("out")])
        #expect(result.code == .dataError)
        #expect(result.err.hasPrefix("error: \(scenario):18:17: expect[0].metric: unknown metric \"speed\""))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
    }

    @Test("a confidence of 0.9999999999999999 (whose quantile is infinite) is refused by validate and check, exit 65, nothing written; 0.999999 checks")
    func confidenceNearOneRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let entry = #"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.3, "confidence": 0.9999999999999999 }"#
        let scenario = try scratch.write("gate.json", Self.scenario(expect: [entry]))
        let validate = pushsim(["validate", scenario])
        #expect(validate.code == .dataError)
        #expect(validate.err.contains("expect[0].confidence: a confidence is above 0 and at most 0.999999, e.g. 0.95"))
        let check = pushsim(["check", scenario, "--out", scratch.file("out")])
        #expect(check.code == .dataError)
        #expect(check.err == validate.err)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
        let highest = try scratch.write("highest.json", Self.scenario(expect: [
            entry.replacingOccurrences(of: "0.9999999999999999", with: "0.999999")]))
        let checked = pushsim(["check", highest, "--out", scratch.file("highest"), "--format", "json"])
        #expect(checked.code == .success, "\(checked.err)")
        #expect(checked.out.contains(#""confidence":0.999999"#))
        #expect(checked.out.contains("(99.9999% interval)"), "not rounded to a 100% no interval has")
    }

    @Test("diff --confidence refuses a value past 0.999999, whose quantile would be infinite (exit 64)")
    func diffConfidenceNearOneRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for value in ["0.9999999999999999", "0.9999991", "1.0"] {
            let result = pushsim(["diff", scratch.path, scratch.path, "--confidence", value])
            #expect(result.code == .usage, "\(value)")
            #expect(result.err.hasPrefix("error: invalid value '\(value)' for '--confidence': expected a number above 0 and at most 0.999999"))
        }
    }

    @Test("check --format json prints the verdicts with the documented keys")
    func checkJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.scenario(expect: Self.holding + [Self.failing]))
        let result = pushsim(["check", scenario, "--out", scratch.file("out"), "--format", "json"])
        #expect(result.code == .failedCheck)
        let object = try json(result.out)
        #expect(Set(object.keys) == ["pushsim", "scenario", "sha256", "seed", "passed", "expectations"])
        #expect(object["passed"] as? Bool == false)
        #expect(object["scenario"] as? String == "tiny")
        #expect(object["seed"] as? Int == 11)
        let items = try #require(object["expectations"] as? [[String: Any]])
        #expect(items.count == 3)
        #expect(Set(items[0].keys) == ["title", "metric", "strategy", "minus", "atLeast", "atMost", "confidence", "value",
                                       "se", "interval", "holds", "message"])
        #expect(items.map { $0["holds"] as? Bool } == [true, true, false])
        #expect(items[2]["minus"] as? String == "no-queue")
        #expect(items[2]["atLeast"] as? Double == 1.5)
        #expect(items[2]["atMost"] is NSNull)
        #expect((items[2]["message"] as? String)?.hasSuffix("is below 1.5") == true)
        #expect(items[0]["value"] as? Double == 1)
    }

    @Test("run --format json prints each strategy's metrics with value, se and interval, and the paired comparisons; the table is not printed")
    func runJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let result = pushsim(["run", scenario, "--out", scratch.file("out"), "--format", "json"])
        #expect(result.code == .success)
        let object = try json(result.out)
        #expect(Set(object.keys) == ["pushsim", "scenario", "sha256", "seed", "confidence", "strategies", "baseline", "comparisons"])
        #expect(object["pushsim"] as? String == PushSimCommand.version)
        #expect(object["sha256"] as? String == SHA256.hex(Array(CommandFixtures.tiny.utf8)))
        let strategies = try #require(object["strategies"] as? [[String: Any]])
        #expect(strategies.map { $0["label"] as? String } == CommandFixtures.labels)
        #expect(strategies.map { $0["kind"] as? String } == ["no-queue", "queue", "queue-as-published"])
        let metrics = try #require(strategies[1]["metrics"] as? [String: [String: Any]])
        #expect(Set(metrics.keys) == Set(Metric.allCases.map(\.name)))
        for (name, metric) in metrics {
            #expect(Set(metric.keys) == ["value", "se", "interval"], "\(name)")
        }
        // The value is the summary's rate (which rounds to 6 decimals).
        let summary = try #require(contents(scratch.file("out/summary.csv")))
        let row = summary.split(separator: "\n")[2].split(separator: ",", omittingEmptySubsequences: false)
        let column = try #require(Reports.summaryColumns.firstIndex(of: "deliverability"))
        let value = try #require(metrics["deliverability"]?["value"] as? Double)
        #expect(abs(value - Double(row[column])!) < 5e-7)
        let se = try #require(metrics["deliverability"]?["se"] as? Double)
        let seColumn = try #require(Reports.summaryColumns.firstIndex(of: "deliverability_se"))
        #expect(se > 0 && abs(se - Double(row[seColumn])!) < 5e-7)
        let interval = try #require(metrics["deliverability"]?["interval"] as? [Double])
        #expect(interval.count == 2 && interval[0] < value && value < interval[1])

        // The comparisons: every other strategy minus the baseline, as compare.csv has them.
        #expect(object["baseline"] as? String == "no-queue")
        let comparisons = try #require(object["comparisons"] as? [[String: Any]])
        #expect(comparisons.map { $0["label"] as? String } == ["queue", "queue-as-published"])
        let compared = try #require(comparisons[0]["metrics"] as? [String: [String: Any]])
        #expect(Set(compared.keys) == Set(Metric.allCases.map(\.name)))
        let deliverability = try #require(compared["deliverability"])
        #expect(Set(deliverability.keys) == ["difference", "se", "interval", "unpairedSE"])
        let compare = try #require(contents(scratch.file("out/compare.csv"))).split(separator: "\n")[1]
            .split(separator: ",", omittingEmptySubsequences: false)
        #expect(compare[2] == "deliverability")
        #expect(abs((deliverability["difference"] as? Double ?? .nan) - Double(compare[5])!) < 5e-7)
        #expect(abs((deliverability["se"] as? Double ?? .nan) - Double(compare[6])!) < 5e-7)
        #expect(abs((deliverability["unpairedSE"] as? Double ?? .nan) - Double(compare[9])!) < 5e-7)
    }

    @Test("run --quiet prints nothing on stdout or stderr and still writes the reports")
    func runQuiet() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let result = pushsim(["run", scenario, "--out", scratch.file("out"), "--quiet"])
        #expect(result.code == .success && result.out.isEmpty && result.err.isEmpty)
        #expect(contents(scratch.file("out/summary.csv")) != nil)
        let bad = pushsim(["run", scenario, "--format", "yaml"])
        #expect(bad.code == .usage)
        #expect(bad.err.hasPrefix("error: invalid value 'yaml' for '--format': expected table or json"))
    }

    @Test("run.json records the version, the scenario's name and SHA-256, seed, strategies, devices, dates and command line")
    func runRecordOfARun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let out = scratch.file("out")
        #expect(pushsim(["run", scenario, "--seed", "5", "--strategy", "queue", "--out", out]).code == .success)
        let text = try #require(contents(out + "/run.json"))
        let object = try json(text)
        #expect(object["format"] as? String == "pushsim-run")
        #expect(object["pushsim"] as? String == PushSimCommand.version)
        let described = try #require(object["scenario"] as? [String: Any])
        #expect(described["name"] as? String == "tiny")
        #expect(described["sha256"] as? String == SHA256.hex(Array(CommandFixtures.tiny.utf8)))
        #expect(object["seed"] as? Int == 5)
        #expect(object["strategies"] as? [String] == ["queue"])
        #expect(object["devices"] as? Int == 20)
        #expect(object["start"] as? String == "2026-01-05")
        #expect(object["end"] as? String == "2026-01-07")
        #expect(object["commandLine"] as? [String] == ["pushsim", "run", scenario, "--seed", "5", "--strategy", "queue", "--out", out])
        #expect((object["parts"] as? [Any])?.isEmpty == true)
        // It reads back as written.
        let record = try RunRecord.decode(Array(text.utf8), file: "run.json")
        #expect(record.encoded() == text)
    }

    @Test("a merge's run.json lists its parts and has the unsharded run's scenario hash; a shard's folder drops run.json")
    func runRecordOfAMerge() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let part1 = scratch.file("p1"), part2 = scratch.file("p2"), merged = scratch.file("merged")
        #expect(pushsim(["run", scenario, "--out", part1]).code == .success)
        #expect(FileManager.default.fileExists(atPath: part1 + "/run.json"))
        #expect(pushsim(["run", scenario, "--shard", "1/2", "--out", part1]).code == .success)
        #expect(!FileManager.default.fileExists(atPath: part1 + "/run.json"))
        #expect(pushsim(["run", scenario, "--shard", "2/2", "--out", part2]).code == .success)
        #expect(pushsim(["merge", part2, part1, "--out", merged]).code == .success)
        let record = try RunRecord.decode(Array(try #require(contents(merged + "/run.json")).utf8), file: "run.json")
        #expect(record.scenarioSHA256 == SHA256.hex(Array(CommandFixtures.tiny.utf8)))
        #expect(record.parts == [RunRecord.Part(file: part2 + "/partial.json", shard: "2/2"),
                                 RunRecord.Part(file: part1 + "/partial.json", shard: "1/2")])
        #expect(record.commandLine == ["pushsim", "merge", part2, part1, "--out", merged])
        #expect(record.strategies == CommandFixtures.labels)
    }

    @Test("the shipped regression gate decodes with its expectations, and its strategies are the ones it names")
    func shippedGate() throws {
        let scenario = WorldFixtures.shipped("regression-gate.json")
        #expect(scenario.expectations.count >= 3)
        #expect(scenario.expectations.contains {
            $0.metric == .deliverability && $0.strategy == "queue" && $0.baseline == "no-queue" && ($0.atLeast ?? 0) >= 0.03
        })
        #expect(CheckCommand.unrunnable(scenario) == nil)
    }
}
