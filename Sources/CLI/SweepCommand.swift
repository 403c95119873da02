import Base
import FoundationEssentials
import Reports
import ScenarioFormat
import SendLog
import Simulator
import Studies

/// `pushsim sweep SCENARIO --set PATH=V1,V2,… [--set PATH2=…] [run options]`: one run per
/// point of the grid of swept values, all with the same seed, into `sweep.csv` and `sweep.html`.
package enum SweepCommand {
    package static let help = """
    OVERVIEW: Run a scenario once per point of a grid of field values and chart the rates.

    """ + "\n" + usageHelp.text + """

    Each --set sweeps one field (its path as in 'pushsim run --set'); one given a single
    value is a fixed override for every point, as in 'run' (not a column). The points are
    every combination of one value per field (the last field varying fastest), each run
    with the same seed, so the points differ by the swept values alone (common random
    numbers). Values split on commas outside [...], {...} and "..." (so [1,2] is one
    value); A..B stands for the integers A to B. Every point is checked before anything
    runs: a bad path or value in any of them is a scenario error (exit 65).

    Writes sweep.csv (the swept paths, strategy, then every rate and its <rate>_se, one
    row per point and strategy) and sweep.html (each headline rate against the first
    swept field, one line per strategy, error bars over the 95% interval; one chart per
    value of the other fields) to <dir>, whole or not at all. One line per point on
    stderr as it finishes (not with --quiet).

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim sweep scenarios/two-states.json --set 'strategies[1].repeatMaxCount=0..10'
      pushsim sweep scenarios/two-states.json --set connectivity.offline.mean=15m,30m,1h,2h,4h
      pushsim sweep scenarios/two-states.json --set 'strategies[1].repeatMaxCount=0,2,5' \\
                    --set connectivity.offline.mean=30m,2h --out /tmp/grid

    """

    /// The options `sweep` takes: the run options but `--baseline` (the points are not
    /// compared to a strategy) and `--shard` (a sweep is not merged), and the output options.
    package static let options = [Run.set.spec, Run.out.spec, Run.seed.spec, Run.strategy.spec, Run.threads.spec,
                                  Run.allowLarge.spec] + OutputOptions.all

    /// `sweep`'s USAGE line: a first `--set` is needed (it is the sweep).
    package static let usageHelp = UsageHelp(
        "sweep", [.text("<scenario.json | ->"), .required(Run.set.spec.explained(placeholder: "<path>=<v1>,<v2>,...")),
                  .optional(Run.set.spec.explained(placeholder: "<path>=..."))],
        [.optional(Run.out.spec), .optional(Run.seed.spec), .optional(Run.strategy.spec), .optional(Run.threads.spec)],
        [.optional(OutputOptions.format.spec), .optional(OutputOptions.quiet.spec), .optional(Run.allowLarge.spec)])

    /// `sweep`'s OPTIONS section: the run options as a sweep reads them.
    package static let optionsHelp = OptionsHelp([
        .option(Run.set.spec.explained(placeholder: "<path>=<values>",
                                       "A field and its values (comma-separated, or A..B); repeat for a grid")),
        .option(Run.out.spec.explained("Output folder (default: reports/<scenario name>-sweep/)")),
        .option(Run.seed.spec.explained("Override the scenario's seed (0 … 2^63-1), for every point")),
        .option(Run.strategy.spec),
        .option(Run.threads.spec.explained("Worker threads (default: the CPUs this process may use)")),
        .option(OutputOptions.format.spec.explained("table (default) or json: every point's rates with standard",
                                                   "errors, for scripts")),
        .option(OutputOptions.quiet.spec.explained("Print nothing on stdout and no line on stderr; only errors")),
        .option(Run.allowLarge.spec.explained("Run points whose cost estimate passes a limit, as for 'run'")),
        .showHelp,
    ])

    private typealias Run = RunCommand.Options

    /// Runs the command; `simulate` as for `RunCommand.main`. `reusing` false simulates
    /// every strategy at every point (`SweepPlan`), for the tests that hold reuse to the
    /// same bytes.
    package static func main(_ arguments: ArraySlice<String>, console: Console,
                     simulate: RunCommand.Simulate = RunCommand.simulation,
                     reusing: Bool = true) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        do throws(CommandStop) {
            let options = try readOptions(arguments, console: console)
            let file = FileBytes.displayName(options.scenarioPath)
            var (grid, bytes, scenarios) = try decodePoints(options, file: file, console: console)
            grid.name(strategyLabels: strategyLabels(scenarios))
            do {
                for index in scenarios.indices { scenarios[index] = try choose(options.strategies, in: scenarios[index]) }
            } catch {
                return PushSimCommand.usage(error, command: "sweep", console: console)
            }

            // A strategy the swept fields leave as it was, under the same rest of the scenario,
            // is simulated once and its aggregate reused (`SweepPlan`): each point's run, and
            // its cost, is only what it simulates itself.
            let plan = SweepPlan(scenarios, reusing: reusing)
            let runs = scenarios.indices.map { plan.scenarioToSimulate(scenarios[$0], point: $0) }
            try checkCost(runs, options: options, file: file, console: console)
            let directory = options.out ?? "reports/\(scenarios[0].name)-sweep"
            do {
                try ReportWriter.checkWritable(directory, for: SweepReport.fileNames)
            } catch {
                console.err("error: \(error)\n")
                return .failure
            }
            if !options.output.quiet { console.err(planLine(plan, runs: runs, scenarios: scenarios)) }
            let points = try simulatePoints(grid, scenarios: scenarios, runs: runs, plan: plan, options: options, console: console,
                                            simulate: simulate)
            let report = SweepReport(grid: grid, points: points, commandLine: RunOutput.commandLine(["sweep"] + arguments))
            return write(report, scenarioBytes: bytes, to: directory, options: options, console: console)
        } catch {
            return error.code
        }
    }

    /// `run`'s options, read from the same scanner as sweep's own (one meaning for each),
    /// with at least one `--set`.
    private static func readOptions(_ arguments: ArraySlice<String>, console: Console) throws(CommandStop) -> RunCommand.Options {
        do throws(UsageError) {
            let scanner = try ArgumentScanner(arguments, command: "sweep", options: Self.options)
            let options = try RunCommand.Options(scanner)
            if options.sets.isEmpty { throw UsageError.missingArgument("--set <path>=<v1>,<v2>,…: the field to sweep") }
            return options
        } catch {
            throw CommandStop(code: PushSimCommand.usage(error, command: "sweep", console: console))
        }
    }

    /// The grid the `--set`s span, the file's bytes, and the scenario at every point: each
    /// decoded (and so checked) before the first runs.
    private static func decodePoints(_ options: RunCommand.Options, file: String, console: Console) throws(CommandStop)
        -> (grid: SweepGrid, bytes: [UInt8], scenarios: [Scenario]) {
        do {
            let bytes = try ScenarioDecoder.readBytes(path: options.scenarioPath, standardInput: console.input)
            var axes: [SweepAxis] = []
            for text in options.sets { axes.append(try SweepAxis(text)) }
            let grid = SweepGrid(axes)
            guard grid.count <= SweepAxis.maxPoints else {
                throw ScenarioError(.invalidValue("the grid has \(grid.count) points, more than \(SweepAxis.maxPoints)"),
                                    file: "--set", path: "", location: nil)
            }
            var scenarios: [Scenario] = []
            for point in grid.points {
                var scenario = try ScenarioDecoder.decode(bytes, file: file, overrides: grid.overrides(point))
                if let seed = options.seed { scenario.seed = seed }
                scenarios.append(scenario)
            }
            return (grid, bytes, scenarios)
        } catch {
            console.err("error: \(error)\n")
            throw CommandStop(code: .dataError)
        }
    }

    /// A `strategies[i]` path names the file's i-th strategy: by its label, where every
    /// point agrees on it, else by its number.
    private static func strategyLabels(_ scenarios: [Scenario]) -> [String] {
        scenarios[0].strategies.indices.map { index in
            scenarios.allSatisfy { index < $0.strategies.count && $0.strategies[index].label == scenarios[0].strategies[index].label }
                ? scenarios[0].strategies[index].label : "\(index + 1)"
        }
    }

    /// Each point is a run: past a cost limit it needs --allow-large, checked before any runs.
    private static func checkCost(_ runs: [Scenario?], options: RunCommand.Options, file: String,
                                  console: Console) throws(CommandStop) {
        for (number, run) in runs.enumerated() where !options.allowLarge {
            if let run, let passed = RunCost(run, threads: options.threads).limitPassed {
                console.err("error: \(UserText.path(file)): point \(number + 1) of the sweep is too large: \(passed) "
                            + "(docs/scenarios.md, \"Limits\"); pass --allow-large to run it anyway\n")
                throw CommandStop(code: .dataError)
            }
        }
    }

    /// Every point's result, simulating what `runs` holds for it and reusing the rest
    /// (`plan`), each point's line on stderr as it finishes.
    private static func simulatePoints(_ grid: SweepGrid, scenarios: [Scenario], runs: [Scenario?], plan: SweepPlan,
                                       options: RunCommand.Options, console: Console,
                                       simulate: RunCommand.Simulate) throws(CommandStop) -> [SweepReport.Point] {
        var points: [SweepReport.Point] = []
        var simulated: [SimulationResult?] = []
        for (number, (indices, scenario)) in zip(grid.points, scenarios).enumerated() {
            let started = ContinuousClock.now
            if let run = runs[number] {
                let progress = options.output.quiet ? nil : ProgressReporter(total: run.devices, console: console)
                do {
                    var onProgress: (@Sendable (Int) -> Void)?
                    if let progress { onProgress = { progress.update(done: $0) } }
                    simulated.append(try simulate(run, 0..<run.devices, options.threads, [], onProgress).result)
                } catch let error as SendLogError {
                    // The scenario's send log, read when the first point needs it: a data error.
                    progress?.finish()
                    console.err("error: \(error)\n")
                    throw CommandStop(code: .dataError)
                } catch {
                    progress?.finish()
                    console.err("error: the accounting identity broke at point \(number + 1), nothing written: \(error)\n")
                    throw CommandStop(code: .failure)
                }
                progress?.finish()
            } else {
                simulated.append(nil)
            }
            let result = plan.result(number, strategies: scenario.strategies, results: simulated)
            points.append(SweepReport.Point(indices: indices, scenario: scenario, result: result))
            if !options.output.quiet {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                let values = zip(grid.axes, indices).map { UserText.escape($0.path + "=" + $0.texts[$1]) }.joined(separator: " ")
                console.err("point \(number + 1)/\(grid.count): \(values) (\(DecimalText.fixed(seconds, digits: 1)) s)\n")
            }
        }
        return points
    }

    /// The table or JSON on stdout first, as `run`: when it fails the folder is left as it
    /// was. Then the report's files.
    private static func write(_ report: SweepReport, scenarioBytes bytes: [UInt8], to directory: String,
                              options: RunCommand.Options, console: Console) -> ExitCode {
        if !options.output.quiet {
            switch options.output.format {
            case .table: console.out(table(report))
            case .json: console.out(json(report, scenarioBytes: bytes))
            }
        }
        do {
            try ReportWriter.write(report.files, to: directory, whileWaiting: options.output.waitingNote(console))
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        if !options.output.quiet { console.err("wrote \(Reports.listing(SweepReport.fileNames)) to \(UserText.path(directory))\n") }
        return .success
    }

    /// `scenario` with only the strategies labelled `labels` (all when empty), in the
    /// order given; an unknown label is a usage error.
    /// - Complexity: O(labels × strategies).
    package static func choose(_ labels: [String], in scenario: Scenario) throws(UsageError) -> Scenario {
        guard !labels.isEmpty else { return scenario }
        var chosen: [Strategy] = []
        for label in labels {
            guard let strategy = scenario.strategies.first(where: { $0.label == label }) else {
                throw .unknownStrategy(label, known: scenario.strategies.map(\.label))
            }
            if !chosen.contains(strategy) { chosen.append(strategy) }
        }
        var copy = scenario
        copy.strategies = chosen
        return copy
    }

    /// The headline rates, one row per point and strategy, as `sweep.csv` writes them,
    /// each with ± its standard error (`sweep.csv`'s `<rate>_se`) where it is known, "–"
    /// where the rate has nothing to divide by; a last line says what ± is.
    /// - Complexity: O(points × strategies).
    package static func table(_ report: SweepReport) -> String {
        let header = report.grid.axes.map(\.path) + ["strategy"] + SweepReport.chartedMetrics.map(\.name)
        var rows: [[String]] = []
        for point in report.points {
            let values = zip(report.grid.axes, point.indices).map { $0.texts[$1] }
            for (index, strategy) in point.result.strategies.enumerated() {
                rows.append(values + [strategy.label] + SweepReport.chartedMetrics.map { metric in
                    let rate = SweepReport.rate(metric, point.result, strategy: index)
                    guard !rate.isEmpty else { return "–" }
                    let error = SweepReport.standardError(point.result.estimate(metric, strategy: index))
                    return error.isEmpty ? rate : rate + " ± " + error
                })
            }
        }
        return TextColumns.lines([header] + rows) + "(± standard error)\n"
    }

    /// The stderr line before the first point: the points, the strategy runs they take (the
    /// strategies every point leaves unchanged run once) and the messages they simulate;
    /// `command` starts it (`sweep`, `fit`).
    /// - Complexity: O(points × strategies).
    package static func planLine(_ plan: SweepPlan, runs: [Scenario?], scenarios: [Scenario], command: String = "sweep") -> String {
        let messages = runs.compactMap { $0 }.reduce(0.0) { $0 + $1.expectedMessages }
        var line = "\(command): \(scenarios.count) point\(scenarios.count == 1 ? "" : "s"), \(plan.runs) strategy run"
            + (plan.runs == 1 ? "" : "s")
        if plan.runs < plan.runsWithoutReuse {
            // The strategies no point after the first simulates: unchanged by every swept value.
            let once = scenarios[0].strategies.indices.filter { index in
                plan.sources.allSatisfy { $0.indices.contains(index) && $0[index] == SweepPlan.Run(point: 0, strategy: index) }
            }.map { scenarios[0].strategies[$0].label }
            line += " instead of \(plan.runsWithoutReuse)"
            if !once.isEmpty && once.count < scenarios[0].strategies.count {
                line += " (" + Coincidence.list(once) + (once.count == 1 ? " is" : " are") + " the same at every point: run once)"
            } else {
                line += " (strategies a point leaves as an earlier point had them are not run again)"
            }
        }
        return line + ", about \(RunCost.count(messages)) messages\n"
    }

    /// One JSON object: the scenario, its hash, the swept paths, and each point's values
    /// and every strategy's rates with standard errors and 95% intervals.
    /// - Complexity: O(points × strategies × metrics).
    package static func json(_ report: SweepReport, scenarioBytes: [UInt8]) -> String {
        let points = report.points.map { point in
            JSONText.object([
                ("set", JSONText.object(zip(report.grid.axes, point.indices).map { ($0.path, JSONText.string($0.texts[$1])) })),
                ("seed", String(point.scenario.seed)),
                ("strategies", JSONText.array(point.result.strategies.indices.map { index in
                    JSONText.object([
                        ("label", JSONText.string(point.result.strategies[index].label)),
                        ("rates", JSONText.object(Metric.allCases.map { metric in
                            (metric.name, JSONText.estimate(point.result.estimate(metric, strategy: index), confidence: 0.95))
                        })),
                    ])
                })),
            ])
        }
        return JSONText.object([
            ("pushsim", JSONText.string(PushSimCommand.version)),
            ("scenario", JSONText.string(report.points.first?.scenario.name ?? "")),
            ("sha256", JSONText.string(SHA256.hex(scenarioBytes))),
            ("paths", JSONText.array(report.grid.axes.map { JSONText.string($0.path) })),
            ("points", JSONText.array(points)),
        ]) + "\n"
    }
}
