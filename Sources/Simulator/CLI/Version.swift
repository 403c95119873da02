extension PushSimCommand {
    /// The version `pushsim --version` prints. Semantic versioning: the minor number
    /// grows with new scenario fields, options or report columns, the patch number with
    /// fixes; the major number will once a scenario file that ran stops running.
    public static let version = "0.7.0"
}

/// `pushsim version` (or `pushsim --version`).
enum VersionCommand {
    static let help = """
    OVERVIEW: Print pushsim's version.

    USAGE: pushsim version
           pushsim --version

    """

    static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        if let extra = arguments.first {
            return PushSimCommand.usage(.unexpectedArgument(extra), command: "version", console: console)
        }
        console.out("pushsim \(PushSimCommand.version)\n")
        return .success
    }
}
