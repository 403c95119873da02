/// `--format table|json` and `--quiet`, shared by `run`, `check`, `diff`, `merge` and `sweep`: what goes
/// to standard output. JSON is for scripts (stable keys, README lists them); `--quiet`
/// prints nothing there, whatever the format, and leaves only errors on standard error.
struct OutputOptions: Equatable {
    /// What standard output carries.
    enum Format: String, CaseIterable {
        case table, json
    }

    /// The options' names, for `ArgumentScanner`.
    static let valued: Set<String> = ["--format"]
    static let flags: Set<String> = ["--quiet"]

    var format = Format.table
    var quiet = false

    /// Reads the options from `scanner`.
    init(_ scanner: ArgumentScanner) throws(UsageError) {
        if let text = scanner.value("--format") {
            guard let format = Format(rawValue: text) else {
                throw .invalidValue(option: "--format", value: text,
                                    expected: Format.allCases.map(\.rawValue).joined(separator: " or "))
            }
            self.format = format
        }
        quiet = scanner.flag("--quiet")
    }

    init() {}

    /// Whether tables and notes are printed (not `--quiet`, not JSON).
    var showsTable: Bool { !quiet && format == .table }
}
