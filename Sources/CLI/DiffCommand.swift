import Base
import FoundationEssentials
import Reports
import Simulator
import Studies

/// `pushsim diff OLD_DIR NEW_DIR [--confidence C] [--force]`: each strategy's rates in
/// two report folders, and whether they moved more than sampling noise explains.
package enum DiffCommand {
    package static let help = """
    OVERVIEW: Compare the rates of two report folders, beyond sampling noise.

    """ + "\n" + usageHelp.text + """

    For each strategy in both folders and each rate in both summary.csv files: the old
    and new value, new − old with the unpaired standard error √(se_old² + se_new²) of two
    independent runs, its two-sided p-value (Student t, Welch's degrees of freedom), and
    the p-value adjusted by Holm's method for all the rates tested at once: a rate moved
    beyond noise when its adjusted p-value is at most 1 − confidence, so two runs of one
    scenario report a change with probability at most 1 − confidence. Reads each
    folder's run.json and summary.csv (with its <rate>_se columns; a folder without them
    is from an older pushsim: its changes are shown, not judged). Refuses folders of
    different scenario texts (run.json's hash) or of different --set overrides.

    """ + "\n" + optionsHelp.text + """

    EXIT CODES: 0 no rate moved beyond noise, 2 one or more did, 64 bad arguments,
    65 a folder cannot be read or the folders ran different scenarios (without --force).

    EXAMPLES:
      pushsim diff reports/main reports/branch
      pushsim diff old new --confidence 0.99 --format json

    """

    /// `--confidence <c>`: plain decimal digits, above 0 and at most the scenario field's
    /// bound (`Expectation.maximumConfidence`), whose quantile is finite.
    package static let confidence = Option<Double>(
        "--confidence", "<c>",
        ValueReader(expected: "a number " + Expectation.confidenceRangeText + ", e.g. 0.95") { text in
            guard text.allSatisfy({ "0123456789.".contains($0) }), let value = Double(text), value > 0,
                  value <= Expectation.maximumConfidence else { return nil }
            return value
        },
        help: "1 − the chance of any false alarm over all rates, above 0 and at most " + format(Expectation.maximumConfidence)
            + "; also the intervals' (default: 0.95)")
    /// `--force`: compare what would otherwise be refused.
    package static let force = Flag("--force", help: "Compare folders of different scenarios, or without run.json")

    /// The options `diff` takes.
    package static let options = [confidence.spec, force.spec] + OutputOptions.all

    /// `diff`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "diff", [.text("<old-dir> <new-dir>"), .optional(confidence.spec), .optional(force.spec),
                 .optional(OutputOptions.format.spec), .optional(OutputOptions.quiet.spec)])

    /// `diff`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp([
        .option(confidence.spec), .option(force.spec), .option(OutputOptions.format.spec), .option(OutputOptions.quiet.spec),
        .showHelp,
    ])

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        let output: OutputOptions
        var confidence = 0.95
        do {
            scanner = try ArgumentScanner(arguments, command: "diff", options: Self.options)
            output = try OutputOptions(scanner)
            if scanner.positional.count < 2 { throw UsageError.missingArgument(scanner.positional.isEmpty ? "the old and new report folders" : "the new report folder") }
            if scanner.positional.count > 2 { throw UsageError.unexpectedArgument(scanner.positional[2]) }
            if let value = try scanner.value(Self.confidence) { confidence = value }
        } catch let error as UsageError {
            return PushSimCommand.usage(error, command: "diff", console: console)
        } catch {
            return .failure
        }
        let force = scanner.flag(Self.force)
        let folders: [ReportFolder]
        do {
            folders = try scanner.positional.map { path throws(ReportFolder.Failure) in try ReportFolder(path: path) }
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        let comparison = FolderComparison(old: folders[0], new: folders[1], confidence: confidence)
        if !force {
            for folder in folders where folder.record == nil {
                console.err("error: \(UserText.path(folder.path)): no \(RunRecord.fileName): a report folder from a pushsim before 0.7.0, "
                            + "which does not say what scenario it ran ('--force' compares anyway)\n")
                return .dataError
            }
            if comparison.sameScenario == false, let old = folders[0].record, let new = folders[1].record,
               old.scenarioSHA256 == new.scenarioSHA256 {
                // The overrides come from a file: each escaped and cut, the list cut too.
                func listing(_ record: RunRecord) -> String {
                    record.overrides.isEmpty ? "none" : UserText.list(record.overrides.map { "--set " + $0 }, separator: " ")
                }
                console.err("error: the folders ran the scenario with different overrides: \(UserText.path(folders[0].path)) with "
                            + "\(listing(old)), \(UserText.path(folders[1].path)) with \(listing(new)) ('--force' compares anyway)\n")
                return .dataError
            }
            if comparison.sameScenario == false, let old = folders[0].record, let new = folders[1].record {
                console.err("error: the folders ran different scenarios: \(UserText.path(folders[0].path)) ran \(UserText.escape(old.scenarioName)) "
                            + "(sha256 \(old.scenarioSHA256.prefix(12))…), \(UserText.path(folders[1].path)) ran \(UserText.escape(new.scenarioName)) "
                            + "(sha256 \(new.scenarioSHA256.prefix(12))…) ('--force' compares anyway)\n")
                return .dataError
            }
        }
        if !output.quiet {
            for folder in folders where !folder.hasStandardErrors {
                console.err("note: \(UserText.path(ReportWriter.join(folder.path, ReportFolder.summaryFileName))) has no standard errors (a folder from "
                            + "an older pushsim): its changes are shown, not judged against noise\n")
            }
            for (label, side) in [(comparison.onlyOld, "old"), (comparison.onlyNew, "new")].flatMap({ pair in pair.0.map { ($0, pair.1) } }) {
                console.err("note: strategy \(UserText.escape(label)) is only in the \(side) folder\n")
            }
            switch output.format {
            case .table: console.out(Self.table(comparison))
            case .json: console.out(MachineOutput.diff(comparison))
            }
        }
        return comparison.changed ? .failedCheck : .success
    }

    /// One line per strategy and rate, then how many moved beyond noise.
    /// - Complexity: O(strategies × metrics).
    package static func table(_ comparison: FolderComparison) -> String {
        func signed(_ value: Double) -> String { value > 0 ? "+" + Verdict.number(value) : Verdict.number(value) }
        let header = ["strategy", "rate", "old", "new", "new − old", "± se", "p (Holm)", "verdict"]
        var rows: [[String]] = []
        var unmoved = 0
        for row in comparison.rows {
            for (metric, change) in row.changes {
                // A loss share that is 0 in both runs says nothing: counted below, kept in the JSON.
                if case .lostShare = metric, change.old.value == 0, change.new.value == 0 { unmoved += 1; continue }
                let verdict = switch change.beyondNoise {
                case true?: "CHANGED"
                case false?: "noise"
                case nil: "unknown (no standard error)"
                }
                // A label read from a file heads a terminal line: escaped and cut like any echo.
                rows.append([UserText.escape(row.label), metric.name, Verdict.number(change.old.value), Verdict.number(change.new.value),
                             signed(change.difference.value),
                             change.difference.hasStandardError ? Verdict.number(change.difference.standardError) : "–",
                             change.adjustedPValue.map(Self.probability) ?? "–", verdict])
            }
        }
        let changed = comparison.rows.reduce(0) { $0 + $1.changes.filter { $0.change.beyondNoise == true }.count }
        return TextColumns.lines([header] + rows)
            + (unmoved == 0 ? "" : "(\(unmoved) loss share\(unmoved == 1 ? "" : "s") 0 in both runs not shown)\n")
            + (changed == 0 ? "no rate moved beyond noise" : "\(changed) rate\(changed == 1 ? "" : "s") moved beyond noise")
            + " (Holm, \(comparison.testedCount) rate\(comparison.testedCount == 1 ? "" : "s") tested at "
            + Expectation.percent(comparison.confidence) + ")\n"
    }

    /// A p-value in the table: three significant digits, "< 0.0001" below.
    /// - Complexity: O(1).
    static func probability(_ p: Double) -> String {
        p < 0.0001 ? "< 0.0001" : p < 0.01 ? DecimalText.significant(p, digits: 2) : DecimalText.fixed(p, digits: 3)
    }
}
