import Base

/// `--format table|json` and `--quiet`, shared by `run`, `check`, `diff`, `merge` and `sweep`: what goes
/// to standard output. JSON is for scripts (stable keys, README lists them); `--quiet`
/// prints nothing there, whatever the format, and leaves only errors on standard error.
package struct OutputOptions: Equatable {
    /// What standard output carries.
    package enum Format: String, CaseIterable, Sendable {
        case table, json
    }

    /// `--format <f>`. Each command's help says what its JSON holds (`explained`).
    package static let format = Option<Format>("--format", "<f>", .choice, help: "table (default) or json, for scripts")
    /// `--quiet`. A command whose stderr notes differ says so in its help (`explained`).
    package static let quiet = Flag("--quiet", help: "Print nothing on stdout and no note on stderr; only errors")
    /// The group, as every command that takes it scans it.
    package static let all: [OptionSpec] = [format.spec, quiet.spec]

    package var format = Format.table
    package var quiet = false

    /// Reads the options from `scanner`.
    package init(_ scanner: ArgumentScanner) throws(UsageError) {
        if let format = try scanner.value(Self.format) { self.format = format }
        quiet = scanner.flag(Self.quiet)
    }

    package init() {}
}
