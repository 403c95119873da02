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
        self.path = path
        switch ReportWriter.kind(of: path) {
        case true?: break
        case false?: throw Failure(description: "\(UserText.path(path)): not a report folder (a file)")
        case nil: throw Failure(description: "\(UserText.path(path)): no such folder")
        }
        let recordPath = ReportWriter.join(path, RunRecord.fileName)
        if ReportWriter.kind(of: recordPath) != nil {
            do {
                record = try RunRecord.decode(try FileBytes.read(path: recordPath, limit: ScenarioLimits.partialBytes), file: recordPath)
            } catch let error as RunRecord.DecodingError {
                throw Failure(description: error.description)
            } catch {
                throw Failure(description: "\(UserText.path(recordPath)): cannot read: \((error as? FileReadError)?.reason ?? "\(error)")")
            }
        }
        let summaryPath = ReportWriter.join(path, "summary.csv")
        let text: String
        do { text = String(decoding: try FileBytes.read(path: summaryPath, limit: ScenarioLimits.partialBytes), as: UTF8.self) } catch {
            throw Failure(description: "\(UserText.path(summaryPath)): cannot read: \(error.reason)")
        }
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
                // An empty rate: nothing to divide by; no value, as `Estimate` says.
                let valueText = row[column]
                guard let value = valueText.isEmpty ? .nan : Double(valueText) else {
                    throw Failure(description: "\(UserText.path(summaryPath)):\(line + 2): \(metric.name) is not a number: \(UserText.quote(valueText))")
                }
                let standardError = errorColumn.flatMap { Double(row[$0]) } ?? .nan
                rowEstimates.append(Estimate(value: value, standardError: standardError, degreesOfFreedom: degreesOfFreedom))
            }
            estimates.append(rowEstimates)
        }
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
