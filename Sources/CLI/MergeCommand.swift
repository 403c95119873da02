import Base
import FoundationEssentials
import Reports
import Simulator
import Studies

/// `pushsim merge DIR... --out DIR`: sums the partial results of a sharded run
/// into the same reports one run would have written, byte for byte.
package enum MergeCommand {
    package static let help = """
    OVERVIEW: Combine the partial results of 'pushsim run --shard K/N' into reports.

    """ + "\n" + usageHelp.text + """

    Every shard 1…N of one scenario, seed and strategy set must be given exactly
    once; '-' reads one part from standard input. Writes \(Reports.listing(RunOutput.fileNames))
    to <dir>; the CSVs are identical to an unsharded run's (the page, result.json and
    run.json name the merge command instead, and run.json lists the parts).

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim merge parts/1 parts/2 parts/3 --out reports/scale-1m

    """

    /// `--out <dir>`: required, so an empty one is reported as missing.
    package static let out = Option<String>("--out", "<dir>", .text, help: "Report folder")

    /// The options `merge` takes: the output folder, `run`'s `--baseline` and the output options.
    package static let options = [out.spec, RunCommand.Options.baseline.spec] + OutputOptions.all

    /// `merge`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "merge", [.text("<dir-or-partial.json>..."), .required(out.spec), .optional(RunCommand.Options.baseline.spec),
                  .optional(OutputOptions.format.spec), .optional(OutputOptions.quiet.spec)])

    /// `merge`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp([
        .option(out.spec),
        .option(RunCommand.Options.baseline.spec.explained(
            "The strategy the others are compared with in compare.csv and the",
            "table (default: the first one); as 'run --baseline' would have")),
        .option(OutputOptions.format.spec.explained("table (default) or json, as for 'pushsim run'")),
        .option(OutputOptions.quiet.spec),
    ])

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        do throws(CommandStop) {
            let settings = try readSettings(arguments, console: console)
            let merged = try mergeParts(settings.parts, console: console)
            var result = merged.result
            let reference = merged.reference
            do {
                try ReportWriter.checkWritable(settings.out, for: RunOutput.fileNames)
            } catch {
                console.err("error: \(error)\n")
                return .failure
            }
            let missing = (1...reference.partial.shard.count).filter { !merged.seen.contains($0) }
            guard missing.isEmpty else {
                console.err("error: shards missing: " + missing.map { "\($0)/\(reference.partial.shard.count)" }.joined(separator: ", ") + "\n")
                return .dataError
            }
            result.strategies = reference.scenario.strategies
            var baseline = 0
            if let label = settings.baselineLabel {
                guard let index = result.strategies.firstIndex(where: { $0.label == label }) else {
                    return PushSimCommand.usage(.unknownStrategy(label, known: result.strategies.map(\.label)),
                                                command: "merge", console: console)
                }
                baseline = index
            }
            if let broken = result.checkIdentity() {
                console.err("error: the merged result does not add up: \(broken)\n")
                return .failure
            }
            return write(result, merged: merged, baseline: baseline, settings: settings, arguments: arguments, console: console)
        } catch {
            return error.code
        }
    }

    /// `merge`'s command line: the parts (at least one), `--out` (required), `--baseline`
    /// and the output options.
    private struct Settings {
        var parts: [String]
        var output: OutputOptions
        var out: String
        var baselineLabel: String?
    }

    /// The command line read; a bad one is a usage error.
    private static func readSettings(_ arguments: ArraySlice<String>, console: Console) throws(CommandStop) -> Settings {
        let scanner: ArgumentScanner
        let output: OutputOptions
        let out: String?, baselineLabel: String?
        do {
            scanner = try ArgumentScanner(arguments, command: "merge", options: Self.options)
            output = try OutputOptions(scanner)
            out = try scanner.value(Self.out)
            baselineLabel = try scanner.value(RunCommand.Options.baseline)
        } catch {
            throw CommandStop(code: PushSimCommand.usage(error, command: "merge", console: console))
        }
        guard !scanner.positional.isEmpty else {
            throw CommandStop(code: PushSimCommand.usage(.missingArgument("the partial results to merge"), command: "merge", console: console))
        }
        guard let out, !out.isEmpty else {
            throw CommandStop(code: PushSimCommand.usage(.missingArgument("--out <dir>"), command: "merge", console: console))
        }
        return Settings(parts: scanner.positional, output: output, out: out, baselineLabel: baselineLabel)
    }

    /// The parts summed: the first part read (the reference the others must match), the
    /// shards seen and each part as run.json lists it.
    private struct Merged {
        var result: SimulationResult
        var reference: (partial: PartialResult, scenario: Scenario, path: String)
        var seen: Set<Int>
        var parts: [RunRecord.Part]
    }

    /// Reads each part and adds it to the sum: every part of the same run as the first, each
    /// shard once, within the scenario's devices.
    private static func mergeParts(_ arguments: [String], console: Console) throws(CommandStop) -> Merged {
        var merged: SimulationResult?
        var reference: (partial: PartialResult, scenario: Scenario, path: String)?
        var seen: Set<Int> = []
        var parts: [RunRecord.Part] = []
        for argument in arguments {
            let decoded: (partial: PartialResult, scenario: Scenario, path: String)
            do {
                decoded = try PartialResult.load(argument, fileInFolder: RunCommand.partialFileName, standardInput: console.input)
            } catch {
                console.err("error: \(error)\n")
                throw CommandStop(code: .dataError)
            }
            let path = decoded.path
            let shard = decoded.partial.shard
            guard shard.count <= decoded.scenario.devices else {
                console.err("error: \(UserText.path(path)): shard \(shard.index)/\(shard.count) of a scenario of \(decoded.scenario.devices) "
                            + "devices: there are at most as many shards as devices\n")
                throw CommandStop(code: .dataError)
            }
            if let reference {
                if let difference = Self.difference(decoded.partial, reference.partial) {
                    console.err("error: \(UserText.path(path)) and \(UserText.path(reference.path)) are parts of different runs: \(difference)\n")
                    throw CommandStop(code: .dataError)
                }
            } else {
                reference = (decoded.partial, decoded.scenario, path)
            }
            guard seen.insert(shard.index).inserted else {
                console.err("error: \(UserText.path(path)): shard \(shard.index)/\(shard.count) given twice\n")
                throw CommandStop(code: .dataError)
            }
            parts.append(RunRecord.Part(file: path, shard: "\(shard.index)/\(shard.count)"))
            if merged == nil { merged = decoded.partial.result } else {
                do { try merged!.merge(part: decoded.partial.result, file: path) } catch {
                    console.err("error: \(error)\n")
                    throw CommandStop(code: .dataError)
                }
            }
        }
        guard let reference, let result = merged else { throw CommandStop(code: .dataError) }
        return Merged(result: result, reference: reference, seen: seen, parts: parts)
    }

    /// The table or JSON on stdout first, as `run`: when it fails the folder is left as it
    /// was. Then the reports, as one run would have written them.
    private static func write(_ result: SimulationResult, merged: Merged, baseline: Int, settings: Settings,
                              arguments: ArraySlice<String>, console: Console) -> ExitCode {
        let (reference, output) = (merged.reference, settings.output)
        let record = RunRecord(scenario: reference.scenario, scenarioBytes: Array(reference.partial.scenarioText.utf8),
                               commandLine: ["pushsim", "merge"] + arguments, parts: merged.parts)
        let files = RunOutput(scenario: reference.scenario, scenarioText: reference.partial.scenarioText, result: result,
                              commandLine: RunOutput.commandLine(["merge"] + arguments), record: record,
                              baseline: baseline)
        if !output.quiet {
            switch output.format {
            case .table: console.out(files.reports.table)
            case .json: console.out(MachineOutput.run(record, result: result, baseline: baseline))
            }
        }
        do {
            try ReportWriter.write(files.files, to: settings.out, removing: [RunCommand.partialFileName] + TraceFiles.fileNames
                                       + (files.reports.background == nil ? [Reports.backgroundFileName] : []),
                                   whileWaiting: output.waitingNote(console))
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        guard !output.quiet else { return .success }
        console.err("merged \(Counted.phrase(merged.seen.count, "shard")) into \(Reports.listing(RunOutput.fileNames)) in \(UserText.path(settings.out))\n")
        return .success
    }

    /// What differs between two parts that must come from one run (the first of scenario
    /// text, seed, strategy set and shard count), with both values; nil if nothing does.
    /// - Complexity: O(n) in the scenario texts' length.
    package static func difference(_ part: PartialResult, _ first: PartialResult) -> String? {
        func labels(_ partial: PartialResult) -> String { UserText.list(partial.result.strategies.map(\.label)) }
        if part.scenarioText != first.scenarioText { return "the scenario texts differ" }
        if part.seed != first.seed { return "seed \(part.seed) against \(first.seed)" }
        if part.result.strategies != first.result.strategies {
            return "strategies \(labels(part)) against \(labels(first))"
        }
        if part.shard.count != first.shard.count {
            return "shard \(part.shard.index)/\(part.shard.count) against \(first.shard.index)/\(first.shard.count) "
                + "(another shard count)"
        }
        return nil
    }
}
