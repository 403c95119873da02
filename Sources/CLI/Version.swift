import Base

extension PushSimCommand {
    /// The version `pushsim --version` prints.
    public static let version = PushSimVersion.current
}

/// `pushsim version` (or `pushsim --version`).
package enum VersionCommand {
    package static let help = """
    OVERVIEW: Print pushsim's version.

    USAGE: pushsim version
           pushsim --version

    """

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        if let extra = arguments.first {
            return PushSimCommand.usage(.unexpectedArgument(extra), command: "version", console: console)
        }
        console.out("pushsim \(PushSimCommand.version)\n")
        return .success
    }
}
