import Simulator

/// Two report folders compared rate by rate (`pushsim diff`): the strategies both
/// have, each metric both summaries have, as `Change`s, judged together.
///
/// Some sixty rates are tested at once, so at 95% three would move "beyond noise"
/// by chance in two runs of one scenario. The p-values are adjusted by Holm's
/// step-down method, which keeps the chance of any false alarm (the family-wise
/// error rate) at most 1 − confidence whatever the rates' correlation: sorted
/// ascending, the i-th of m (from 0) is multiplied by m − i, then made monotone.
package struct FolderComparison {
    /// The folders.
    package var old: ReportFolder, new: ReportFolder
    /// The interval's confidence.
    package var confidence: Double
    /// One row per strategy label in both, in the new folder's order.
    package var rows: [(label: String, changes: [(metric: Metric, change: Change)])]
    /// Labels only in one folder.
    package var onlyOld: [String], onlyNew: [String]

    /// Compares `old` with `new` at `confidence`.
    /// - Complexity: O(strategies² + strategies × metrics).
    package init(old: ReportFolder, new: ReportFolder, confidence: Double) {
        self.old = old
        self.new = new
        self.confidence = confidence
        let metrics = new.metrics.filter(old.metrics.contains)
        rows = new.labels.enumerated().compactMap { newIndex, label in
            guard let oldIndex = old.labels.firstIndex(of: label) else { return nil }
            return (label, metrics.map { metric in
                let before = old.estimates[oldIndex][old.metrics.firstIndex(of: metric)!]
                let after = new.estimates[newIndex][new.metrics.firstIndex(of: metric)!]
                return (metric, Change(old: before, new: after, confidence: confidence))
            })
        }
        Self.adjustByHolm(&rows, confidence: confidence)
        onlyOld = old.labels.filter { !new.labels.contains($0) }
        onlyNew = new.labels.filter { !old.labels.contains($0) }
    }

    /// The multiple-comparison correction `diff` applies, as its output names it.
    package static let correction = "holm"

    /// Replaces each tested change's adjusted p-value by Holm's and judges it at `confidence`.
    /// - Complexity: O(m log m) for m tested rates.
    static func adjustByHolm(_ rows: inout [(label: String, changes: [(metric: Metric, change: Change)])], confidence: Double) {
        var tested: [(row: Int, column: Int, p: Double)] = []
        for (row, entry) in rows.enumerated() {
            for (column, item) in entry.changes.enumerated() {
                if let p = item.change.pValue { tested.append((row, column, p)) }
            }
        }
        // Ties in p keep the rows' order, so the output does not depend on the sort.
        let order = tested.indices.sorted { (tested[$0].p, $0) < (tested[$1].p, $1) }
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(tested.count - rank) * tested[index].p))
            let (row, column, _) = tested[index]
            rows[row].changes[column].change.adjustedPValue = running
            rows[row].changes[column].change.beyondNoise = running <= 1 - confidence
        }
    }

    /// Whether both ran the same scenario: the same text (same hash) with the same `--set`
    /// overrides; nil when a folder has no `run.json`.
    package var sameScenario: Bool? {
        guard let before = old.record, let after = new.record else { return nil }
        return before.scenarioSHA256 == after.scenarioSHA256 && Self.effective(before.overrides) == Self.effective(after.overrides)
    }

    /// What `overrides` set, path by path (the last of a path wins, as when applied), sorted
    /// by path: `--set a=1 --set b=2` and `--set b=2 --set a=1` ran the same scenario.
    /// - Complexity: O(n log n) in the overrides.
    package static func effective(_ overrides: [String]) -> [String] {
        var byPath: [String: String] = [:]
        for text in overrides {
            let path = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            byPath[path] = text
        }
        return byPath.keys.sorted().map { byPath[$0]! }
    }

    /// How many rates were tested together (those with a p-value).
    package var testedCount: Int { rows.reduce(0) { $0 + $1.changes.filter { $0.change.pValue != nil }.count } }

    /// Whether any rate moved beyond noise.
    package var changed: Bool { rows.contains { $0.changes.contains { $0.change.beyondNoise == true } } }
}
