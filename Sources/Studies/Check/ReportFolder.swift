import Base
import Reports
import Simulator

/// What `pushsim diff` reads from a report folder: `run.json` (nil when absent: a
/// folder from a pushsim before 0.7) and the rates of `summary.csv`, found by column
/// name, with their `<rate>_se` standard errors when the file has them.
package struct ReportFolder {
    /// The folder as named on the command line.
    package var path: String
    /// Its `run.json`, or nil when it has none.
    package var record: RunRecord?
    /// The strategies' labels, in `summary.csv` order.
    package var labels: [String]
    /// The metrics whose column `summary.csv` has, in `Metric.allCases` order.
    package var metrics: [Metric]
    /// Whether `summary.csv` has a `<rate>_se` column for every rate it has.
    package var hasStandardErrors: Bool
    /// The estimates, by strategy (same order as `labels`) then metric (same order as
    /// `metrics`); a standard error not in the file is NaN.
    package var estimates: [[Estimate]]

    /// Why a folder cannot be compared.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Reads the folder at `path`.
    /// - Complexity: O(n) in the files' size.
    package init(path: String) throws(Failure) {
        switch ReportWriter.kind(of: path) {
        case true?: break
        case false?: throw Failure(description: "\(UserText.path(path)): not a report folder (a file)")
        case nil: throw Failure(description: "\(UserText.path(path)): no such folder")
        }
        let recordPath = ReportWriter.join(path, RunRecord.fileName)
        var recordBytes: [UInt8]?
        if ReportWriter.kind(of: recordPath) != nil {
            do { recordBytes = try FileBytes.read(path: recordPath, limit: ScenarioLimits.partialBytes) } catch {
                throw Failure(description: "\(UserText.path(recordPath)): cannot read: \(error.reason)")
            }
        }
        let summaryPath = ReportWriter.join(path, Self.summaryFileName)
        let summary: [UInt8]
        do { summary = try FileBytes.read(path: summaryPath, limit: ScenarioLimits.partialBytes) } catch {
            throw Failure(description: "\(UserText.path(summaryPath)): cannot read: \(error.reason)")
        }
        try self.init(path: path, summary: summary, record: recordBytes)
    }

    /// The file `diff` reads the rates from.
    package static let summaryFileName = "summary.csv"

    /// A folder at `path` whose `summary.csv` holds `summary` and whose `run.json` holds
    /// `record` (nil: none): what `init(path:)` reads, and what the fuzzer hands over.
    /// Every number is checked as pushsim writes it: a cell it could not have written
    /// (`nan`, `inf`, `1e308`, `-0`, a negative standard error, a value past any ratio of
    /// counts) is refused naming the file, line and column, never carried into a trap.
    /// - Complexity: O(n) in the files' size.
    package init(path: String, summary: [UInt8], record recordBytes: [UInt8]?) throws(Failure) {
        self.path = path
        let recordPath = ReportWriter.join(path, RunRecord.fileName)
        if let recordBytes {
            do { record = try RunRecord.decode(recordBytes, file: recordPath) } catch { throw Failure(description: error.description) }
        }
        let summaryPath = ReportWriter.join(path, Self.summaryFileName)
        // Bytes that are not UTF-8 are kept (`SystemText`), so a message shows them as `\xff`.
        let text = SystemText.decode(summary)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: true).map { Self.fields(String($0)) }
        guard let header = rows.first, let labelColumn = header.firstIndex(of: "strategy") else {
            throw Failure(description: "\(UserText.path(summaryPath)): not a pushsim summary (no strategy column)")
        }
        let columns = Metric.allCases.compactMap { metric in header.firstIndex(of: metric.name).map { (metric, $0) } }
        let errorColumns = columns.map { header.firstIndex(of: $0.0.name + "_se") }
        metrics = columns.map(\.0)
        hasStandardErrors = !columns.isEmpty && errorColumns.allSatisfy { $0 != nil }
        labels = []
        estimates = []
        // Standard errors come from min(64, devices) blocks of users (`UserBlocks`).
        let degreesOfFreedom = record.flatMap { record in
            record.devices >= 2 ? UserBlocks.used(users: Int64(record.devices)) - 1 : nil
        }
        for (line, row) in rows.dropFirst().enumerated() {
            guard row.count == header.count else {
                throw Failure(description: "\(UserText.path(summaryPath)):\(line + 2): \(row.count) fields, the header has \(header.count)")
            }
            labels.append(row[labelColumn])
            var rowEstimates: [Estimate] = []
            for ((metric, column), errorColumn) in zip(columns, errorColumns) {
                func rate(_ column: Int, _ name: String) throws(Failure) -> Double {
                    guard let value = Self.rate(row[column]) else {
                        throw Failure(description: "\(UserText.path(summaryPath)):\(line + 2): \(name) is not a rate pushsim "
                                      + "writes (digits, a point and digits, at most 2^63, or empty): \(UserText.quote(row[column]))")
                    }
                    return value
                }
                // An empty rate: nothing to divide by; no value, as `Estimate` says. An
                // empty standard error: not computed.
                let value = try rate(column, metric.name)
                let standardError = try errorColumn.map { (column) throws(Failure) in try rate(column, metric.name + "_se") } ?? .nan
                rowEstimates.append(Estimate(value: value, standardError: standardError, degreesOfFreedom: degreesOfFreedom))
            }
            estimates.append(rowEstimates)
        }
    }

    /// The largest rate a summary can hold: a count (at most 2^63 − 1) over a count of at least 1.
    package static let largestRate = 0x1p63

    /// A rate or standard error as `summary.csv` writes it, plain non-negative decimal
    /// digits (`0.830000`, `12`), as a number; NaN for an empty cell (no value); nil for
    /// anything else: signs, exponents, `nan`, `inf`, hexadecimal, spaces, or a value
    /// beyond `largestRate`.
    /// - Complexity: O(n) in the cell's length.
    package static func rate(_ cell: String) -> Double? {
        if cell.isEmpty { return .nan }
        let parts = cell.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(digits.contains) }),
              let value = Double(cell), value.isFinite, value <= largestRate else { return nil }
        return value
    }

    /// The fields of one CSV record (RFC 4180 quoting).
    /// - Complexity: O(n) in the line's length.
    package static func fields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false, afterQuote = false
        for character in line {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else { field.append(character) }
            } else if character == "\"" {
                if afterQuote { field.append("\"") }
                quoted = true
                afterQuote = false
            } else if character == "," {
                fields.append(field)
                field = ""
                afterQuote = false
            } else {
                field.append(character)
                afterQuote = false
            }
        }
        fields.append(field)
        return fields
    }
}
