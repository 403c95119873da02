import Foundation

/// Where a command writes: results to `out`, messages to `err`. Injected so tests
/// can run the CLI in-process.
public struct Console: Sendable {
    /// Standard output.
    public var out: @Sendable (String) -> Void
    /// Standard error.
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress is shown only then).
    public var errIsTerminal: Bool

    /// A console.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                errIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
    }

    /// The process's standard streams. Results that cannot reach standard output
    /// (a full disk, a closed descriptor) end the process with exit code 1 and one
    /// line on standard error; a failure to write standard error is ignored.
    public static var standard: Console {
        Console(out: { text in
                    if let problem = writeAll(text, to: STDOUT_FILENO) {
                        _ = writeAll("error: cannot write to standard output: \(problem)\n", to: STDERR_FILENO)
                        exit(ExitCode.failure.rawValue)
                    }
                },
                err: { _ = writeAll($0, to: STDERR_FILENO) },
                errIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Writes all of `text` to `descriptor`, retrying short and interrupted writes.
    /// Returns nil, or the system's description of what went wrong.
    /// (`FileHandle.write(_:)` traps on an error instead.)
    /// - Complexity: O(n) in the text's UTF-8 length.
    static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}

/// Exit codes, as BSD's sysexits.h names them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
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
      run        Run a scenario and write its CSV reports
      validate   Check a scenario file without running it
      merge      Combine partial results of sharded runs into reports
      bench      Measure speed and peak memory on a scenario
      help       Show help for a command

    EXAMPLES:
      pushsim run scenarios/mail-january-february.json
      pushsim validate scenarios/two-states.json
      pushsim help run

    EXIT CODES: 0 ok, 1 failure, 64 bad arguments, 65 bad scenario.

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
        default:
            return usage(.unknownCommand(name), help: help, console: console)
        }
    }

    static func commandHelp(_ name: String) -> String? {
        switch name {
        case "run": RunCommand.help
        case "validate": ValidateCommand.help
        case "merge": MergeCommand.help
        case "bench": BenchCommand.help
        default: nil
        }
    }

    /// Prints a usage error with a pointer to help; exit 64.
    static func usage(_ error: UsageError, help: String, console: Console) -> ExitCode {
        console.err("error: \(error)\n")
        console.err("(see 'pushsim help' or '--help')\n")
        return .usage
    }
}
