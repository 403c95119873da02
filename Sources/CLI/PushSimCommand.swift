import Base
import FoundationEssentials

/// Exit codes, as BSD's sysexits.h names them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// `check`: an expectation does not hold; `diff`: a rate moved beyond sampling noise.
    case failedCheck = 2
    case usage = 64
    case dataError = 65
}

/// A command's step stopped it with `code`, after printing why: what the steps of a
/// long command throw, so its entry point reads as the steps in order.
struct CommandStop: Error {
    let code: ExitCode
}

/// `pushsim`: the command-line entry point. Commands are values with an abstract
/// and examples, like swift-argument-parser's, but parsed by hand (no packages).
public enum PushSimCommand {
    package static let abstract = "Simulate end-to-end iOS push delivery and compare strategies."

    /// A subcommand: its name, a line for the top-level help, its own help, the options
    /// it scans (each declared once, `OptionSpec`), and its entry point.
    package struct Command: Sendable {
        package let name: String
        package let summary: String
        package let help: String
        package let options: [OptionSpec]
        package let main: @Sendable (ArraySlice<String>, Console) -> ExitCode
    }

    /// Every command, in the top-level help's order. Declared once: dispatch, `help TOPIC`,
    /// the COMMANDS list and the unknown-command message follow from it.
    package static let commands: [Command] = [
        Command(name: "run", summary: "Run a scenario and write its reports (CSVs, report.html)",
                help: RunCommand.help, options: RunCommand.options) { RunCommand.main($0, console: $1) },
        Command(name: "validate", summary: "Check a scenario file without running it",
                help: ValidateCommand.help, options: []) { ValidateCommand.main($0, console: $1) },
        Command(name: "merge", summary: "Combine partial results of sharded runs into reports",
                help: MergeCommand.help, options: MergeCommand.options) { MergeCommand.main($0, console: $1) },
        Command(name: "report", summary: "Draw report.html again from a report folder",
                help: ReportCommand.help, options: ReportCommand.options) { ReportCommand.main($0, console: $1) },
        Command(name: "check", summary: "Run a scenario and hold it to its 'expect' bounds (for CI)",
                help: CheckCommand.help, options: CheckCommand.options) { CheckCommand.main($0, console: $1) },
        Command(name: "diff", summary: "Compare two report folders, beyond sampling noise",
                help: DiffCommand.help, options: DiffCommand.options) { DiffCommand.main($0, console: $1) },
        Command(name: "sweep", summary: "Run a scenario over a grid of field values (sweep.csv, sweep.html)",
                help: SweepCommand.help, options: SweepCommand.options) { SweepCommand.main($0, console: $1) },
        Command(name: "fit", summary: "Fit a scenario's fields to measured figures; predict true deliverability",
                help: FitCommand.help, options: FitCommand.options) { FitCommand.main($0, console: $1) },
        Command(name: "measure", summary: "Write the figures the talk's measurement gives under a scenario (fit's input)",
                help: MeasureCommand.help, options: MeasureCommand.options) { MeasureCommand.main($0, console: $1) },
        Command(name: "describe-log", summary: "Estimate a send log's rhythm and bursts; print the scenario fields for them",
                help: DescribeLogCommand.help, options: DescribeLogCommand.options) { DescribeLogCommand.main($0, console: $1) },
        Command(name: "serve", summary: "Serve APNs's HTTP/2 API over the scenario's population of phones",
                help: ServeCommand.help, options: ServeCommand.options) { ServeCommand.main($0, console: $1) },
        Command(name: "provider", summary: "Run the scenario's provider as a process, sending to pushsim serve",
                help: ProviderCommand.help, options: ProviderCommand.options) { ProviderCommand.main($0, console: $1) },
        Command(name: "schema", summary: "Print a schema: scenario files', the measured file's, a send log's or the control API's",
                help: SchemaCommand.help, options: []) { SchemaCommand.main($0, console: $1) },
        Command(name: "bench", summary: "Measure speed and peak memory on a scenario",
                help: BenchCommand.help, options: BenchCommand.options) { BenchCommand.main($0, console: $1) },
        Command(name: "version", summary: "Print the version (also --version)",
                help: VersionCommand.help, options: []) { VersionCommand.main($0, console: $1) },
    ]

    /// "run, validate, …, version or help": what a command name may be, for messages.
    package static var commandList: String { commands.map(\.name).joined(separator: ", ") + " or help" }

    /// Every name a command may be given by: the table's and `help`.
    package static var commandNames: [String] { commands.map(\.name) + ["help"] }

    /// The command names nearest a misspelt `name` (`rnu`: run), or nil when none is near.
    /// - Complexity: O(commands × name lengths).
    package static func commandsNear(_ name: String) -> [String]? {
        let near = NearestNames.nearest(to: name, among: commandNames)
        return near.isEmpty ? nil : near
    }

    /// Where the COMMANDS list's summaries start: past the longest name (`describe-log`) and two spaces.
    package static let commandColumn = (commands.map(\.name.count).max() ?? 0) + 2

    /// One line a command: its name, padded to `commandColumn`, and its summary.
    private static let commandLines = (commands.map { ($0.name, $0.summary) } + [("help", "Show help for a command")])
        .map { (name: String, summary: String) in "  " + name + String(repeating: " ", count: commandColumn - name.count) + summary }
        .joined(separator: "\n")

    package static let help = """
    OVERVIEW: \(abstract)

    USAGE: pushsim <command> [options]

    COMMANDS:
    \(commandLines)

    EXAMPLES:
      pushsim run scenarios/mail-january-february.json
      pushsim validate scenarios/two-states.json
      pushsim run scenarios/two-states.json --set devices=100 --set connectivity.offline.mean=2h
      pushsim sweep scenarios/two-states.json --set 'strategies[1].repeatMaxCount=0..10'
      pushsim help run

    EXIT CODES: 0 ok, 1 failure, 2 an expectation failed (check) or a rate changed beyond
    noise (diff), 64 bad arguments, 65 bad scenario or report folder.

    """

    /// This process's arguments without the program name, each byte kept (`SystemText`):
    /// a path that is not UTF-8 reaches the system as it was typed.
    /// - Complexity: O(total length).
    public static func processArguments() -> [String] { Array(SystemText.commandLineArguments().dropFirst()) }

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String], console: Console = .standard) -> ExitCode {
        guard let name = arguments.first else {
            console.err(help)
            return .usage
        }
        let rest = arguments.dropFirst()
        switch name {
        case "-h", "--help", "help":
            if let topic = rest.first, let text = commandHelp(topic) {
                console.out(text)
            } else if let topic = rest.first {
                return usage(.unknownCommand(topic), console: console)
            } else {
                console.out(help)
            }
            return .success
        case "--version":
            return VersionCommand.main(rest, console: console)
        default:
            guard let command = commands.first(where: { $0.name == name }) else {
                return usage(.unknownCommand(name), console: console)
            }
            return command.main(rest, console)
        }
    }

    /// The help of command `name`, or nil.
    package static func commandHelp(_ name: String) -> String? { commands.first { $0.name == name }?.help }

    /// Prints a usage error with a pointer to the command's help; exit 64.
    package static func usage(_ error: UsageError, command: String, console: Console) -> ExitCode {
        console.err("error: \(error)\n")
        console.err("(see 'pushsim help \(command)')\n")
        return .usage
    }

    /// Prints a usage error outside any command (no command, or an unknown one) with a
    /// pointer to the top-level help; exit 64.
    package static func usage(_ error: UsageError, console: Console) -> ExitCode {
        console.err("error: \(error)\n")
        console.err("(see 'pushsim help' or '--help')\n")
        return .usage
    }
}
