import Base
import FoundationEssentials
import Reports
import ScenarioFormat
import Simulator
import Studies

/// `pushsim fit SCENARIO MEASURED.csv --vary PATH=LOW..HIGH …`: the scenario's fields that
/// make its simulated measurement match a team's measured figures, with intervals, and
/// what the strategies' true deliverability is under them (docs/fit.md).
package enum FitCommand {
    package static let help = """
    OVERVIEW: Fit a scenario's fields to a team's measured figures; predict true deliverability.

    """ + "\n" + usageHelp.text + """

    MEASURED.csv holds daily counts of one app (docs/fit.md, "The measured file";
    'pushsim schema measured' prints its table schema): date, time_zone, and the two
    columns of at least one figure the fit matches (numerator/denominator):
    """ + "\n  " + FitStatistic.columnPairs + ".\n" + """
    Each --vary names a field and the range its value lies in (numbers, or durations
    such as 10m..2h); 1 to 3 fields. The fit simulates a grid of points over the
    ranges (the measured days as the period, each point with the same seed: common
    random numbers), matches the measured strategy's simulated measurement (the talk's
    method, with its biases) to the figures day by day, and reads each field's value
    and 95% interval from the posterior. It predicts every strategy's true
    deliverability and its gain over the measured one, with intervals carrying the
    fields' uncertainty and the simulation's. Each --guess names a field the fit does
    not vary and its plausible (~95%) range: it is run at both ends at the fitted
    values, its effect listed (the largest first) and added to the intervals. It
    refuses (exit 65, one line) what the figures cannot fix: fewer than 7 days, two
    fields that trade off, a field they do not move, a range that cannot reach them.

    Writes fit-parameters.csv, fit-days.csv, fit-prediction.csv, fitted.json (the
    scenario at the fitted values) and fit.html to <dir>, whole or not at all. One line
    per point on stderr as it finishes (not with --quiet).

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim fit scenarios/mail-january-february.json examples/measured/mail-january-february.csv \\
          --vary connectivity.offline.mean=10m..1h --vary device.launches.perDay=1..8 --set devices=400
      pushsim measure scenarios/two-states.json --out /tmp/measured.csv
      pushsim fit scenarios/two-states.json /tmp/measured.csv --vary connectivity.offline.mean=10m..2h

    """

    /// `--vary`: a field and its range; the fit's own.
    package static let vary = Option<String>(
        "--vary", "<path>=<low>..<high>", repeatable: true, .text,
        help: "A field and the range its value lies in (numbers, or durations like",
        "10m..2h); repeat for 2 or 3 fields")
    /// `--guess`: a field the team is unsure of but does not fit; its effect widens the intervals.
    package static let guess = Option<String>(
        "--guess", "<path>=<low>..<high>", repeatable: true, .text,
        help: "A field not fitted and its plausible (~95%) range: its effect on the",
        "prediction is run, listed and added to the intervals; repeatable")
    /// `--measured-strategy`: the strategy whose measurement the file is.
    package static let measuredStrategy = Option<String>(
        "--measured-strategy", "<label>", .text,
        help: "The strategy the measured figures come from (default: the first);",
        "the others are predicted")
    /// `--grid`: points per varied field.
    package static let grid = Option<Int>(
        "--grid", "<n>", .integer(in: 5...21),
        help: "Points per varied field (default 7 for one or two fields, 5 for", "three); more is slower and closer")

    private typealias Run = RunCommand.Options

    /// The options `fit` takes.
    package static let options = [vary.spec, guess.spec, measuredStrategy.spec, grid.spec, Run.set.spec, Run.out.spec, Run.seed.spec,
                                  Run.threads.spec, Run.allowLarge.spec] + OutputOptions.all

    package static let usageHelp = UsageHelp(
        "fit", [.text("<scenario.json> <measured.csv>"), .required(vary.spec), .optional(vary.spec)],
        [.optional(guess.spec), .optional(measuredStrategy.spec), .optional(grid.spec), .optional(Run.set.spec), .optional(Run.out.spec)],
        [.optional(Run.seed.spec), .optional(Run.threads.spec), .optional(OutputOptions.format.spec), .optional(OutputOptions.quiet.spec),
         .optional(Run.allowLarge.spec)])

    package static let optionsHelp = OptionsHelp([
        .option(vary.spec), .option(guess.spec), .option(measuredStrategy.spec), .option(grid.spec),
        .option(Run.set.spec.explained("Change a scenario field for every point (as for 'run')")),
        .option(Run.out.spec.explained("Output folder (default: reports/<scenario name>-fit/)")),
        .option(Run.seed.spec.explained("Override the scenario's seed (0 … 2^63-1), for every point")),
        .option(Run.threads.spec.explained("Worker threads (default: the CPUs this process may use)")),
        .option(OutputOptions.format.spec.explained("table (default) or json: the fields, goodness of fit, outlier days",
                                                    "and prediction as one object (docs/fit.md, \"JSON output\")")),
        .option(OutputOptions.quiet.spec.explained("Print nothing on stdout and no line on stderr; only errors")),
        .option(Run.allowLarge.spec.explained("Run points whose cost estimate passes a limit, as for 'run'")),
        .showHelp,
    ])

    /// Runs the command; `simulate` as for `RunCommand.main`.
    package static func main(_ arguments: ArraySlice<String>, console: Console,
                             simulate: RunCommand.Simulate = RunCommand.simulation) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        let paths: [String]
        let varies: [String], guesses: [String], sets: [String], out: String?, seed: UInt64?, threads: Int, allowLarge: Bool, output: OutputOptions
        let measuredLabel: String?, nodes: Int?
        do {
            scanner = try ArgumentScanner(arguments, command: "fit", options: Self.options)
            // The options' values first, as every command reads them (a bad value is the error
            // whatever else is missing), then the arguments.
            varies = try scanner.values(Self.vary)
            guesses = try scanner.values(Self.guess)
            measuredLabel = try scanner.value(Self.measuredStrategy)
            nodes = try scanner.value(Self.grid)
            sets = try scanner.values(Run.set)
            out = try scanner.value(Run.out)
            seed = try scanner.value(Run.seed)
            threads = try scanner.value(Run.threads) ?? CPUAllowance.available()
            allowLarge = scanner.flag(Run.allowLarge)
            output = try OutputOptions(scanner)
            paths = try scanner.positionals("the scenario file", "the measured figures (a CSV file; docs/fit.md)")
            if varies.isEmpty { throw UsageError.missingArgument("--vary <path>=<low>..<high>: a field to fit") }
        } catch let error as UsageError {
            return PushSimCommand.usage(error, command: "fit", console: console)
        } catch {
            return .failure
        }
        if paths[0] == "-" && paths[1] == "-" {
            return PushSimCommand.usage(.invalidValue(option: "<measured.csv>", value: "-", expected: "a file: the scenario is read from standard input"),
                                        command: "fit", console: console)
        }

        // Everything is read and every point decoded before the first runs.
        let study: FitStudy
        let design: FitStudy.Design
        do {
            let bytes = try ScenarioDecoder.readBytes(path: paths[0], standardInput: console.input)
            let series = try MeasuredSeries.read(path: paths[1], standardInput: console.input)
            var ranges: [FitRange] = []
            for text in varies { ranges.append(try FitRange(text)) }
            var guessed: [FitRange] = []
            for text in guesses { guessed.append(try FitRange(text, option: "--guess")) }
            var overrides: [ScenarioOverride] = []
            for text in sets { overrides.append(try ScenarioOverride(text)) }
            study = FitStudy(scenarioBytes: bytes, file: FileBytes.displayName(paths[0]), series: series, ranges: ranges,
                             sets: overrides, seed: seed, measuredLabel: measuredLabel, nodesPerAxis: nodes,
                             guesses: guessed)
            design = try study.design()
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        let labels = design.scenarios[0].strategies.map(\.label)
        if let measuredLabel, !labels.contains(measuredLabel) {
            return PushSimCommand.usage(.unknownStrategy(measuredLabel, known: labels), command: "fit", console: console)
        }
        if !allowLarge {
            for (number, scenario) in design.scenarios.enumerated() {
                if let passed = RunCost(scenario, threads: threads).limitPassed {
                    console.err("error: \(UserText.path(study.file)): point \(number + 1) of the fit is too large: \(passed) "
                                + "(docs/scenarios.md, \"Limits\"); pass --allow-large to run it anyway\n")
                    return .dataError
                }
            }
        }
        let quiet = output.quiet
        let directory = out ?? "reports/\(design.scenarios[0].name)-fit"
        do {
            try ReportWriter.checkWritable(directory, for: FitReport.fileNames)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        let plan = SweepPlan(design.scenarios)
        let runs = design.scenarios.indices.map { plan.scenarioToSimulate(design.scenarios[$0], point: $0) }
        if !quiet { console.err(SweepCommand.planLine(plan, runs: runs, scenarios: design.scenarios, command: "fit")) }
        let nodesOut: [FitNode]
        do {
            nodesOut = try FitStudy.nodes(design, simulate: { try simulate($0, 0..<$0.devices, threads, [], nil).result }) { number, seconds in
                if quiet { return }
                let values = design.overrides[number].map { UserText.escape($0.path + "=" + $0.valueText) }.joined(separator: " ")
                console.err("point \(number + 1)/\(design.scenarios.count): \(values) (\(DecimalText.fixed(seconds, digits: 1)) s)\n")
            }
        } catch {
            return RunCommand.simulationFailed(error, console: console)
        }
        let posterior = FitPosterior(entries: design.entries, nodes: nodesOut, axes: study.ranges.count, nodesPerAxis: study.nodesPerAxis)
        if let refusal = FitStudy.refusal(posterior) {
            console.err("error: \(UserText.path(study.series.file)): \(study.message(refusal, posterior, entries: design.entries))\n")
            return .dataError
        }
        guard let guessed = runGuesses(study, design: design, posterior: posterior, quiet: quiet, console: console, large: allowLarge ? nil : threads,
                                       simulate: { try simulate($0, 0..<$0.devices, threads, [], nil).result }) else { return .dataError }
        let report = FitReport(study: study, design: design, posterior: posterior, labels: design.scenarios[0].strategies.map(\.label),
                               commandLine: RunOutput.commandLine(["fit"] + arguments), guesses: guessed)
        return publish(report, to: directory, output: output, console: console)
    }

    /// Runs each `--guess` at its LOW and HIGH with the varied fields at their estimates (the
    /// design checked these decode), one stderr line each; the guesses, the largest effect first;
    /// nil, its error printed, when a run fails or (`large`: the threads, unless `--allow-large`) passes a cost limit.
    private static func runGuesses(_ study: FitStudy, design: FitStudy.Design, posterior: FitPosterior, quiet: Bool, console: Console,
                                   large threads: Int?, simulate: (Scenario) throws -> SimulationResult) -> [FitGuess]? {
        guard !study.guesses.isEmpty else { return [] }
        var results: [SimulationResult] = []
        let scenarios: [Scenario]
        do {
            scenarios = try FitGuess.scenarios(study, period: design.period, estimates: study.estimates(posterior))
        } catch {
            console.err("error: \(error)\n")
            return nil
        }
        for (number, scenario) in scenarios.enumerated() {
            if let threads, let passed = RunCost(scenario, threads: threads).limitPassed {
                console.err("error: --guess \(UserText.escape(study.guesses[number / 2].argument)): its run is too large: \(passed) "
                            + "(docs/scenarios.md, \"Limits\"); pass --allow-large to run it anyway\n")
                return nil
            }
        }
        for (number, scenario) in scenarios.enumerated() {
            let started = ContinuousClock.now
            do {
                results.append(try simulate(scenario))
            } catch {
                console.err("error: the accounting identity broke, nothing written: \(error)\n")
                return nil
            }
            if quiet { continue }
            let guess = study.guesses[number / 2], elapsed = ContinuousClock.now - started
            console.err("guess \(number / 2 + 1)/\(study.guesses.count) at \(number % 2 == 0 ? "low" : "high"): "
                        + UserText.escape(guess.path + "=" + guess.text(number % 2 == 0 ? guess.low : guess.high))
                        + " (\(DecimalText.fixed(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, digits: 1)) s)\n")
        }
        return FitGuess.effects(study.guesses, results: results, measured: design.measured)
    }

    /// Prints the answer (table or JSON, unless quiet) and writes the files to `directory`.
    private static func publish(_ report: FitReport, to directory: String, output: OutputOptions, console: Console) -> ExitCode {
        if !output.quiet {
            switch output.format {
            case .table: console.out(report.table())
            case .json: console.out(report.json())
            }
        }
        do {
            try ReportWriter.write(report.files, to: directory, whileWaiting: output.waitingNote(console))
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        if !output.quiet { console.err("wrote \(Reports.listing(FitReport.fileNames)) to \(UserText.path(directory))\n") }
        return .success
    }
}
