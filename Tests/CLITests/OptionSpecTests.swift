@testable import CLI
import TestSupport
import Testing

/// Each option is declared once (`OptionSpec`, `Option`, `Flag`); these hold the help,
/// the scanner and the errors to those declarations, for every command that takes them.
@Suite("Command line: options declared once")
struct OptionSpecTests {
    /// Runs the CLI in-process.
    private func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        CapturedConsole.run(arguments)
    }

    /// The usage error `error` as command `command` prints it.
    private func usage(_ error: UsageError, _ command: String) -> String {
        "error: \(error)\n(see 'pushsim help \(command)')\n"
    }

    /// Each command with an OPTIONS section, and the section.
    private static let sections: [(command: String, section: OptionsHelp)] = [
        ("run", RunCommand.optionsHelp), ("check", CheckCommand.optionsHelp), ("sweep", SweepCommand.optionsHelp),
        ("merge", MergeCommand.optionsHelp), ("report", ReportCommand.optionsHelp), ("diff", DiffCommand.optionsHelp),
    ]

    // MARK: Help

    @Test("every option a command scans is named in its help")
    func everyScannedOptionIsInTheHelp() {
        for command in PushSimCommand.commands {
            let unnamed = command.options.map(\.name).filter { !command.help.contains($0) }
            // check's help, older than --baseline, says "as for 'pushsim run'" without it;
            // naming it changes the shipped help text, so it waits for a release that may.
            #expect(unnamed == (command.name == "check" ? ["--baseline"] : []), "\(command.name)")
        }
    }

    @Test("a command's OPTIONS section is its declarations rendered, and names only options it scans")
    func optionsSectionFollowsTheDeclarations() throws {
        for (name, section) in Self.sections {
            let command = try #require(PushSimCommand.commands.first { $0.name == name })
            #expect(command.help.contains("\n\n" + section.text + "\n"), "\(name)")
            let scanned = Set(command.options.map(\.name))
            for listed in section.options { #expect(scanned.contains(listed.name), "\(name) lists \(listed.name)") }
            for case .option(let listed) in section.rows {
                // Every help line of the option, under its label, as declared (or as explained for this command).
                for line in listed.helpLines { #expect(command.help.contains(line + "\n"), "\(name): \(line)") }
            }
        }
    }

    @Test("a command's USAGE line is its declarations rendered and names every option it scans")
    func usageFollowsTheDeclarations() throws {
        let usages: [(command: String, usage: UsageHelp)] = [
            ("run", RunCommand.usageHelp), ("check", CheckCommand.usageHelp), ("sweep", SweepCommand.usageHelp),
            ("merge", MergeCommand.usageHelp), ("report", ReportCommand.usageHelp), ("diff", DiffCommand.usageHelp),
            ("bench", BenchCommand.usageHelp),
        ]
        for (name, usage) in usages {
            let command = try #require(PushSimCommand.commands.first { $0.name == name })
            #expect(command.help.contains("\n\n" + usage.text + "\n"), "\(name)")
            let scanned = Set(command.options.map(\.name))
            let named = Set(usage.options.map(\.name))
            #expect(named.isSubset(of: scanned), "\(name)")
            // check names the run and output options as one group, "[run options]".
            let grouped = name == "check" ? Set((RunCommand.Options.all + OutputOptions.all).map(\.name)) : []
            #expect(scanned.subtracting(named) == grouped, "\(name)")
        }
        let run = RunCommand.usageHelp.text
        #expect(run.hasPrefix("USAGE: pushsim run <scenario.json | -> [--set <path>=<value>]... "))
        #expect(run.contains(" [--format table|json] ") && run.contains(" [--strategy <label>]... ") && run.contains(" [--quiet] "))
        #expect(run.contains("\n" + String(repeating: " ", count: "USAGE: pushsim run ".count) + "[--strategy"))
    }

    @Test("an option's help starts in one column; a label a little longer keeps one space, a much longer one its own line")
    func helpColumn() {
        let threads = RunCommand.Options.threads.spec.helpLines
        #expect(threads.count == 2)
        #expect(threads[0] == "  --threads <n>        " + RunCommand.Options.threads.spec.help[0])
        #expect(threads[1] == String(repeating: " ", count: 2 + OptionSpec.helpColumn) + RunCommand.Options.threads.spec.help[1])
        let sweepSet = RunCommand.Options.set.spec.explained(placeholder: "<path>=<values>", "A field")
        #expect(sweepSet.helpLines == ["  --set <path>=<values> A field"])
        let key = ServeCommand.Options.providerKey.spec.helpLines
        #expect(key[0] == "  --provider-key <team>:<key-id>:<file>")
        #expect(key[1] == String(repeating: " ", count: 2 + OptionSpec.helpColumn) + ServeCommand.Options.providerKey.spec.help[0])
        #expect(sweepSet.isRepeatable && sweepSet.takesValue)
        #expect(!RunCommand.Options.allowLarge.spec.takesValue)
    }

    // MARK: Ranges

    @Test("an integer option's range drives both the values it accepts and the error's wording")
    func rangeDrivesAcceptanceAndMessage() throws {
        let reader = ValueReader<Int>.integer(in: 5...9)
        #expect(reader.expected == "an integer from 5 to 9")
        #expect(reader.read("5") == 5 && reader.read("9") == 9)
        for text in ["4", "10", "", "+6", "-6", "6.0", "six"] { #expect(reader.read(text) == nil, "\(text)") }

        let seed = RunCommand.Options.seed
        #expect(seed.spec.expected == "an integer from 0 to 2^63-1")
        #expect(try seed.read("9223372036854775807") == UInt64(Int64.max))
        #expect(throws: UsageError.invalidValue(option: "--seed", value: "9223372036854775808", expected: "an integer from 0 to 2^63-1")) {
            try seed.read("9223372036854775808")
        }

        // `--threads 1...1024`, end to end: both bounds run, one past each is refused in the range's words.
        #expect(try RunCommand.Options(["x.json", "--threads", "1"]).threads == 1)
        #expect(try RunCommand.Options(["x.json", "--threads=1024"]).threads == 1024)
        for text in ["0", "1025"] {
            let error = UsageError.invalidValue(option: "--threads", value: text, expected: "an integer from 1 to 1024")
            #expect(throws: error) { try RunCommand.Options(["x.json", "--threads", text]) }
            #expect(pushsim(["run", "x.json", "--threads", text]).err == usage(error, "run"))
        }
        #expect(RunCommand.Options.threads.spec.expected == "an integer from 1 to 1024")
    }

    @Test("bench's scaling overrides keep their ranges")
    func benchRanges() {
        #expect(BenchCommand.devices.spec.expected == "an integer from 1 to 100000000")
        #expect(BenchCommand.days.spec.expected == "an integer from 1 to 3650")
        let result = pushsim(["bench", "x.json", "--days", "3651"])
        #expect(result.code == .usage)
        #expect(result.err == usage(.invalidValue(option: "--days", value: "3651", expected: "an integer from 1 to 3650"), "bench"))
    }

    // MARK: Groups

    @Test("an option of a shared group reads the same in every command that takes it")
    func groupOptionsReadTheSameEverywhere() {
        let cases: [(option: OptionSpec, bad: String)] = [
            (RunCommand.Options.threads.spec, "0"), (RunCommand.Options.seed.spec, "-1"), (RunCommand.Options.out.spec, ""),
            (OutputOptions.format.spec, "xml"),
        ]
        for (option, bad) in cases {
            let takers = PushSimCommand.commands.filter { $0.options.contains(option) }
            #expect(takers.count >= 2, "\(option.name) is shared")
            for command in takers {
                // diff needs two folders before it reads anything but --format; report one.
                let positional = command.name == "diff" ? ["a", "b"] : ["x.json"]
                let result = pushsim([command.name] + positional + [option.name, bad])
                let expected = UsageError.invalidValue(option: option.name, value: bad, expected: option.expected ?? "")
                #expect(result.code == .usage, "\(command.name) \(option.name)")
                #expect(result.err == usage(expected, command.name), "\(command.name) \(option.name)")
            }
        }
    }

    @Test("every value-taking option of every command needs its value, and only a repeatable one may repeat")
    func scannerFollowsTheDeclarations() {
        for command in PushSimCommand.commands {
            let name = command.name
            for option in command.options {
                if option.takesValue {
                    #expect(pushsim([name, "x.json", option.name]).err == usage(.missingValue(option: option.name), name),
                            "\(name) \(option.name)")
                    let twice = pushsim([name, "x.json", option.name, "1", option.name, "1"]).err
                    #expect(twice.contains("given twice") != option.isRepeatable, "\(name) \(option.name): \(twice)")
                } else {
                    #expect(pushsim([name, "x.json", option.name + "=1"]).err
                            == usage(.unknownOption(option.name + "=1", command: name), name), "\(name) \(option.name)")
                }
            }
            // schema and version take no arguments at all: theirs is an unexpected argument.
            if !command.options.isEmpty {
                #expect(pushsim([name, "x.json", "--bogus"]).err == usage(.unknownOption("--bogus", command: name), name))
            }
        }
    }

    @Test("an option is declared once per command: no two of a command's options share a name")
    func namesAreUnique() {
        for command in PushSimCommand.commands {
            #expect(Set(command.options.map(\.name)).count == command.options.count, "\(command.name)")
        }
        #expect(RunCommand.options == RunCommand.Options.all + OutputOptions.all)
    }
}
