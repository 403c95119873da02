import Base
import Simulator

/// Everything `run` and `merge` write for a whole run: the CSV reports, `report.html`,
/// `result.json`, from which `pushsim report` draws the page again, and `run.json`
/// (the run's provenance, which `diff` reads). Rendered whole
/// in memory, so `ReportWriter` can write all of it or nothing.
package struct RunOutput {
    /// The full aggregates' file name: a partial result of shard 1/1 of all devices.
    package static let resultFileName = "result.json"

    /// The files, in the order `files` lists them.
    package static let fileNames = Reports.fileNames + [ReportPage.fileName, resultFileName, RunRecord.fileName]

    /// The CSVs and the stdout table.
    package var reports: Reports
    /// Every file to write, by name.
    package var files: [(name: String, contents: String)]

    /// The output of `result` of `scenario` (its `seed` and `strategies` as run), whose
    /// file text was `scenarioText`, made by `commandLine`, described by `record`, its
    /// strategies compared with strategy `baseline`; with a traced device, `trace`'s
    /// files too (`TraceFiles`) and the page's picture of a traced day.
    /// - Complexity: O(strategies × (days + buckets) × blocks), plus the traced events.
    package init(scenario: Scenario, scenarioText: String, result: SimulationResult, commandLine: String, record: RunRecord,
         baseline: Int = 0, trace: SimulationTrace = .none) {
        reports = Reports(scenario: scenario, result: result, baseline: baseline)
        let whole = PartialResult(scenarioText: scenarioText, seed: scenario.seed, shard: (1, 1), result: result,
                                  commandLine: commandLine)
        let page = ReportPage.render(scenario: scenario, result: result, commandLine: commandLine,
                                     traceDay: TraceDay(trace: trace, scenario: scenario, strategies: result.strategies))
        files = reports.files + [(ReportPage.fileName, page), (Self.resultFileName, whole.encoded()), (RunRecord.fileName, record.encoded())]
            + TraceFiles.files(trace, scenario: scenario, strategies: result.strategies)
    }

    /// `pushsim` and `arguments` as a shell would need them typed: arguments with
    /// anything but letters, digits and `_-./=:,@%+` single-quoted, and one holding a
    /// byte that is not UTF-8 (`SystemText`) as `$'…\xff…'`, so the line names that byte.
    /// - Complexity: O(total length).
    package static func commandLine(_ arguments: [String]) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@%+".unicodeScalars)
        return (["pushsim"] + arguments).map { argument in
            guard argument.isEmpty || !argument.unicodeScalars.allSatisfy(plain.contains) else { return argument }
            guard argument.unicodeScalars.contains(where: { SystemText.escapedByte($0) != nil }) else {
                return "'" + argument.replacing(every: "'", with: "'\\''") + "'"
            }
            var quoted = "$'"
            for scalar in argument.unicodeScalars {
                switch scalar {
                case "\\": quoted += "\\\\"
                case "'": quoted += "\\'"
                default:
                    if let byte = SystemText.escapedByte(scalar) { quoted += "\\x" + String(byte, radix: 16) } else { quoted.unicodeScalars.append(scalar) }
                }
            }
            return quoted + "'"
        }.joined(separator: " ")
    }
}
