import Base
import Reports
import ScenarioFormat
import Simulator
import Studies

/// `pushsim measure SCENARIO`: what a team's measurement (the talk's method) would give
/// under a scenario, day by day, as `pushsim fit`'s measured file: for trying `fit`, and
/// for testing it on figures whose truth is known.
package enum MeasureCommand {
    package static let help = """
    OVERVIEW: Write the figures the talk's measurement would give under a scenario, as 'fit' reads them.

    """ + "\n" + usageHelp.text + """

    Runs the scenario and writes, for one strategy, the measured file of 'pushsim fit'
    (docs/fit.md, "The measured file"): per day, date, time_zone (UTC: the scenario's
    days) and every count column:
    """ + "\n  " + MeasuredColumn.allCases.filter(\.isCount).map(\.name).joined(separator: ", ") + ".\n" + """
    Days whose measurement the run's end cuts short (the last: its next day is not
    simulated) are left out. Writes to standard output, or to --out (whole or not at
    all). To try fit on figures whose truth you know, measure with another --seed than
    the fit's: with the same seed the two share their random numbers.

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim measure scenarios/two-states.json --set devices=500 --out measured.csv
      pushsim measure scenarios/mail-january-february.json --measured-strategy no-queue \\
          --set connectivity.offline.mean=35m --seed 7

    """

    private typealias Run = RunCommand.Options

    /// `--out`: a file, not a folder.
    package static let out = Option<String>("--out", "<file>", .nonEmpty("a file"), help: "Write to this file (default: standard output)")

    package static let options = [FitCommand.measuredStrategy.spec, Run.set.spec, out.spec, Run.seed.spec, Run.threads.spec,
                                  Run.allowLarge.spec]

    package static let usageHelp = UsageHelp(
        "measure", [.text("<scenario.json | ->")],
        [.optional(FitCommand.measuredStrategy.spec), .optional(Run.set.spec), .optional(out.spec)],
        [.optional(Run.seed.spec), .optional(Run.threads.spec), .optional(Run.allowLarge.spec)])

    package static let optionsHelp = OptionsHelp([
        .option(FitCommand.measuredStrategy.spec.explained("The strategy measured (default: the first)")),
        .option(Run.set.spec.explained("Change a scenario field (as for 'run')")),
        .option(out.spec),
        .option(Run.seed.spec),
        .option(Run.threads.spec.explained("Worker threads (default: the CPUs this process may use)")),
        .option(Run.allowLarge.spec.explained("Run even when the cost estimate passes a limit, as for 'run'")),
        .showHelp,
    ])

    package static func main(_ arguments: ArraySlice<String>, console: Console,
                             simulate: RunCommand.Simulate = RunCommand.simulation) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        let path: String, label: String?, sets: [String], outPath: String?, seed: UInt64?, threads: Int, allowLarge: Bool
        do {
            scanner = try ArgumentScanner(arguments, command: "measure", options: Self.options)
            path = try scanner.positionals("the scenario file")[0]
            label = try scanner.value(FitCommand.measuredStrategy)
            sets = try scanner.values(Run.set)
            outPath = try scanner.value(Self.out)
            seed = try scanner.value(Run.seed)
            threads = try scanner.value(Run.threads) ?? CPUAllowance.available()
            allowLarge = scanner.flag(Run.allowLarge)
        } catch {
            return PushSimCommand.usage(error, command: "measure", console: console)
        }
        var scenario: Scenario
        do {
            var overrides: [ScenarioOverride] = []
            for text in sets { overrides.append(try ScenarioOverride(text)) }
            scenario = try ScenarioDecoder.loadKeepingBytes(path: path, standardInput: console.input, overrides: overrides).scenario
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        if let seed { scenario.seed = seed }
        let labels = scenario.strategies.map(\.label)
        let index: Int
        if let label {
            guard let found = labels.firstIndex(of: label) else {
                return PushSimCommand.usage(.unknownStrategy(label, known: labels), command: "measure", console: console)
            }
            index = found
        } else {
            index = 0
        }
        scenario.strategies = [scenario.strategies[index]]
        if !allowLarge, let passed = RunCost(scenario, threads: threads).limitPassed {
            console.err("error: \(UserText.path(FileBytes.displayName(path))): the run is too large: \(passed) "
                        + "(docs/scenarios.md, \"Limits\"); pass --allow-large to run it anyway\n")
            return .dataError
        }
        let result: SimulationResult
        do {
            result = try simulate(scenario, 0..<scenario.devices, threads, [], nil).result
        } catch {
            return RunCommand.simulationFailed(error, console: console)
        }
        let series = Self.series(scenario, result)
        guard !series.days.isEmpty else {
            console.err("error: \(UserText.path(FileBytes.displayName(path))): no day's measurement ends within the run "
                        + "(a day's uploads count until the end of the next): simulate at least 2 days\n")
            return .dataError
        }
        if let outPath {
            guard let file = CheckCommand.split(outPath) else {
                return PushSimCommand.usage(.invalidValue(option: "--out", value: outPath, expected: "a file"), command: "measure", console: console)
            }
            do {
                try ReportWriter.write([(file.name, series.csv())], to: file.directory)
            } catch {
                console.err("error: \(error)\n")
                return .failure
            }
        } else {
            console.out(series.csv())
        }
        return .success
    }

    /// The measured file of strategy 0 of `result`: every day whose measurement window
    /// ends within the run.
    /// - Complexity: O(days).
    package static func series(_ scenario: Scenario, _ result: SimulationResult) -> MeasuredSeries {
        let aggregate = result.aggregates[0]
        let columns = MeasuredColumn.allCases.filter { $0.simulatedCount != nil }
        let days = aggregate.daily.indices.filter { !scenario.measurementTruncated(day: $0) }.map { day in
            MeasuredSeries.Day(date: scenario.start.adding(days: day), counts: Dictionary(uniqueKeysWithValues: columns.map { column in
                (column, aggregate.daily[day][DayCounter(column.simulatedCount!)!])
            }))
        }
        return MeasuredSeries(file: "", timeZone: "UTC", columns: columns, days: days)
    }
}
