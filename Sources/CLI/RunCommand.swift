import Base
import FoundationEssentials
import Reports
import ScenarioFormat
import SendLog
import Simulator
import Studies
import Synchronization

/// `pushsim run SCENARIO [--out DIR] [--seed N] [--strategy LABEL]... [--threads N] [--shard K/N]
/// [--trace DEVICE]... [--format table|json] [--quiet]`. `check` runs scenarios through the same options and flow.
package enum RunCommand {
    package static let help = """
    OVERVIEW: Run a scenario and compare its strategies.

    """ + "\n" + usageHelp.text + """

    Prints a side-by-side table on stdout and writes \(Reports.listing(RunOutput.fileNames))
    to <dir>, whole or not at all (with --trace, \(Reports.listing(TraceFiles.fileNames)) too).
    '-' reads the scenario from standard input.

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim run scenarios/mail-january-february.json
      pushsim run scenarios/two-states.json --seed 42 --strategy queue --out /tmp/q
      pushsim run scenarios/scale-1m.json --shard 3/8 --out parts/3
      pushsim run scenarios/two-states.json --trace 0 --trace 7 --out /tmp/story

    """

    /// `run`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "run", [.text("<scenario.json | ->"), .optional(Options.set.spec), .optional(Options.out.spec), .optional(Options.seed.spec)],
        [.optional(Options.strategy.spec), .optional(Options.baseline.spec), .optional(Options.threads.spec),
         .optional(Options.shard.spec)],
        [.optional(Options.trace.spec), .optional(OutputOptions.format.spec), .optional(OutputOptions.quiet.spec),
         .optional(Options.allowLarge.spec)])

    /// The options `run` takes: the run options and the output options.
    package static let options = Options.all + OutputOptions.all

    /// `run`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp([
        .option(Options.set.spec), .option(Options.out.spec), .option(Options.seed.spec), .option(Options.strategy.spec),
        .option(Options.baseline.spec), .option(Options.threads.spec), .option(Options.shard.spec), .option(Options.trace.spec),
        .option(OutputOptions.format.spec.explained("table (default) or json: each strategy's rates with standard errors",
                                                   "and 95% intervals, for scripts (docs/checks.md lists the keys)")),
        .option(OutputOptions.quiet.spec), .option(Options.allowLarge.spec), .showHelp,
    ])

    /// Simulates users of a scenario with a number of threads, tracing the devices given
    /// (`--trace`), reporting progress.
    package typealias Simulate = (Scenario, Range<Int>, Int, [Int], (@Sendable (Int) -> Void)?) throws
        -> (result: SimulationResult, trace: SimulationTrace)

    /// `Simulation.run` with its trace: what `run`, `check` and `sweep` simulate with.
    package static func simulation(_ scenario: Scenario, _ users: Range<Int>, _ threads: Int, _ traced: [Int],
                                   _ progress: (@Sendable (Int) -> Void)?) throws -> (result: SimulationResult, trace: SimulationTrace) {
        // A sweep's or a fit's points share the prepared log while they share its target.
        try Simulation.run(try scenario.preparingSendLog(), users: users, threads: threads, tracing: traced, progress: progress)
    }

    /// What a command says when `simulation` failed: a send log's error is the data's (65);
    /// anything else is the accounting identity's (1), and nothing was written.
    /// - Complexity: O(1).
    package static func simulationFailed(_ error: any Error, console: Console) -> ExitCode {
        if let error = error as? SendLogError {
            console.err("error: \(error)\n")
            return .dataError
        }
        console.err("error: the accounting identity broke, nothing written: \(error)\n")
        return .failure
    }

    /// Runs the command; `simulate` is `Simulation.run`, and tests pass one that
    /// records whether the simulation was reached.
    package static func main(_ arguments: ArraySlice<String>, console: Console,
                     simulate: Simulate = RunCommand.simulation) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            return PushSimCommand.usage(error, command: "run", console: console)
        }
        // Standard output first, the reports after: when it fails (`| true`, a full disk)
        // the process ends with exit 1 and the folder is left as it was.
        let outcome = execute(options, command: "run", arguments: arguments, console: console, simulate: simulate,
                              beforeWriting: { run in
            guard !options.output.quiet else { return }
            switch options.output.format {
            case .table: console.out(run.reports.table)
            case .json: console.out(MachineOutput.run(run.record, result: run.result, baseline: run.baseline))
            }
        })
        switch outcome {
        case .finished(let code):
            return code
        case .completed(let run):
            if !options.output.quiet {
                let names = RunOutput.fileNames + (run.reports.background == nil ? [] : [Reports.backgroundFileName])
                    + (options.traced.isEmpty ? [] : TraceFiles.fileNames)
                console.err("wrote \(Reports.listing(names)) to \(UserText.path(run.directory))\n")
            }
            return .success
        }
    }

    /// A run that wrote its reports.
    package struct Completed {
        package var scenario: Scenario
        package var result: SimulationResult
        package var reports: Reports
        package var record: RunRecord
        package var directory: String
        /// The strategy the others are compared with (`--baseline`), an index into the result's.
        package var baseline: Int
    }

    /// How `execute` ended: reports written, or an exit code (an error, already
    /// printed, or a shard's partial result written).
    package enum Outcome {
        case completed(Completed)
        case finished(ExitCode)
    }

    /// Loads the scenario, applies the options, simulates and writes the reports (or a
    /// shard's partial result): the flow `run` and `check` share. `prepare` sees the
    /// scenario as it will run (options applied) and may stop before the simulation
    /// with an exit code (after printing why); `alsoWritable` is checked writable
    /// then too, so no long run ends on an output that cannot be written. `beforeWriting`
    /// sees a whole run's output just before its reports are written.
    package static func execute(_ options: Options, command: String, arguments: ArraySlice<String>, console: Console,
                        simulate: Simulate, prepare: (Scenario) -> ExitCode? = { _ in nil },
                        alsoWritable: [(directory: String, name: String)] = [],
                        beforeWriting: (Completed) -> Void = { _ in }) -> Outcome {
        do throws(CommandStop) {
            let loaded = try loadScenario(options, console: console)
            var scenario = loaded.scenario
            let baseline = try chooseStrategies(&scenario, options: options, command: command, console: console)
            try checkTracedAndShard(scenario, options: options, command: command, console: console)
            if let code = prepare(scenario) { return .finished(code) }
            try checkCost(scenario, options: options, console: console)
            let directory = options.out ?? "reports/\(scenario.name)"
            // A folder that cannot take the output fails now, not after the simulation.
            do {
                try ReportWriter.checkWritable(directory, for: options.shard != nil ? [Self.partialFileName]
                                               : RunOutput.fileNames + (options.traced.isEmpty ? [] : TraceFiles.fileNames))
                for target in alsoWritable { try ReportWriter.checkWritable(target.directory, for: [target.name]) }
            } catch {
                console.err("error: \(error)\n")
                return .finished(.failure)
            }
            // The send log is read once, before the simulation: a bad row stops the run here.
            if scenario.sendLog != nil {
                do {
                    scenario = try scenario.preparingSendLog()
                } catch {
                    console.err("error: \(error)\n")
                    return .finished(.dataError)
                }
                if !options.output.quiet, let tally = scenario.sendLog?.replay?.tally { console.err(SendLogInput.summary(tally) + "\n") }
            }
            let users = options.shard.map { Simulation.shardRange(index: $0.index, count: $0.count, devices: scenario.devices) }
                ?? 0..<scenario.devices
            let (result, trace) = try simulateShowingProgress(scenario, users: users, options: options, console: console,
                                                              simulate: simulate)
            do {
                // Each kind of run removes the other kind's output from the folder, in the
                // same all-or-nothing step: a merge or a reader must not mix them up.
                if let shard = options.shard {
                    try writePartial(scenario, scenarioBytes: loaded.bytes, shard: shard, users: users.count, result: result,
                                     directory: directory, options: options, console: console)
                    return .finished(.success)
                }
                let record = RunRecord(scenario: scenario, scenarioBytes: loaded.bytes,
                                       commandLine: ["pushsim", command] + arguments, overrides: options.sets)
                // With --set, result.json carries the scenario as it ran (run.json hashes the file's bytes).
                let scenarioText = loaded.overrides.isEmpty ? nil : ScenarioOverride.text(loaded.bytes, overrides: loaded.overrides)
                let output = RunOutput(scenario: scenario, scenarioText: scenarioText ?? String(decoding: loaded.bytes, as: UTF8.self),
                                       result: result, commandLine: RunOutput.commandLine([command] + arguments), record: record,
                                       baseline: baseline, trace: trace)
                let completed = Completed(scenario: scenario, result: result, reports: output.reports, record: record,
                                          directory: directory, baseline: baseline)
                beforeWriting(completed)
                // A run without --trace takes away an earlier run's trace: it would not be this run's story.
                try ReportWriter.write(output.files, to: directory,
                                       removing: [Self.partialFileName] + (trace.devices.isEmpty ? TraceFiles.fileNames : [])
                                           // A scenario without background pushes takes away an earlier run's background.csv.
                                           + (output.reports.background == nil ? [Reports.backgroundFileName] : []),
                                       whileWaiting: options.output.waitingNote(console))
                return .completed(completed)
            } catch {
                console.err("error: \(error)\n")
                return .finished(.failure)
            }
        } catch {
            return .finished(error.code)
        }
    }

    /// The scenario as `--set` and `--seed` change it, with the bytes it was read from and
    /// the overrides. Read once: a pipe cannot be read again, and a partial result must carry
    /// exactly the text that was simulated.
    private static func loadScenario(_ options: Options, console: Console) throws(CommandStop)
        -> (scenario: Scenario, bytes: [UInt8], overrides: [ScenarioOverride]) {
        var scenario: Scenario
        let scenarioBytes: [UInt8]
        var overrides: [ScenarioOverride] = []
        do {
            overrides = try options.sets.map { (text) throws(ScenarioError) in try ScenarioOverride(text) }
            (scenario, scenarioBytes) = try ScenarioDecoder.loadKeepingBytes(path: options.scenarioPath,
                                                                             standardInput: console.input,
                                                                             overrides: overrides)
        } catch {
            console.err("error: \(error)\n")
            throw CommandStop(code: .dataError)
        }
        if let seed = options.seed { scenario.seed = seed }
        if let problem = scenario.steeringProblem(seed: scenario.seed) {
            console.err("error: \(options.scenarioPath): \(problem)\n")
            throw CommandStop(code: .dataError)
        }
        return (scenario, scenarioBytes, overrides)
    }

    /// Keeps the strategies `--strategy` names (with the `--baseline` one, first), and
    /// answers the baseline's index among them; an unknown label is a usage error.
    private static func chooseStrategies(_ scenario: inout Scenario, options: Options, command: String,
                                         console: Console) throws(CommandStop) -> Int {
        let labels = scenario.strategies.map(\.label)
        if !options.strategies.isEmpty {
            var chosen: [Strategy] = []
            for label in options.strategies {
                guard let strategy = scenario.strategies.first(where: { $0.label == label }) else {
                    throw CommandStop(code: PushSimCommand.usage(.unknownStrategy(label, known: labels), command: command, console: console))
                }
                if !chosen.contains(strategy) { chosen.append(strategy) }
            }
            // `--strategy queue --baseline no-queue` asks for queue against no-queue: the
            // baseline is simulated too, first, as the column the others are compared with.
            if let label = options.baseline, !chosen.contains(where: { $0.label == label }),
               let baseline = scenario.strategies.first(where: { $0.label == label }) {
                chosen.insert(baseline, at: 0)
            }
            scenario.strategies = chosen
        }
        guard let label = options.baseline else { return 0 }
        // Whatever --strategy chose, the baseline was added to it when the scenario has it.
        guard let index = scenario.strategies.firstIndex(where: { $0.label == label }) else {
            throw CommandStop(code: PushSimCommand.usage(.unknownStrategy(label, known: labels), command: command, console: console))
        }
        return index
    }

    /// `--trace` devices and `--shard`'s count within the scenario's devices: else a usage error.
    private static func checkTracedAndShard(_ scenario: Scenario, options: Options, command: String,
                                            console: Console) throws(CommandStop) {
        if let device = options.traced.first(where: { $0 >= scenario.devices }) {
            throw CommandStop(code: PushSimCommand.usage(.invalidValue(option: "--trace", value: String(device),
                                                                expected: "a device index from 0 to \(scenario.devices - 1) "
                                                                    + "(the scenario has \(Counted.phrase(scenario.devices, "device")))"),
                                                  command: command, console: console))
        }
        if let shard = options.shard, shard.count > scenario.devices {
            throw CommandStop(code: PushSimCommand.usage(.invalidValue(option: "--shard", value: "\(shard.index)/\(shard.count)",
                                                                expected: "K/N with N ≤ \(scenario.devices), the scenario's device count"),
                                                  command: command, console: console))
        }
    }

    /// The run's and the trace's cost estimates within their limits, unless `--allow-large`.
    /// Checked before anything is created: a run past a limit fails in a moment, not hours later.
    private static func checkCost(_ scenario: Scenario, options: Options, console: Console) throws(CommandStop) {
        let deviceCount = options.shard.map {
            Simulation.shardRange(index: $0.index, count: $0.count, devices: scenario.devices).count
        } ?? scenario.devices
        if !options.allowLarge, let passed = RunCost(scenario, devices: deviceCount, threads: options.threads).limitPassed {
            console.err("error: \(UserText.path(FileBytes.displayName(options.scenarioPath))): the run is too large: "
                        + "\(passed) (docs/scenarios.md, \"Limits\"); pass --allow-large to run it anyway\n")
            throw CommandStop(code: .dataError)
        }
        if !options.allowLarge, !options.traced.isEmpty {
            let expected = TraceCost.expectedEvents(scenario, devices: options.traced.count)
            if expected > TraceCost.maximumEvents {
                console.err("error: \(UserText.path(FileBytes.displayName(options.scenarioPath))): the trace is too large: about "
                            + "\(Counted.phrase(RunCost.count(expected), "event")) expected, more than \(RunCost.count(TraceCost.maximumEvents)) "
                            + "(docs/trace.md); trace fewer devices or a shorter run (--set duration=…), or pass --allow-large\n")
                throw CommandStop(code: .dataError)
            }
        }
    }

    /// Simulates `users`, their progress on stderr unless `--quiet`.
    private static func simulateShowingProgress(_ scenario: Scenario, users: Range<Int>, options: Options, console: Console,
                                                simulate: Simulate) throws(CommandStop) -> (SimulationResult, SimulationTrace) {
        let progress = options.output.quiet ? nil : ProgressReporter(total: users.count, console: console)
        let result: SimulationResult, trace: SimulationTrace
        do {
            var onProgress: (@Sendable (Int) -> Void)?
            if let progress { onProgress = { progress.update(done: $0) } }
            (result, trace) = try simulate(scenario, users, options.threads, options.traced, onProgress)
        } catch {
            progress?.finish()
            console.err("error: the accounting identity broke, no report written: \(error)\n")
            throw CommandStop(code: .failure)
        }
        progress?.finish()
        return (result, trace)
    }

    /// A shard's partial result, written in place of the reports (which it removes).
    private static func writePartial(_ scenario: Scenario, scenarioBytes: [UInt8], shard: (index: Int, count: Int), users: Int,
                                     result: SimulationResult, directory: String, options: Options, console: Console) throws {
        let partial = PartialResult(scenarioText: String(decoding: scenarioBytes, as: UTF8.self),
                                    seed: scenario.seed, shard: shard, result: result)
        try ReportWriter.write([(Self.partialFileName, partial.encoded())], to: directory,
                               removing: RunOutput.fileNames + [Reports.backgroundFileName] + TraceFiles.fileNames,
                               whileWaiting: options.output.waitingNote(console))
        if !options.output.quiet {
            console.err("wrote \(UserText.path(ReportWriter.join(directory, Self.partialFileName))) "
                        + "(shard \(shard.index)/\(shard.count), \(Counted.phrase(users, "device")))\n")
        }
    }

    /// The file a shard writes in its folder; `merge` reads it from a folder given.
    package static let partialFileName = PartialResult.fileName

    package struct Options {
        package var scenarioPath: String
        package var out: String?
        package var seed: UInt64?
        package var strategies: [String]
        package var baseline: String?
        package var threads: Int
        package var shard: (index: Int, count: Int)?
        /// `--set` arguments, `PATH=VALUE`, in order (read by `ScenarioOverride`).
        package var sets: [String]
        package var output: OutputOptions
        /// `--allow-large`: run past the cost limits.
        package var allowLarge: Bool
        /// `--trace`: the devices whose story is told, 0-based, ascending, each once.
        package var traced: [Int]

        /// The run options, declared once: `run`, `check` and `sweep` scan them (`sweep`
        /// all but `--baseline` and `--shard`) and read them here, so each means one thing.
        package static let set = Option<String>(
            "--set", "<path>=<value>", repeatable: true, .text,
            help: "Change one scenario field for this run, e.g. --set devices=100,",
            "--set strategies[1].repeatMaxCount=3, --set connectivity.offline.mean=2h",
            "(JSON when the value is JSON, else a string); repeatable; run.json",
            "records them; not with --shard")
        package static let out = Option<String>("--out", "<dir>", .nonEmpty("a folder"),
                                                help: "Report folder (default: reports/<scenario name>/)")
        package static let seed = Option<UInt64>("--seed", "<n>", .integer(in: 0...UInt64(Int64.max)),
                                                 help: "Override the scenario's seed (0 … 2^63-1)")
        package static let strategy = Option<String>("--strategy", "<label>", repeatable: true, .text,
                                                     help: "Run only this strategy; repeat for several (default: all)")
        package static let baseline = Option<String>(
            "--baseline", "<label>", .text,
            help: "The strategy the others are compared with in compare.csv and the",
            "table (default: the first one run); simulated too when --strategy",
            "leaves it out")
        package static let threads = Option<Int>(
            "--threads", "<n>", .integer(in: 1...1024),
            help: "Worker threads (default: the CPUs this process may use, after its",
            "affinity mask and cgroup CPU quota); the output does not depend on it")
        package static let shard = Option<(index: Int, count: Int)>(
            "--shard", "<k>/<n>", .shard,
            help: "Simulate only the k-th of n equal slices of the devices and write",
            "<dir>/partial.json instead of reports; 'pushsim merge' combines them")
        package static let trace = Option<[Int]>(
            "--trace", "<device>", repeatable: true, .deviceIndices,
            help: "Tell the story of every push of this device (0-based among the",
            "scenario's devices), under every strategy and app: writes trace.jsonl",
            "(one event a line) and trace.json (Perfetto, chrome://tracing) to",
            "<dir> and draws its busiest day in report.html (docs/trace.md);",
            "repeat, or a comma list (--trace 0,7); not with --shard")
        package static let allowLarge = Flag(
            "--allow-large",
            help: "Run even when the cost estimate passes a limit (messages, events,",
            "memory: docs/scenarios.md, \"Limits\"); without it such a run stops before starting")
        /// The group, in `run`'s order.
        package static let all: [OptionSpec] = [set.spec, out.spec, seed.spec, strategy.spec, baseline.spec, threads.spec,
                                                shard.spec, trace.spec, allowLarge.spec]

        package init(_ arguments: ArraySlice<String>) throws(UsageError) {
            try self.init(ArgumentScanner(arguments, command: "run", options: RunCommand.options))
        }

        /// The options in `scanner` (which may also hold another command's own).
        package init(_ scanner: ArgumentScanner) throws(UsageError) {
            scenarioPath = try scanner.positionals("the scenario file")[0]
            out = try scanner.value(Self.out)
            seed = try scanner.value(Self.seed)
            strategies = try scanner.values(Self.strategy)
            baseline = try scanner.value(Self.baseline)
            threads = try scanner.value(Self.threads) ?? CPUAllowance.available()
            shard = try scanner.value(Self.shard)
            sets = try scanner.values(Self.set)
            // A partial result carries the file's text, which merge decodes again without them.
            if shard != nil, let set = sets.first {
                throw .invalidValue(option: "--set", value: set, expected: "no --set with --shard (merge reads the file's text)")
            }
            traced = Array(Set(try scanner.values(Self.trace).joined())).sorted()
            // A shard writes a partial result, which carries no trace: the story is told by a whole run.
            if shard != nil, let device = traced.first {
                throw .invalidValue(option: "--trace", value: String(device),
                                    expected: "no --trace with --shard (a shard writes partial.json, not reports; trace a whole run)")
            }
            output = try OutputOptions(scanner)
            allowLarge = scanner.flag(Self.allowLarge)
        }
    }
}

/// Devices done, rate and ETA on stderr, only when stderr is a terminal and the run
/// lasts more than a couple of seconds. Wall-clock time is used here only, never
/// in the simulation.
package final class ProgressReporter: Sendable {
    private let total: Int
    private let console: Console
    private let started = ContinuousClock.now
    private let lastShown = Mutex<ContinuousClock.Instant?>(nil)

    package init?(total: Int, console: Console) {
        guard console.errIsTerminal else { return nil }
        self.total = total
        self.console = console
    }

    package func update(done: Int) {
        let now = ContinuousClock.now
        let elapsed = now - started
        guard elapsed > .seconds(2) else { return }
        let show = lastShown.withLock { last -> Bool in
            if let last, now - last < .milliseconds(500) { return false }
            last = now
            return true
        }
        guard show else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = Double(done) / max(seconds, 1e-9)
        let remaining = rate > 0 ? Int(Double(total - done) / rate) : 0
        console.err("\r\(done)/\(total) devices  \(Int(rate)) devices/s  ETA \(remaining / 60)m\(remaining % 60)s   ")
    }

    package func finish() {
        if lastShown.withLock({ $0 != nil }) { console.err("\r\u{1B}[K") }
    }
}

extension ValueReader where Value == [Int] {
    /// Device indices: one, or several separated by commas ("0", "0,7"), each plain digits
    /// (0-based; whether the scenario has that many devices is checked once it is read).
    package static var deviceIndices: ValueReader {
        ValueReader(expected: "a device index (0, 1, …) or a comma-separated list of them") { text in
            var indices: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let index: Int = ArgumentScanner.plainInteger(String(part)) else { return nil }
                indices.append(index)
            }
            return indices
        }
    }
}

extension ValueReader where Value == (index: Int, count: Int) {
    /// `K/N`, the K-th of N slices: plain digits, 1 ≤ K ≤ N ≤ 100,000.
    package static var shard: ValueReader {
        ValueReader(expected: "K/N with 1 ≤ K ≤ N, e.g. 3/8") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index: Int = ArgumentScanner.plainInteger(String(parts[0])),
                  let count: Int = ArgumentScanner.plainInteger(String(parts[1])),
                  count >= 1, count <= 100_000, (1...count).contains(index) else { return nil }
            return (index, count)
        }
    }
}
