import Base
import FoundationEssentials
import Glibc
import Reports
import Simulator
import Studies

/// `pushsim check SCENARIO [run options] [--junit FILE]`: runs the scenario as `run`
/// does (same options, same reports) and judges its `expect` entries; exit 2 when one fails.
package enum CheckCommand {
    package static let help = """
    OVERVIEW: Run a scenario and hold it to the bounds in its 'expect' list (for CI).

    """ + "\n" + usageHelp.text + """

    Runs the scenario exactly as 'pushsim run' does (every run option applies, the
    reports are written the same way) and judges each expectation on its whole
    confidence interval: atLeast holds when the interval's lower end is at least the
    bound, atMost when its upper end is at most the bound. Prints a table of each
    expectation with its value, interval and verdict. A scenario without 'expect' is
    a usage error.

    """ + "\n" + optionsHelp.text + """

    EXIT CODES: 0 every expectation holds, 2 one or more do not, 1 the simulator or a
    write failed, 64 bad arguments, 65 bad scenario.

    EXAMPLES:
      pushsim check scenarios/regression-gate.json --junit reports/junit.xml
      pushsim check scenarios/regression-gate.json --seed 7 --format json

    """

    /// `--junit <file>`: a file path, split into its folder and name.
    package static let junit = Option<(directory: String, name: String)>(
        "--junit", "<file>", ValueReader(expected: "a file path", read: { Self.split($0) }),
        help: "Also write a JUnit XML report: one test case per expectation,",
        "a failure naming the value, interval and bound (written whole)")

    /// The options `check` takes: `run`'s (`--shard` is refused after scanning, with why),
    /// `--junit` and the output options.
    package static let options = RunCommand.Options.all + [junit.spec] + OutputOptions.all

    /// `check`'s USAGE line: its own option, then the run options as a group.
    package static let usageHelp = UsageHelp("check", [.text("<scenario.json | ->"), .optional(junit.spec), .text("[run's options but --shard]")])

    /// `check`'s OPTIONS section: its own options, then the run options `run`'s help explains.
    package static let optionsHelp = OptionsHelp([
        .option(junit.spec),
        .option(OutputOptions.format.spec.explained("table (default) or json: the verdicts, for scripts")),
        .option(OutputOptions.quiet.spec.explained("Print nothing on stdout; each failed expectation is one line on stderr")),
        .asFor(command: "run", options: [RunCommand.Options.set.spec, RunCommand.Options.out.spec, RunCommand.Options.seed.spec,
                                         RunCommand.Options.strategy.spec, RunCommand.Options.threads.spec,
                                         RunCommand.Options.trace.spec, RunCommand.Options.allowLarge.spec],
               not: [RunCommand.Options.shard.spec]),
        .showHelp,
    ])

    /// Runs the command; `simulate` as for `RunCommand.main`. `now` gives the JUnit
    /// file's timestamp (UTC, YYYY-MM-DDTHH:MM:SS) and host name.
    package static func main(_ arguments: ArraySlice<String>, console: Console,
                     simulate: RunCommand.Simulate = RunCommand.simulation,
                     now: () -> (timestamp: String, hostname: String) = Self.timestampAndHost) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let options: RunCommand.Options
        var junit: (directory: String, name: String)?
        do {
            let scanner = try ArgumentScanner(arguments, command: "check", options: Self.options)
            options = try RunCommand.Options(scanner)
            if let shard = options.shard {
                throw UsageError.invalidValue(option: "--shard", value: "\(shard.index)/\(shard.count)",
                                              expected: "no --shard: check judges a whole run")
            }
            junit = try scanner.value(Self.junit)
        } catch let error as UsageError {
            return PushSimCommand.usage(error, command: "check", console: console)
        } catch {
            return .failure
        }
        let started = ContinuousClock.now
        let outcome = RunCommand.execute(options, command: "check", arguments: arguments, console: console,
                                         simulate: simulate, prepare: { scenario in
            if let problem = Self.unrunnable(scenario) {
                return PushSimCommand.usage(.mismatch(problem), command: "check", console: console)
            }
            return nil
        }, alsoWritable: junit.map { [$0] } ?? [])
        guard case .completed(let run) = outcome else {
            if case .finished(let code) = outcome { return code }
            return .failure
        }
        let verdicts = run.scenario.expectations.map { expectation in
            // `unrunnable` made sure every label was run.
            Verdict(expectation, estimate: run.result.estimate(for: expectation) ?? Estimate(value: .nan, standardError: .nan))
        }
        let table = Self.table(verdicts)
        if let junit {
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let stamp = now()
            let xml = JUnitReport.render(verdicts: verdicts, record: run.record, table: table, timestamp: stamp.timestamp,
                                         hostname: stamp.hostname, seconds: seconds)
            do {
                try ReportWriter.write([(junit.name, xml)], to: junit.directory,
                                       whileWaiting: options.output.waitingNote(console))
            } catch {
                console.err("error: \(error)\n")
                return .failure
            }
        }
        if options.output.quiet {
            for verdict in verdicts { if let message = verdict.failureMessage { console.err("error: expectation failed: \(message)\n") } }
        } else {
            switch options.output.format {
            case .table: console.out(run.reports.table + "\n" + table)
            case .json: console.out(MachineOutput.check(run.record, verdicts: verdicts))
            }
        }
        return verdicts.allSatisfy(\.holds) ? .success : .failedCheck
    }

    /// Why `scenario` (options applied) cannot be checked: no expectations, or one that
    /// names a strategy `--strategy` left out; nil when it can.
    /// - Complexity: O(expectations × strategies).
    package static func unrunnable(_ scenario: Scenario) -> String? {
        guard !scenario.expectations.isEmpty else {
            return "the scenario has no 'expect' entries, so there is nothing to check ('pushsim run' runs it)"
        }
        for (index, expectation) in scenario.expectations.enumerated() {
            for label in [expectation.strategy] + (expectation.baseline.map { [$0] } ?? [])
            where !scenario.strategies.contains(where: { $0.label == label }) {
                return "expect[\(index)] needs strategy '\(UserText.escape(label))', which --strategy leaves out"
            }
        }
        return nil
    }

    /// The verdicts as a table, then a line saying how many hold and each failure's reason.
    /// - Complexity: O(expectations).
    package static func table(_ verdicts: [Verdict]) -> String {
        let rows = verdicts.map { verdict -> [String] in
            [verdict.expectation.title, Verdict.number(verdict.estimate.value),
             verdict.interval.map(Verdict.range) ?? "– (no standard error)",
             verdict.holds ? (verdict.interval == nil ? "holds (value only)" : "holds")
                : verdict.estimate.value.isFinite ? "FAILS" : "FAILS (no value)"]
        }
        let header = ["expectation", "value", "interval", "verdict"]
        var text = TextColumns.lines([header] + rows)
        let failed = verdicts.filter { !$0.holds }
        text += failed.isEmpty ? (verdicts.count == 1 ? "the expectation holds\n" : "all \(verdicts.count) expectations hold\n")
            : "\(failed.count) of \(verdicts.count) expectation\(verdicts.count == 1 ? "" : "s") FAILED\n"
        for verdict in failed { text += "  " + (verdict.failureMessage ?? "") + "\n" }
        return text
    }

    /// A file path as (folder, name); nil for an empty path or one ending in `/`.
    /// - Complexity: O(n) in the path's length.
    package static func split(_ path: String) -> (directory: String, name: String)? {
        guard !path.isEmpty, !path.hasSuffix("/") else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name != ".", name != ".." else { return nil }
        return (ReportWriter.parent(of: path) ?? ".", name)
    }

    /// The current time in UTC and this machine's name ("localhost" when unknown).
    /// - Complexity: O(1).
    package static func timestampAndHost() -> (timestamp: String, hostname: String) {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, buffer.count - 1) == 0
        let host = named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (stamp, host.isEmpty ? "localhost" : host)
    }
}
