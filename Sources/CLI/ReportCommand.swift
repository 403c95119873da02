import Base
import Reports
import Simulator

/// `pushsim report DIR [--out DIR]`: draws `report.html` again from a report folder's
/// `result.json` (written by `run` and `merge`), without simulating.
package enum ReportCommand {
    package static let help = """
    OVERVIEW: Draw report.html again from a report folder's result.json.

    """ + "\n" + usageHelp.text + """

    Reads \(RunOutput.resultFileName) (written by 'pushsim run' and 'pushsim merge' beside the
    CSVs) and writes \(ReportPage.fileName) to <dir> (default: the folder it read from),
    whole or not at all. Nothing is simulated. '-' reads result.json from standard input
    (then --out is needed). A \(TraceLines.fileName) beside result.json ('pushsim run
    --trace') draws the traced device's day again too.

    """ + "\n" + optionsHelp.text + """

    EXAMPLES:
      pushsim report reports/mail-january-february
      pushsim report /tmp/q/result.json --out /tmp/page

    """

    /// `--out <dir>`: `run`'s, for the page alone.
    package static let out = RunCommand.Options.out

    /// The options `report` takes.
    package static let options = [out.spec]

    /// `report`'s USAGE line.
    package static let usageHelp = UsageHelp("report", [.text("<dir | result.json | ->"), .optional(out.spec)])

    /// `report`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp([
        .option(out.spec.explained("Folder for report.html (default: the report folder)")), .showHelp,
    ])

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "report", options: Self.options)
        } catch {
            return PushSimCommand.usage(error, command: "report", console: console)
        }
        guard let argument = scanner.positional.first else {
            return PushSimCommand.usage(.missingArgument("the report folder"), command: "report", console: console)
        }
        if scanner.positional.count > 1 {
            return PushSimCommand.usage(.unexpectedArgument(scanner.positional[1]), command: "report", console: console)
        }
        let out: String?
        do {
            out = try scanner.value(Self.out)
        } catch {
            return PushSimCommand.usage(error, command: "report", console: console)
        }
        let isFolder = ReportWriter.kind(of: argument) == true
        if argument == FileBytes.standardInputArgument && out == nil {
            return PushSimCommand.usage(.missingArgument("--out <dir> (result.json read from standard input)"),
                                        command: "report", console: console)
        }
        let decoded: (partial: PartialResult, scenario: Scenario, path: String)
        do {
            decoded = try PartialResult.load(argument, fileInFolder: RunOutput.resultFileName, standardInput: console.input)
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        let path = decoded.path
        let shard = decoded.partial.shard
        guard shard.count == 1 else {
            console.err("error: \(UserText.path(path)): the partial result of shard \(shard.index)/\(shard.count); "
                        + "merge the shards first ('pushsim merge'), then draw the merged folder\n")
            return .dataError
        }
        let directory = out ?? (isFolder ? argument : ReportWriter.parent(of: argument) ?? ".")
        // The trace beside result.json, if the run had one: its day is drawn again too.
        let folder: String? = argument == FileBytes.standardInputArgument ? nil
            : isFolder ? argument : ReportWriter.parent(of: argument) ?? "."
        let result = decoded.partial.result
        let trace = folder.flatMap { try? FileBytes.read(path: ReportWriter.join($0, TraceLines.fileName)) }
            .flatMap { TraceLines.decode(String(decoding: $0, as: UTF8.self), strategies: result.strategies) }
        let page = ReportPage.render(scenario: decoded.scenario, result: result, commandLine: decoded.partial.commandLine,
                                     traceDay: trace.flatMap { TraceDay(trace: $0, scenario: decoded.scenario, strategies: result.strategies) })
        do {
            try ReportWriter.write([(ReportPage.fileName, page)], to: directory,
                                   whileWaiting: { console.err(OutputOptions.waitingNote($0)) })
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        console.err("wrote \(UserText.path(ReportWriter.join(directory, ReportPage.fileName)))\n")
        return .success
    }
}
