@testable import CLI
import Foundation
@testable import Reports
import TestSupport
import Testing

/// `pushsim run --trace` end to end: what it refuses, what it writes, and that the
/// rest of the folder is what a run without it writes.
@Suite("run --trace")
struct TraceCLITests {
    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let captured = CapturedConsole()
        let code = PushSimCommand.main(arguments, console: captured.console)
        return (code, captured.out, captured.err)
    }

    func bytes(_ path: String) throws -> Data { try #require(FileManager.default.contents(atPath: path), "no \(path)") }

    @Test("a device past the scenario's last is a usage error (exit 64) naming the range, and nothing is written")
    func deviceOutOfRangeIsAUsageError() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let out = scratch.file("out")
        let refused = run(["run", scenario, "--trace", "3", "--trace", "20", "--out", out, "--quiet"])
        #expect(refused.code == .usage)
        #expect(refused.err.contains("invalid value '20' for '--trace': expected a device index from 0 to 19 (the scenario has 20 devices)"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(run(["run", scenario, "--trace", "0,25", "--out", out, "--quiet"]).code == .usage)
    }

    @Test("--trace takes plain device indices, one or a comma list; anything else is a usage error, and so is --trace with --shard")
    func badValuesAndShardsAreRefused() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        for value in ["x", "-1", "+2", "1,,2", "", "1.5"] {
            let refused = run(["run", scenario, "--trace", value, "--out", scratch.file("out"), "--quiet"])
            #expect(refused.code == .usage, "\(value)")
            #expect(refused.err.contains("expected a device index (0, 1, …) or a comma-separated list of them"), "\(value)")
        }
        let sharded = run(["run", scenario, "--trace", "1", "--shard", "1/2", "--out", scratch.file("part"), "--quiet"])
        #expect(sharded.code == .usage)
        #expect(sharded.err.contains("no --trace with --shard"))
        #expect(run(["sweep", scenario, "--set", "devices=2,3", "--trace", "1"]).code == .usage)
    }

    @Test("a traced run writes the same trace bytes for --threads 1 and 2, the same reports as a run without --trace, and report redraws the traced page byte for byte")
    func tracedRunIsDeterministicAndChangesNoReport() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let one = scratch.file("one"), two = scratch.file("two"), plain = scratch.file("plain")
        let traced = run(["run", scenario, "--trace", "7,2", "--trace", "7", "--threads", "1", "--out", one])
        #expect(traced.code == .success, "\(traced.err)")
        #expect(traced.err.contains("trace.jsonl and trace.json"))
        #expect(run(["run", scenario, "--trace", "2", "--trace", "7", "--threads", "2", "--out", two, "--quiet"]).code == .success)
        #expect(run(["run", scenario, "--threads", "2", "--out", plain, "--quiet"]).code == .success)
        // report.html and result.json carry the command line, which differs; nothing else may.
        func withoutCommand(_ path: String) throws -> [Substring] {
            String(decoding: try bytes(path), as: UTF8.self).split(separator: "\n").filter { !$0.contains("command") }
        }
        for name in TraceFiles.fileNames { #expect(try bytes(one + "/" + name) == bytes(two + "/" + name), "\(name)") }
        for name in [ReportPage.fileName, RunOutput.resultFileName] {
            #expect(try withoutCommand(one + "/" + name) == withoutCommand(two + "/" + name), "\(name)")
        }
        for name in Reports.fileNames { #expect(try bytes(one + "/" + name) == bytes(plain + "/" + name), "\(name)") }
        #expect(try withoutCommand(one + "/" + RunOutput.resultFileName) == withoutCommand(plain + "/" + RunOutput.resultFileName))
        #expect(!FileManager.default.fileExists(atPath: plain + "/" + TraceLines.fileName))
        let page = String(decoding: try bytes(one + "/" + ReportPage.fileName), as: UTF8.self)
        #expect(page.contains("<section id=\"trace\">") && page.contains("data-chart=\"trace-day\""))
        #expect(!String(decoding: try bytes(plain + "/" + ReportPage.fileName), as: UTF8.self).contains("<section id=\"trace\">"))
        let lines = String(decoding: try bytes(one + "/" + TraceLines.fileName), as: UTF8.self)
        #expect(lines.contains("\"device\":2,") && lines.contains("\"device\":7,") && !lines.contains("\"device\":3,"))

        // `pushsim report` draws the same page again, traced day included.
        let redrawn = scratch.file("redrawn")
        #expect(run(["report", one, "--out", redrawn]).code == .success)
        #expect(try bytes(redrawn + "/" + ReportPage.fileName) == bytes(one + "/" + ReportPage.fileName))
    }

    @Test("a run without --trace takes an earlier run's trace out of the folder, in the same step as its reports")
    func untracedRunRemovesAStaleTrace() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let out = scratch.file("out")
        #expect(run(["run", scenario, "--trace", "0", "--out", out, "--quiet"]).code == .success)
        #expect(FileManager.default.fileExists(atPath: out + "/" + ChromeTrace.fileName))
        #expect(run(["run", scenario, "--out", out, "--quiet"]).code == .success)
        for name in TraceFiles.fileNames { #expect(!FileManager.default.fileExists(atPath: out + "/" + name), "\(name)") }
        #expect(FileManager.default.fileExists(atPath: out + "/" + ReportPage.fileName))
    }

    @Test("a trace expected past a million events stops before the run (exit 65) unless --allow-large")
    func tooLargeATraceIsRefused() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        // One device: the run itself is within the cost limits, its trace is not.
        let busy = CommandFixtures.tiny.replacingOccurrences(of: "\"perDay\": 24", with: "\"perDay\": 100000")
            .replacingOccurrences(of: "\"devices\": 20", with: "\"devices\": 1")
        let scenario = try scratch.write("busy.json", busy)
        let refused = run(["run", scenario, "--trace", "0", "--out", scratch.file("out"), "--quiet"])
        #expect(refused.code == .dataError)
        #expect(refused.err.contains("the trace is too large: about"))
        #expect(refused.err.contains("pass --allow-large"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
    }

    @Test("run's help explains --trace, and check's lists it among the run options")
    func helpNamesTheOption() {
        #expect(RunCommand.help.contains("--trace <device>"))
        #expect(RunCommand.help.contains("trace.jsonl"))
        #expect(CheckCommand.help.contains("--trace"))
    }
}
