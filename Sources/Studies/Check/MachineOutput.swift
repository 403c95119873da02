import Base
import Reports
import Simulator

/// What `--format json` prints on standard output for `run`, `check` and `diff`: one
/// JSON object, keys in a fixed order (docs/checks.md, "JSON output"). Rates carry
/// full double precision; a standard error not computed is `null`, and so is its interval.
package enum MachineOutput {
    /// The confidence of `run`'s intervals.
    package static let runConfidence = 0.95

    /// `run`: per strategy, every metric's value, standard error and 95% interval; then
    /// every other strategy minus the baseline, paired (`compare.csv`).
    /// - Complexity: O(strategies × metrics × blocks).
    package static func run(_ record: RunRecord, result: SimulationResult, baseline: Int = 0) -> String {
        let strategies = result.strategies.indices.map { index in
            JSONText.object([
                ("label", JSONText.string(result.strategies[index].label)),
                ("kind", JSONText.string(result.strategies[index].kind.rawValue)),
                ("metrics", JSONText.object(Metric.allCases.map { metric in
                    (metric.name, JSONText.estimate(result.estimate(metric, strategy: index), confidence: runConfidence))
                })),
            ])
        }
        let comparisons = result.strategies.indices.filter { $0 != baseline }.map { index in
            JSONText.object([
                ("label", JSONText.string(result.strategies[index].label)),
                ("metrics", JSONText.object(Metric.allCases.map { metric in
                    let difference = result.difference(metric, strategy: index, minus: baseline)
                    let unpaired = result.unpairedDifference(metric, strategy: index, minus: baseline)
                    return (metric.name, JSONText.object([
                        ("difference", JSONText.number(difference.value)), ("se", JSONText.number(difference.standardError)),
                        ("interval", JSONText.interval(difference.interval(confidence: runConfidence))),
                        ("unpairedSE", JSONText.number(unpaired.standardError)),
                    ]))
                })),
            ])
        }
        return JSONText.object(header(record) + [
            ("confidence", JSONText.number(runConfidence)),
            ("strategies", JSONText.array(strategies)),
            ("baseline", JSONText.string(result.strategies[baseline].label)),
            ("comparisons", JSONText.array(comparisons)),
        ]) + "\n"
    }

    /// `check`: whether every expectation holds, and each verdict.
    /// - Complexity: O(expectations).
    package static func check(_ record: RunRecord, verdicts: [Verdict]) -> String {
        let items = verdicts.map { verdict in
            let expectation = verdict.expectation
            return JSONText.object([
                ("title", JSONText.string(expectation.title)),
                ("metric", JSONText.string(expectation.metric.name)),
                ("strategy", JSONText.string(expectation.strategy)),
                ("minus", JSONText.optional(expectation.baseline, JSONText.string)),
                ("atLeast", JSONText.optional(expectation.atLeast, JSONText.number)),
                ("atMost", JSONText.optional(expectation.atMost, JSONText.number)),
                ("confidence", JSONText.number(expectation.confidence)),
                ("value", JSONText.number(verdict.estimate.value)),
                ("se", JSONText.number(verdict.estimate.standardError)),
                ("interval", JSONText.interval(verdict.interval)),
                ("holds", verdict.holds ? "true" : "false"),
                ("message", JSONText.optional(verdict.failureMessage, JSONText.string)),
            ])
        }
        return JSONText.object(header(record) + [
            ("passed", verdicts.allSatisfy(\.holds) ? "true" : "false"),
            ("expectations", JSONText.array(items)),
        ]) + "\n"
    }

    /// `diff`: per strategy present in both folders, each rate's change.
    /// - Complexity: O(strategies × metrics).
    package static func diff(_ comparison: FolderComparison) -> String {
        func side(_ folder: ReportFolder) -> String {
            JSONText.object([
                ("folder", JSONText.string(folder.path)),
                ("pushsim", JSONText.optional(folder.record?.version, JSONText.string)),
                ("scenario", JSONText.optional(folder.record?.scenarioName, JSONText.string)),
                ("sha256", JSONText.optional(folder.record?.scenarioSHA256, JSONText.string)),
                ("seed", JSONText.optional(folder.record?.seed) { String($0) }),
                ("standardErrors", folder.hasStandardErrors ? "true" : "false"),
            ])
        }
        let strategies = comparison.rows.map { row in
            JSONText.object([
                ("label", JSONText.string(row.label)),
                ("metrics", JSONText.object(row.changes.map { metric, change in
                    (metric.name, JSONText.object([
                        ("old", JSONText.number(change.old.value)), ("oldSE", JSONText.number(change.old.standardError)),
                        ("new", JSONText.number(change.new.value)), ("newSE", JSONText.number(change.new.standardError)),
                        ("difference", JSONText.number(change.difference.value)),
                        ("se", JSONText.number(change.difference.standardError)),
                        ("interval", JSONText.interval(change.interval)),
                        ("p", JSONText.optional(change.pValue, JSONText.number)),
                        ("pAdjusted", JSONText.optional(change.adjustedPValue, JSONText.number)),
                        ("beyondNoise", JSONText.optional(change.beyondNoise) { $0 ? "true" : "false" }),
                    ]))
                })),
            ])
        }
        return JSONText.object([
            ("old", side(comparison.old)),
            ("new", side(comparison.new)),
            ("sameScenario", JSONText.optional(comparison.sameScenario) { $0 ? "true" : "false" }),
            ("confidence", JSONText.number(comparison.confidence)),
            ("correction", JSONText.string(FolderComparison.correction)),
            ("changed", comparison.changed ? "true" : "false"),
            ("strategies", JSONText.array(strategies)),
            ("onlyOld", JSONText.array(comparison.onlyOld.map(JSONText.string))),
            ("onlyNew", JSONText.array(comparison.onlyNew.map(JSONText.string))),
        ]) + "\n"
    }

    /// The keys `run` and `check` start with.
    private static func header(_ record: RunRecord) -> [(String, String)] {
        [("pushsim", JSONText.string(record.version)),
         ("scenario", JSONText.string(record.scenarioName)),
         ("sha256", JSONText.string(record.scenarioSHA256)),
         ("seed", String(record.seed))]
    }
}
