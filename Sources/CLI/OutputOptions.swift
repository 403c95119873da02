import Base

/// `--format table|json` and `--quiet`, shared by `run`, `check`, `diff`, `merge` and `sweep`: what goes
/// to standard output. JSON is for scripts (stable keys, README lists them); `--quiet`
/// prints nothing there, whatever the format, and leaves only errors on standard error.
package struct OutputOptions: Equatable {
    /// What standard output carries.
    package enum Format: String, CaseIterable {
        case table, json
    }

    /// The options' names, for `ArgumentScanner`.
    package static let valued: Set<String> = ["--format"]
    package static let flags: Set<String> = ["--quiet"]

    package var format = Format.table
    package var quiet = false

    /// Reads the options from `scanner`.
    package init(_ scanner: ArgumentScanner) throws(UsageError) {
        if let text = scanner.value("--format") {
            guard let format = Format(rawValue: text) else {
                throw .invalidValue(option: "--format", value: text,
                                    expected: Format.allCases.map(\.rawValue).joined(separator: " or "))
            }
            self.format = format
        }
        quiet = scanner.flag("--quiet")
    }

    package init() {}

    /// Whether tables and notes are printed (not `--quiet`, not JSON).
    package var showsTable: Bool { !quiet && format == .table }
}
