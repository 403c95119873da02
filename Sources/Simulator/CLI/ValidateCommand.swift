/// `pushsim validate SCENARIO`.
enum ValidateCommand {
    static let help = """
    OVERVIEW: Check a scenario file without running it.

    USAGE: pushsim validate <scenario.json>

    Prints "ok" and a one-line description on success; on a bad file prints one
    message naming the file, the field path and the line:column, and exits 65.

    EXAMPLES:
      pushsim validate scenarios/two-states.json

    """

    static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "validate", valued: [], flags: [])
        } catch {
            return PushSimCommand.usage(error, help: help, console: console)
        }
        guard let path = scanner.positional.first else {
            return PushSimCommand.usage(.missingArgument("the scenario file"), help: help, console: console)
        }
        if scanner.positional.count > 1 {
            return PushSimCommand.usage(.unexpectedArgument(scanner.positional[1]), help: help, console: console)
        }
        do {
            let scenario = try ScenarioDecoder.load(path: path)
            console.out("ok: \(scenario.name): \(scenario.devices) devices, \(scenario.dayCount) days, "
                        + "\(scenario.strategies.count) strategies (" + scenario.strategies.map(\.label).joined(separator: ", ") + ")\n")
            return .success
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
    }
}
