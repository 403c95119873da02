import Foundation

/// Exit codes, as BSD's sysexits.h names them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// `check`: an expectation does not hold; `diff`: a rate moved beyond sampling noise.
    case failedCheck = 2
    case usage = 64
    case dataError = 65
}

/// `pushsim`: the command-line entry point. Commands are values with an abstract
/// and examples, like swift-argument-parser's, but parsed by hand (no packages).
public enum PushSimCommand {
    static let abstract = "Simulate end-to-end iOS push delivery and compare strategies."

    static let help = """
    OVERVIEW: \(abstract)

    USAGE: pushsim <command> [options]

    COMMANDS:
      run        Run a scenario and write its reports (CSVs, report.html)
      validate   Check a scenario file without running it
      merge      Combine partial results of sharded runs into reports
      report     Draw report.html again from a report folder
      check      Run a scenario and hold it to its 'expect' bounds (for CI)
      diff       Compare two report folders, beyond sampling noise
      sweep      Run a scenario over a grid of field values (sweep.csv, sweep.html)
      schema     Print the JSON Schema of scenario files (for editors)
      bench      Measure speed and peak memory on a scenario
      version    Print the version (also --version)
      help       Show help for a command

    EXAMPLES:
      pushsim run scenarios/mail-january-february.json
      pushsim validate scenarios/two-states.json
      pushsim run scenarios/two-states.json --set devices=100 --set connectivity.offline.mean=2h
      pushsim sweep scenarios/two-states.json --set 'strategies[1].repeatMaxCount=0..10'
      pushsim help run

    EXIT CODES: 0 ok, 1 failure, 2 an expectation failed (check) or a rate changed beyond
    noise (diff), 64 bad arguments, 65 bad scenario or report folder.

    """

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
                return usage(.unknownCommand(topic), help: help, console: console)
            } else {
                console.out(help)
            }
            return .success
        case "run":
            return RunCommand.main(rest, console: console)
        case "validate":
            return ValidateCommand.main(rest, console: console)
        case "merge":
            return MergeCommand.main(rest, console: console)
        case "bench":
            return BenchCommand.main(rest, console: console)
        case "check":
            return CheckCommand.main(rest, console: console)
        case "diff":
            return DiffCommand.main(rest, console: console)
        case "report":
            return ReportCommand.main(rest, console: console)
        case "sweep":
            return SweepCommand.main(rest, console: console)
        case "schema":
            return SchemaCommand.main(rest, console: console)
        case "version", "--version":
            return VersionCommand.main(rest, console: console)
        default:
            return usage(.unknownCommand(name), help: help, console: console)
        }
    }

    /// The commands that have their own help.
    static let commandNames = ["run", "validate", "merge", "report", "bench", "check", "diff", "sweep", "schema", "version"]

    static func commandHelp(_ name: String) -> String? {
        switch name {
        case "run": RunCommand.help
        case "validate": ValidateCommand.help
        case "merge": MergeCommand.help
        case "bench": BenchCommand.help
        case "check": CheckCommand.help
        case "diff": DiffCommand.help
        case "report": ReportCommand.help
        case "sweep": SweepCommand.help
        case "schema": SchemaCommand.help
        case "version": VersionCommand.help
        default: nil
        }
    }

    /// Prints a usage error with a pointer to the command's help; exit 64.
    static func usage(_ error: UsageError, command: String, console: Console) -> ExitCode {
        console.err("error: \(error)\n")
        console.err("(see 'pushsim help \(command)')\n")
        return .usage
    }

    /// Prints a usage error with a pointer to the help text `help`: the command's whose
    /// help it is, else the top level's; exit 64.
    static func usage(_ error: UsageError, help: String, console: Console) -> ExitCode {
        if let command = commandNames.first(where: { commandHelp($0) == help }) {
            return usage(error, command: command, console: console)
        }
        console.err("error: \(error)\n")
        console.err("(see 'pushsim help' or '--help')\n")
        return .usage
    }
}
