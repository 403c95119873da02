import Base

/// `--format table|json` and `--quiet`, shared by `run`, `check`, `diff`, `merge` and `sweep`: what goes
/// to standard output. JSON is for scripts (stable keys, docs/checks.md lists them); `--quiet`
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

    /// What a writer waiting for another pushsim to finish writing into the same folder
    /// says (`FolderLock`), unless `--quiet`: without it a wait looks like a hang.
    /// - Complexity: O(1).
    package func waitingNote(_ console: Console) -> (String) -> Void {
        { folder in if !quiet { console.err(Self.waitingNote(folder)) } }
    }

    /// "note: another pushsim is writing to r; waiting for it to finish".
    /// - Complexity: O(n) in the folder's length.
    package static func waitingNote(_ folder: String) -> String {
        "note: another pushsim is writing to \(UserText.path(folder)); waiting for it to finish\n"
    }
}
