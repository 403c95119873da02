@testable import Base
@testable import CLI
@testable import FakeAPNs
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Synchronization
import TestSupport
import Testing

@Suite("Command line")
struct CLITests {
    typealias ScratchDirectory = CommandFixtures.ScratchDirectory
    static let tiny = CommandFixtures.tiny
    static let labels = CommandFixtures.labels
    static let dates = CommandFixtures.dates

    /// Runs the CLI in-process.
    private func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        CapturedConsole.run(arguments)
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func lines(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: Standard streams

    @Test("a write that fails (a full device, a closed descriptor) is reported, not a crash",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"))
    func failedWriteIsReported() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        #expect(Console.writeAll("summary\n", to: full) == String(cString: strerror(ENOSPC)))
        #expect(Console.writeAll("summary\n", to: -1) == String(cString: strerror(EBADF)))
        // Nothing to write succeeds even where writing would fail.
        #expect(Console.writeAll("", to: full) == nil)
    }

    @Test("a write goes out whole")
    func writeGoesOutWhole() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let text = String(repeating: "ünïcode,", count: 1_000)
        #expect(Console.writeAll(text, to: descriptors[1]) == nil)
        close(descriptors[1])
        let read = FileHandle(fileDescriptor: descriptors[0]).readDataToEndOfFile()
        #expect(String(decoding: read, as: UTF8.self) == text)
    }

    // MARK: Usage errors (64)

    @Test("no arguments prints the help on stderr and exits 64")
    func noArguments() {
        let result = pushsim([])
        #expect(result.code == .usage)
        #expect(result.code.rawValue == 64)
        #expect(result.err == PushSimCommand.help)
        #expect(result.err.contains("USAGE: pushsim <command>"))
        #expect(result.out == "")
    }

    @Test("an unknown command exits 64 and names it on stderr")
    func unknownCommand() {
        let result = pushsim(["frobnicate", "x.json"])
        #expect(result.code == .usage)
        let message = UsageError.unknownCommand("frobnicate").description
        #expect(message.hasPrefix("unknown command 'frobnicate'; expected run, validate, merge"))
        #expect(message.hasSuffix(" or help"))
        #expect(result.err == "error: \(message)\n(see 'pushsim help' or '--help')\n")
        #expect(result.out == "")
    }

    @Test("every declared command is dispatched, has its help topic, its line in the top-level help, and a place in the unknown-command message")
    func everyCommandIsReachable() {
        let message = UsageError.unknownCommand("x").description
        for command in PushSimCommand.commands {
            let help = pushsim(["help", command.name])
            #expect(help.code == .success && help.out == command.help, "\(command.name)")
            #expect(pushsim([command.name, "--help"]).out == command.help, "\(command.name)")
            #expect(PushSimCommand.help.contains("\n  " + command.name.padding(toLength: PushSimCommand.commandColumn, withPad: " ", startingAt: 0) + command.summary + "\n"))
            #expect(message.contains(" " + command.name + ",") || message.hasSuffix(" " + command.name + " or help"), "\(command.name)")
        }
        #expect(Set(PushSimCommand.commands.map(\.name)).count == PushSimCommand.commands.count)
    }

    @Test("help for an unknown topic exits 64")
    func helpForUnknownTopic() {
        let result = pushsim(["help", "frobnicate"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: unknown command 'frobnicate'"))
        #expect(result.out == "")
    }

    @Test("run without a scenario file exits 64")
    func runWithoutFile() {
        let result = pushsim(["run"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: missing the scenario file\n"))
        #expect(result.out == "")
    }

    @Test("validate without a scenario file, or with two, exits 64")
    func validateArgumentCount() {
        let none = pushsim(["validate"])
        #expect(none.code == .usage)
        #expect(none.err.hasPrefix("error: missing the scenario file\n"))
        let two = pushsim(["validate", "a.json", "b.json"])
        #expect(two.code == .usage)
        #expect(two.err.hasPrefix("error: unexpected argument 'b.json'\n"))
    }

    @Test("an unknown option exits 64 before the scenario is read")
    func unknownOption() {
        let result = pushsim(["run", "x.json", "--bogus"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: unknown option '--bogus' for 'run'\n"))
        #expect(result.out == "")
    }

    @Test("an option without its value exits 64")
    func optionWithoutValue() {
        let result = pushsim(["run", "x.json", "--out"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: option '--out' needs a value\n"))
    }

    @Test("a one-value option given twice exits 64 (a second --shard is a mistake, not an override)", arguments: [
        ["run", "x.json", "--shard", "1/3", "--shard", "2/3"],
        ["run", "x.json", "--out", "a", "--out=b"],
        ["run", "x.json", "--seed", "1", "--seed", "1"],
        ["merge", "p1", "--out", "a", "--out", "b"],
        ["bench", "x.json", "--threads", "1", "--threads", "2"],
    ])
    func repeatedOption(arguments: [String]) {
        let result = pushsim(arguments)
        let option = arguments[2]
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: option '\(option)' given twice; it takes one value\n"), "\(result.err)")
        #expect(result.out == "")
    }

    @Test("invalid option values exit 64 and quote the value", arguments: [
        (["--threads", "0"], "error: invalid value '0' for '--threads': expected an integer from 1 to 1024\n"),
        (["--threads=many"], "error: invalid value 'many' for '--threads': expected an integer from 1 to 1024\n"),
        (["--shard", "3/2"], "error: invalid value '3/2' for '--shard': expected K/N with 1 ≤ K ≤ N, e.g. 3/8\n"),
        (["--shard", "0/2"], "error: invalid value '0/2' for '--shard': expected K/N with 1 ≤ K ≤ N, e.g. 3/8\n"),
        (["--shard", "2"], "error: invalid value '2' for '--shard': expected K/N with 1 ≤ K ≤ N, e.g. 3/8\n"),
        (["--seed", "-1"], "error: invalid value '-1' for '--seed': expected an integer from 0 to 2^63-1\n"),
        (["--seed", "9223372036854775808"],
         "error: invalid value '9223372036854775808' for '--seed': expected an integer from 0 to 2^63-1\n"),
    ])
    func invalidOptionValues(options: [String], message: String) {
        let result = pushsim(["run", "x.json"] + options)
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix(message))
        #expect(result.out == "")
    }

    @Test("an unknown --strategy exits 64 listing the scenario's labels, and writes nothing")
    func unknownStrategy() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let out = scratch.file("reports")
        let result = pushsim(["run", scenario, "--strategy", "nope", "--out", out])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: no strategy 'nope' in the scenario; it has: no-queue, queue, queue-as-published\n"))
        #expect(result.out == "")
        #expect(!exists(out))
    }

    // MARK: Help (0)

    @Test("help for every command exits 0 with USAGE on stdout", arguments: [
        (["--help"], "USAGE: pushsim <command>"),
        (["-h"], "USAGE: pushsim <command>"),
        (["help"], "USAGE: pushsim <command>"),
        (["help", "run"], "USAGE: pushsim run"),
        (["help", "validate"], "USAGE: pushsim validate"),
        (["help", "merge"], "USAGE: pushsim merge"),
        (["run", "--help"], "USAGE: pushsim run"),
        (["run", "x.json", "-h"], "USAGE: pushsim run"),
        (["validate", "--help"], "USAGE: pushsim validate"),
        (["merge", "--help"], "USAGE: pushsim merge"),
        (["help", "sweep"], "USAGE: pushsim sweep"),
        (["sweep", "--help"], "USAGE: pushsim sweep"),
        (["help", "schema"], "USAGE: pushsim schema"),
        (["schema", "--help"], "USAGE: pushsim schema"),
    ])
    func help(arguments: [String], usage: String) {
        let result = pushsim(arguments)
        #expect(result.code == .success)
        #expect(result.out.contains(usage))
        #expect(result.err == "")
    }

    // MARK: validate

    @Test("validate of a good file exits 0 and prints ok with a summary on stdout")
    func validateGood() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let result = pushsim(["validate", scenario])
        #expect(result.code == .success)
        // 20 devices × 24 mails × 3 weekdays × 3 strategies.
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, 20)
        #expect(result.out == "ok: tiny: 20 devices, 3 days, 3 strategies (no-queue, queue, queue-as-published)\n"
                + "cost: about 4,320 messages (72 per device and strategy); under a second on \(threads) "
                + "thread\(threads == 1 ? "" : "s") (at 2.5 million messages a second per thread)\n"
                + ValidateCommand.estimateLine(RunCost(try ScenarioDecoder.load(path: scenario),
                                                       threads: ProcessInfo.processInfo.activeProcessorCount)) + "\n")
        #expect(result.out.hasSuffix(" of them kept by the model); within the limits\n"))
        #expect(result.err == "")
    }

    @Test("validate says 1 device, 1 day, 1 strategy, 1 message: a count of one takes the singular")
    func validateSingular() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let one = """
        { "name": "tiny", "start": "2026-01-05", "duration": "1d", "devices": 1, "mail": { "perDay": 1 },
          "strategies": [{ "name": "queue-as-published" }] }
        """
        let scenario = try scratch.write("one.json", one)
        let result = pushsim(["validate", scenario])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.hasPrefix("ok: tiny: 1 device, 1 day, 1 strategy (queue-as-published)\n"
                                     + "cost: about 1 message (1 per device and strategy); under a second on 1 thread "))
        #expect(result.out.contains("(1 message and 1 timeline entry per device app;"))
        #expect(!result.out.contains(" 1 devices") && !result.out.contains(" 1 days") && !result.out.contains(" 1 strategies"))
    }

    @Test("validate of a bad file exits 65 with file:line:col on stderr and nothing on stdout")
    func validateBad() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("bad.json", Self.tiny.replacingOccurrences(of: "\"devices\": 20", with: "\"devices\": \"20\""))
        let result = pushsim(["validate", scenario])
        #expect(result.code == .dataError)
        #expect(result.code.rawValue == 65)
        #expect(result.err == "error: \(scenario):6:14: devices: expected an integer, found a string\n")
        #expect(result.out == "")
    }

    @Test("validate of a missing file exits 65")
    func validateMissing() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let missing = scratch.file("missing.json")
        let result = pushsim(["validate", missing])
        #expect(result.code == .dataError)
        #expect(result.err == "error: \(missing): cannot read the scenario: no such file\n")
        #expect(result.out == "")
    }

    // MARK: run

    @Test("run of a bad scenario exits 65 and creates no report folder")
    func runBadScenarioCreatesNothing() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("bad.json", Self.tiny.replacingOccurrences(of: "\"3d\"", with: "\"-3d\""))
        let out = scratch.file("reports/tiny")
        let result = pushsim(["run", scenario, "--out", out])
        #expect(result.code == .dataError)
        #expect(result.err == "error: \(scenario):5:15: duration: negative duration \"-3d\"\n")
        #expect(result.out == "")
        #expect(!exists(scratch.file("reports")))
    }

    @Test("run of a bad scenario leaves an existing report folder unchanged")
    func runBadScenarioKeepsOldReports() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("bad.json", Self.tiny.replacingOccurrences(of: "\"queue\",", with: "\"fifo\","))
        let out = scratch.file("reports")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try scratch.write("reports/summary.csv", "old summary\n")
        _ = try scratch.write("reports/daily.csv", "old daily\n")
        let result = pushsim(["run", scenario, "--out", out])
        #expect(result.code == .dataError)
        #expect(result.err.hasPrefix("error: \(scenario):14:15: strategies[1].name: unknown strategy \"fifo\""))
        #expect(contents(scratch.file("reports/summary.csv")) == "old summary\n")
        #expect(contents(scratch.file("reports/daily.csv")) == "old daily\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["daily.csv", "summary.csv"])
    }

    @Test("a scenario with the heaviest allowed latency tail runs: draws past the horizon are capped, not a crash")
    func heavyTailScenarioRuns() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let heavy = Self.tiny.replacingOccurrences(of: #""mail": { "perDay": 24 },"#, with: """
            "mail": { "perDay": 24 },
            "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1h", "sigma": 5 } },
            """)
        let scenario = try scratch.write("heavy.json", heavy)
        #expect(pushsim(["validate", scenario]).code == .success)
        let result = pushsim(["run", scenario, "--out", scratch.file("out")])
        #expect(result.code == .success, "\(result.err)")
        let summary = lines(contents(scratch.file("out/summary.csv")))
        #expect(summary.count == 1 + 3 + 1)
    }

    @Test("run writes summary, daily, funnel and apns CSVs with the documented columns and one row per strategy (day, stage), report.html and result.json")
    func runWritesReports() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let out = scratch.file("nested/reports/tiny")
        let result = pushsim(["run", scenario, "--out", out, "--threads", "2"])
        #expect(result.code == .success)
        #expect(result.out.hasPrefix("tiny: 20 devices, 3 days from 2026-01-05, seed 11\n"))
        #expect(result.err == "wrote summary.csv, daily.csv, funnel.csv, apns.csv, compare.csv, report.html, result.json and run.json to \(out)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == ["apns.csv", "compare.csv", "daily.csv", "funnel.csv", "report.html", "result.json", "run.json", "summary.csv"])

        let summary = lines(contents(out + "/summary.csv"))
        let daily = lines(contents(out + "/daily.csv"))
        // Header, one row per strategy (daily: per strategy and day), and the final LF.
        try #require(summary.count == 1 + 3 + 1)
        try #require(daily.count == 1 + 3 * 3 + 1)
        #expect(summary[0] == Reports.summaryColumns.joined(separator: ","))
        #expect(daily[0] == Reports.dailyColumns.joined(separator: ","))
        #expect(summary.last == "" && daily.last == "")

        let summaryRows = summary.dropFirst().dropLast().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let dailyRows = daily.dropFirst().dropLast().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(summaryRows.map { $0[0] } == Self.labels)
        #expect(dailyRows.map { $0[0] } == Self.labels.flatMap { Array(repeating: $0, count: 3) })
        #expect(dailyRows.map { $0[1] } == Self.dates + Self.dates + Self.dates)

        func column(_ name: String, _ row: [String], _ columns: [String]) throws -> Int64 {
            let index = try #require(columns.firstIndex(of: name))
            return try #require(Int64(row[index]), "\(name) = \(row[index])")
        }
        var messagesByStrategy: [Int64] = []
        for row in summaryRows {
            try #require(row.count == Reports.summaryColumns.count)
            let c = { (name: String) in try column(name, row, Reports.summaryColumns) }
            let messages = try c("messages")
            #expect(messages > 0)
            #expect(try c("delivered") + c("summarized") + c("lost") + c("pending") == messages)
            #expect(try c("lost_apns_coalesced") + c("lost_apns_expired") + c("lost_apns_rejected") + c("lost_unregistered")
                    == c("lost"))
            #expect(try c("pushes_sent") >= messages)
            let dailyMessages = try dailyRows.filter { $0[0] == row[0] }
                .map { try column("messages", $0, Reports.dailyColumns) }.reduce(0, +)
            #expect(dailyMessages == messages)
            messagesByStrategy.append(messages)
        }
        // Common random numbers: every strategy sees the same mail.
        #expect(Set(messagesByStrategy).count == 1)
        for row in dailyRows {
            try #require(row.count == Reports.dailyColumns.count)
            let c = { (name: String) in try column(name, row, Reports.dailyColumns) }
            #expect(try c("delivered") + c("summarized") + c("lost") + c("pending") == c("messages"))
        }

        let funnel = lines(contents(out + "/funnel.csv"))
        let stages = ["messages", "provider_sent", "apns_accepted", "reached_device", "shown", "logged", "uploaded", "opened"]
        #expect(funnel.first == "strategy,stage,messages,share,share_se,share_low,share_high")
        let funnelKeys: [String] = funnel.dropFirst().dropLast().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        let expectedKeys: [String] = Self.labels.flatMap { label in stages.map { stage in label + "," + stage } }
        #expect(funnelKeys == expectedKeys)
        let apns = lines(contents(out + "/apns.csv"))
        #expect(apns.first == "strategy," + APNsCounters.columnNames.joined(separator: ","))
        #expect(apns.dropFirst().dropLast().map { String($0.split(separator: ",")[0]) } == Self.labels)
    }

    @Test("the same seed gives byte-identical reports and --seed changes them")
    func runIsDeterministic() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        var reports: [String: (summary: String?, daily: String?)] = [:]
        for (name, extra) in [("a", [String]()), ("b", []), ("seed11", ["--seed", "11"]), ("seed12", ["--seed", "12"])] {
            let out = scratch.file(name)
            let result = pushsim(["run", scenario, "--out", out] + extra)
            #expect(result.code == .success)
            reports[name] = (contents(out + "/summary.csv"), contents(out + "/daily.csv"))
        }
        let a = try #require(reports["a"]), b = try #require(reports["b"])
        let seed11 = try #require(reports["seed11"]), seed12 = try #require(reports["seed12"])
        #expect(a.summary != nil && a.daily != nil)
        #expect(a.summary == b.summary)
        #expect(a.daily == b.daily)
        // --seed 11 is the scenario's own seed.
        #expect(seed11.summary == a.summary)
        #expect(seed11.daily == a.daily)
        #expect(seed12.summary != a.summary)
        #expect(seed12.daily != a.daily)
    }

    @Test("the number of threads does not change the reports")
    func threadsDoNotMatter() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // More devices than one block of 64, so several threads really share the work.
        let scenario = try scratch.write("wide.json", Self.tiny
            .replacingOccurrences(of: "\"devices\": 20", with: "\"devices\": 200")
            .replacingOccurrences(of: "\"3d\"", with: "\"1d\"")
            .replacingOccurrences(of: "\"perDay\": 24", with: "\"perDay\": 4"))
        var summaries: [String?] = []
        for threads in ["1", "4"] {
            let out = scratch.file("threads-\(threads)")
            #expect(pushsim(["run", scenario, "--out", out, "--threads", threads]).code == .success)
            summaries.append(contents(out + "/summary.csv"))
        }
        #expect(summaries[0] != nil)
        #expect(summaries[0] == summaries[1])
    }

    @Test("--strategy runs only the chosen strategies, in the order given")
    func chosenStrategies() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let all = scratch.file("all"), one = scratch.file("one"), two = scratch.file("two")
        #expect(pushsim(["run", scenario, "--out", all]).code == .success)
        #expect(pushsim(["run", scenario, "--strategy", "queue", "--out", one]).code == .success)
        #expect(pushsim(["run", scenario, "--strategy", "queue-as-published", "--strategy", "no-queue", "--out", two]).code == .success)

        let allSummary = lines(contents(all + "/summary.csv"))
        let oneSummary = lines(contents(one + "/summary.csv"))
        let oneDaily = lines(contents(one + "/daily.csv"))
        try #require(allSummary.count == 5)
        #expect(oneSummary.count == 3)
        #expect(oneSummary.first == Reports.summaryColumns.joined(separator: ","))
        // A user's strategies do not influence each other: the row is the same as in the full run.
        #expect(oneSummary.dropFirst().first == allSummary[2])
        #expect(oneDaily.count == 1 + 3 + 1)
        #expect(oneDaily.dropFirst().dropLast().allSatisfy { $0.hasPrefix("queue,2026-01-0") })

        let twoSummary = lines(contents(two + "/summary.csv"))
        #expect(twoSummary.dropFirst().dropLast() == [allSummary[3], allSummary[1]])
    }

    @Test("an existing report folder has its older reports replaced whole, other files kept")
    func replacesOldReports() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let fresh = scratch.file("fresh")
        #expect(pushsim(["run", scenario, "--out", fresh]).code == .success)

        let out = scratch.file("old")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // Longer than the new report, so a write in place without truncation would show.
        _ = try scratch.write("old/summary.csv", String(repeating: "stale,row,from,an,older,run\n", count: 500))
        _ = try scratch.write("old/notes.txt", "keep me\n")
        let result = pushsim(["run", scenario, "--out", out])
        #expect(result.code == .success)
        #expect(contents(out + "/summary.csv") == contents(fresh + "/summary.csv"))
        #expect(contents(out + "/daily.csv") == contents(fresh + "/daily.csv"))
        #expect(contents(out + "/funnel.csv") == contents(fresh + "/funnel.csv"))
        #expect(contents(out + "/apns.csv") == contents(fresh + "/apns.csv"))
        #expect(contents(out + "/notes.txt") == "keep me\n")
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == ["apns.csv", "compare.csv", "daily.csv", "funnel.csv", "notes.txt", "report.html", "result.json", "run.json",
                    "summary.csv"])
    }

    @Test("an --out path that is a file exits 1 and leaves the file alone")
    func outIsAFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let out = try scratch.write("taken", "not a folder\n")
        let result = pushsim(["run", scenario, "--out", out])
        #expect(result.code == .failure)
        #expect(result.err.contains("error: \(out): exists and is not a directory\n"))
        #expect(contents(out) == "not a folder\n")
    }

    @Test("two shards merged give the same reports as one unsharded run")
    func shardsMergeToTheSameReports() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let whole = scratch.file("whole"), part1 = scratch.file("part1"), part2 = scratch.file("part2")
        let merged = scratch.file("merged")
        #expect(pushsim(["run", scenario, "--out", whole]).code == .success)
        #expect(pushsim(["run", scenario, "--shard", "1/2", "--out", part1]).code == .success)
        #expect(pushsim(["run", scenario, "--shard", "2/2", "--out", part2]).code == .success)
        #expect(exists(part1 + "/partial.json"))
        #expect(!exists(part1 + "/summary.csv"))
        let result = pushsim(["merge", part2, part1 + "/partial.json", "--out", merged])
        #expect(result.code == .success)
        #expect(result.err == "merged 2 shards into summary.csv, daily.csv, funnel.csv, apns.csv, compare.csv, report.html, result.json and run.json in \(merged)\n")
        for file in Reports.fileNames {
            #expect(contents(merged + "/" + file) != nil)
            #expect(contents(merged + "/" + file) == contents(whole + "/" + file), "\(file) differs")
        }

        let incomplete = pushsim(["merge", part1, "--out", scratch.file("incomplete")])
        #expect(incomplete.code == .dataError)
        #expect(incomplete.err == "error: shards missing: 2/2\n")
        #expect(!exists(scratch.file("incomplete")))
    }

    @Test("--baseline chooses the strategy compare.csv and the table compare with, in run and merge; an unknown label is a usage error")
    func baselineOption() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let first = scratch.file("first"), chosen = scratch.file("chosen")
        #expect(pushsim(["run", scenario, "--out", first]).code == .success)
        let run = pushsim(["run", scenario, "--out", chosen, "--baseline", "queue"])
        #expect(run.code == .success)
        #expect(run.out.contains("\nminus queue, paired (± = half-width of the 95% interval)\n"))
        let rows = lines(contents(chosen + "/compare.csv")).dropFirst().filter { !$0.isEmpty }
        #expect(rows.count == 2 * Metric.allCases.count)
        #expect(rows.allSatisfy { $0.split(separator: ",")[1] == "queue" })
        #expect(lines(contents(first + "/compare.csv")).dropFirst().filter { !$0.isEmpty }
                    .allSatisfy { $0.split(separator: ",")[1] == "no-queue" })
        // The baseline changes the comparison only.
        #expect(contents(chosen + "/summary.csv") == contents(first + "/summary.csv"))

        let part1 = scratch.file("p1"), part2 = scratch.file("p2"), merged = scratch.file("merged")
        #expect(pushsim(["run", scenario, "--shard", "1/2", "--out", part1]).code == .success)
        #expect(pushsim(["run", scenario, "--shard", "2/2", "--out", part2]).code == .success)
        #expect(pushsim(["merge", part1, part2, "--out", merged, "--baseline", "queue"]).code == .success)
        #expect(contents(merged + "/compare.csv") == contents(chosen + "/compare.csv"))
        // merge prints what run prints: the same JSON, or nothing with --quiet.
        let runJSON = pushsim(["run", scenario, "--out", scratch.file("json"), "--baseline", "queue", "--format", "json"])
        let mergeJSON = pushsim(["merge", part1, part2, "--out", merged, "--baseline", "queue", "--format", "json"])
        #expect(mergeJSON.code == .success && mergeJSON.out == runJSON.out && mergeJSON.out.hasPrefix("{"))
        let quiet = pushsim(["merge", part1, part2, "--out", merged, "--quiet"])
        #expect(quiet.code == .success && quiet.out.isEmpty && quiet.err.isEmpty)

        let unknown = pushsim(["run", scenario, "--out", scratch.file("none"), "--baseline", "nope"])
        #expect(unknown.code == .usage)
        #expect(unknown.err.hasPrefix("error: no strategy 'nope' in the scenario; it has: no-queue, queue"))
        #expect(!exists(scratch.file("none")))
        #expect(pushsim(["merge", part1, part2, "--out", scratch.file("none"), "--baseline", "nope"]).code == .usage)
        #expect(!exists(scratch.file("none")))
    }

    @Test("--baseline with --strategy leaving it out simulates the baseline too, as the first column; an unknown one lists the scenario's")
    func baselineJoinsPickedStrategies() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        let picked = scratch.file("picked"), both = scratch.file("both")
        let run = pushsim(["run", scenario, "--strategy", "queue", "--baseline", "no-queue", "--out", picked])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("\nminus no-queue, paired"))
        let rows = lines(contents(picked + "/compare.csv")).dropFirst().filter { !$0.isEmpty }
        #expect(rows.count == Metric.allCases.count)
        #expect(rows.allSatisfy { $0.split(separator: ",")[0] == "queue" && $0.split(separator: ",")[1] == "no-queue" })
        // The same as asking for both, baseline first: common random numbers.
        #expect(pushsim(["run", scenario, "--strategy", "no-queue", "--strategy", "queue", "--out", both]).code == .success)
        for file in ["summary.csv", "daily.csv", "compare.csv"] {
            #expect(contents(picked + "/" + file) == contents(both + "/" + file), "\(file)")
        }
        let unknown = pushsim(["run", scenario, "--strategy", "queue", "--baseline", "nope", "--out", scratch.file("none")])
        #expect(unknown.code == .usage)
        #expect(unknown.err.hasPrefix("error: no strategy 'nope' in the scenario; it has: no-queue, queue, queue-as-published\n"))
        #expect(!exists(scratch.file("none")))
    }

    @Test("progress goes to a terminal's stderr once a run passes 2 s, and --quiet hides it")
    func quietHidesProgress() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", Self.tiny)
        func stderr(_ extra: [String]) -> String {
            let captured = CapturedConsole()
            var console = captured.console
            console.errIsTerminal = true
            _ = RunCommand.main([scenario, "--out", scratch.file("out")] + extra, console: console) { scenario, users, threads, traced, progress in
                // A run long enough for the reporter, which waits 2 s before its first line.
                Thread.sleep(forTimeInterval: 2.1)
                progress?(users.count / 2)
                return try Simulation.run(scenario, users: users, threads: threads, tracing: traced)
            }
            return captured.err
        }
        #expect(stderr([]).contains("10/20 devices"))
        let quiet = stderr(["--quiet"])
        #expect(!quiet.contains("devices") && quiet.isEmpty, "\(quiet)")
    }
}
