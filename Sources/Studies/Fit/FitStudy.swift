import Base
import FoundationEssentials
import Reports
import ScenarioFormat
import Simulator

/// `pushsim fit` without the command line: the design of simulated points for a
/// scenario, a team's measured figures and the varied fields; then, from the points'
/// results, the posterior, the prediction and the checks (docs/fit.md).
package struct FitStudy: Sendable {
    package var scenarioBytes: [UInt8]
    package var file: String
    package var series: MeasuredSeries
    package var ranges: [FitRange]
    /// `--guess`: fields not fitted whose effect on the prediction is run and added (`FitGuess`).
    package var guesses: [FitRange]
    /// `--set` overrides, applied before the varied fields.
    package var sets: [ScenarioOverride]
    package var seed: UInt64?
    /// The label of the strategy the measured figures come from; nil: the first.
    package var measuredLabel: String?
    package var nodesPerAxis: Int

    /// Fewest measured days a fit reads: a week, so every weekday is seen.
    package static let minimumDays = 7
    /// Most varied fields.
    package static let maximumAxes = 3
    /// Nodes per axis by default, for 1, 2 and 3 varied fields.
    package static func defaultNodes(axes: Int) -> Int { [7, 7, 7, 5][min(axes, 3)] }

    package init(scenarioBytes: [UInt8], file: String, series: MeasuredSeries, ranges: [FitRange], sets: [ScenarioOverride],
                 seed: UInt64?, measuredLabel: String?, nodesPerAxis: Int?, guesses: [FitRange] = []) {
        self.scenarioBytes = scenarioBytes
        self.guesses = guesses
        self.file = file
        self.series = series
        self.ranges = ranges
        self.sets = sets
        self.seed = seed
        self.measuredLabel = measuredLabel
        self.nodesPerAxis = nodesPerAxis ?? Self.defaultNodes(axes: ranges.count)
    }

    /// The design: one scenario per grid point (the last field varying fastest), each the
    /// file with the measured days as its period, the `--set` overrides and the point's
    /// values; and the measured strategy's index in them.
    package struct Design: Sendable {
        package var scenarios: [Scenario]
        package var overrides: [[ScenarioOverride]]
        package var measured: Int
        package var entries: [FitEntry]
        /// The period overrides: `start` at the first measured day, `duration` to a day past the last.
        package var period: [ScenarioOverride]
    }

    /// Decodes every point (each checked as a scenario is); a refusal before anything runs
    /// (too few days, too many fields, an unknown strategy) is a scenario error.
    /// - Complexity: O(points × scenario size).
    package func design() throws(ScenarioError) -> Design {
        func refuse(_ message: String) -> ScenarioError { ScenarioError(.invalidValue(message), file: series.file, path: "", location: nil) }
        guard !ranges.isEmpty, ranges.count <= Self.maximumAxes else {
            throw ScenarioError(.invalidValue("vary 1 to \(Self.maximumAxes) fields (--vary PATH=LOW..HIGH), not \(ranges.count)"),
                                file: "--vary", path: "", location: nil)
        }
        for (index, range) in ranges.enumerated() where ranges[..<index].contains(where: { $0.path == range.path }) {
            throw ScenarioError(.invalidValue("\(range.path) is varied twice"), file: "--vary " + range.argument, path: "", location: nil)
        }
        for range in ranges {
            if let set = sets.first(where: { $0.path == range.path }) {
                throw ScenarioError(.invalidValue("\(range.path) is varied and also set (--set \(set.path)=\(set.valueText)): drop one"),
                                    file: "--vary " + range.argument, path: "", location: nil)
            }
        }
        try checkGuesses()
        let entries = FitEntry.entries(series)
        let days = Set(entries.map(\.day)).count
        guard days >= Self.minimumDays else {
            throw refuse("\(days) measured day\(days == 1 ? "" : "s") with figures; a fit needs at least \(Self.minimumDays) (a week, so every weekday is seen)")
        }
        guard let first = series.days.first?.date else { throw refuse("no rows") }
        let period = [try ScenarioOverride(path: "start", value: "\"\(first)\"", argument: "start=\(first)"),
                      try ScenarioOverride(path: "duration", value: "\(series.span + 1)d", argument: "duration=\(series.span + 1)d")]
        var scenarios: [Scenario] = []
        var overrides: [[ScenarioOverride]] = []
        var total = 1
        for _ in ranges { total *= nodesPerAxis }
        for point in 0..<total {
            var rest = point
            var values = [ScenarioOverride](repeating: period[0], count: ranges.count)
            for axis in ranges.indices.reversed() {
                let node = rest % nodesPerAxis
                rest /= nodesPerAxis
                let range = ranges[axis]
                let text = range.text(range.value(at: Double(node) / Double(nodesPerAxis - 1)))
                values[axis] = try ScenarioOverride(path: range.path, value: text, argument: range.path + "=" + text)
            }
            var scenario: Scenario
            do {
                scenario = try ScenarioDecoder.decode(scenarioBytes, file: file, overrides: period + sets + values)
            } catch {
                // The grid's own values name the --vary argument they came from (a path the
                // scenario has no field for, too); the period, the measured file's dates.
                var error = error
                if let range = ranges.first(where: { error.file.hasPrefix("--set " + $0.path + "=") || Self.names(error.path, in: $0.path) }) {
                    error.file = "--vary " + range.argument
                    error.location = nil
                } else if error.file.hasPrefix("--set start=") || error.file.hasPrefix("--set duration=") {
                    var why = error.description
                    if case .invalidValue(let message) = error.kind { why = message }
                    error = ScenarioError(.invalidValue("its days (\(first) to \(series.days[series.days.count - 1].date)) do not make a "
                                                        + "scenario's period: " + why), file: series.file, path: "date", location: nil)
                } else if (try? ScenarioDecoder.decode(scenarioBytes, file: file, overrides: sets + values)) != nil {
                    // Fine in the scenario's own period, not in the measured one (a dated outage
                    // or rollout outside it): say, once, that the fit replaced the period.
                    var last = error.more.last ?? error
                    let lastDate = series.days[series.days.count - 1].date
                    let labels = (try? ScenarioDecoder.decode(scenarioBytes, file: file, overrides: sets + values))?.strategies.map(\.label) ?? []
                    let fixes = Self.dateFixes([error] + error.more, bytes: scenarioBytes, labels: labels, first: first, last: lastDate)
                    let fix = fixes.isEmpty ? "--set such fields to fit in them"
                        : "these move them in by rule (docs/fit.md, \"Dates by rule\"): " + fixes.map { "--set " + Self.shellQuoted($0) }.joined(separator: " ")
                    if case .invalidValue(let message) = last.kind {
                        last.kind = .invalidValue(message + " (the fit runs the measured days, \(first) for \(series.span + 1) days, "
                                                  + "in place of the scenario's start and duration: " + fix + ")")
                        if error.more.isEmpty { error = last } else { error.more[error.more.count - 1] = last }
                    }
                }
                throw error
            }
            if let seed { scenario.seed = seed }
            scenarios.append(scenario)
            overrides.append(values)
        }
        // An unknown label is the command line's mistake: `measuredIndex` says so first.
        // Each guess's ends decode at the first point, so a bad one stops the fit before anything runs.
        _ = try FitGuess.scenarios(self, period: period, estimates: overrides[0])
        let measured = measuredLabel.flatMap { label in scenarios[0].strategies.firstIndex { $0.label == label } } ?? 0
        return Design(scenarios: scenarios, overrides: overrides, measured: measured, entries: entries, period: period)
    }

    /// Simulates the design's points (a strategy a point leaves as an earlier point had it is
    /// taken from there, as in a sweep: `SweepPlan`) and reads each point's node;
    /// `pointDone(index, seconds)` after each.
    /// - Complexity: the simulations', plus O(points × entries × blocks).
    package static func nodes(_ design: Design, simulate: (Scenario) throws -> SimulationResult,
                              pointDone: (Int, Double) -> Void = { _, _ in }) throws -> [FitNode] {
        let plan = SweepPlan(design.scenarios)
        var simulated: [SimulationResult?] = []
        var nodes: [FitNode] = []
        for (number, scenario) in design.scenarios.enumerated() {
            let started = ContinuousClock.now
            simulated.append(try plan.scenarioToSimulate(scenario, point: number).map(simulate))
            let result = plan.result(number, strategies: scenario.strategies, results: simulated)
            nodes.append(FitNode(result, measured: design.measured, entries: design.entries))
            let elapsed = ContinuousClock.now - started
            pointDone(number, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return nodes
    }

    /// `text` in single quotes for a shell, a quote inside written '\\''.
    static func shellQuoted(_ text: String) -> String { "'" + text.replacing(every: "'", with: "'\\''") + "'" }

    /// Whether an error at scenario path `errorPath` is about the field at `path` or an
    /// object on the way to it (`nosuch` of `nosuch.field`).
    static func names(_ errorPath: String, in path: String) -> Bool {
        !errorPath.isEmpty && (path == errorPath || path.hasPrefix(errorPath + ".") || path.hasPrefix(errorPath + "["))
    }

    /// Why the figures cannot fix the fields, for a refusal; nil when they can.
    package enum Refusal: Equatable, Sendable {
        /// No measured figure tells the points apart (each is 0 or 1 on every day, as the simulation's).
        case noInformation
        /// Two fields move the figures the same way (posterior correlation).
        case tradeOff(Int, Int, correlation: Double)
        /// The figures fit as well across the whole range.
        case notIdentified(Int)
        /// The best values lie at an end of the range, and the interval runs into it.
        case pastRange(Int, high: Bool)
    }

    /// The first reason the posterior cannot be read as an answer.
    /// - Complexity: O(axes² + fine points).
    package static func refusal(_ posterior: FitPosterior) -> Refusal? {
        guard posterior.residuals.contains(where: { $0.z.isFinite }) else { return .noInformation }
        let axes = posterior.axes
        for a in 0..<axes {
            for b in (a + 1)..<max(axes, a + 1) {
                let rho = posterior.correlation[a * axes + b]
                let wide = { (m: FitPosterior.Marginal) in m.high - m.low >= 0.3 }
                if abs(rho) >= 0.9 && wide(posterior.marginals[a]) && wide(posterior.marginals[b]) {
                    return .tradeOff(a, b, correlation: rho)
                }
            }
        }
        for (axis, marginal) in posterior.marginals.enumerated() where marginal.high - marginal.low >= 0.8 {
            return .notIdentified(axis)
        }
        // The best value and the interval pressed against an end of the range.
        for (axis, marginal) in posterior.marginals.enumerated() {
            if marginal.mode < 0.05 && marginal.low < 0.02 { return .pastRange(axis, high: false) }
            if marginal.mode > 0.95 && marginal.high > 0.98 { return .pastRange(axis, high: true) }
        }
        return nil
    }

    /// The refusal as one line, naming the fields and their ranges, and for a range that cannot
    /// reach the figures, the end's value and the figures still off there with the fields that
    /// move them (`entries`: the fit's, to read each figure's residuals).
    /// - Complexity: O(entries).
    package func message(_ refusal: Refusal, _ posterior: FitPosterior, entries: [FitEntry] = []) -> String {
        func named(_ axis: Int) -> String { ranges[axis].path + " (" + ranges[axis].display(ranges[axis].low) + ".."
            + ranges[axis].display(ranges[axis].high) + ")" }
        switch refusal {
        case .noInformation:
            return "no figure tells the points apart: on every day each is 0 or 1, measured and simulated at every point "
                + "(no user counted, or every mail logged); a fit needs figures in between (docs/fit.md, \"The measured file\")"
        case .tradeOff(let a, let b, let rho):
            return "\(named(a)) and \(named(b)) trade off: the figures fix a combination of them, not each "
                + "(posterior correlation \(FitRange.significant(rho, digits: 2))); vary one and fix the other with --set"
        case .notIdentified(let axis):
            return "\(named(axis)) is not identified by these figures: they fit about as well across its range "
                + "(the 95% interval covers \(Int((100 * (posterior.marginals[axis].high - posterior.marginals[axis].low)).rounded()))% of it); "
                + "fix it with --set, or measure what it moves"
        case .pastRange(let axis, let high):
            let range = ranges[axis]
            let end = range.display(high ? range.high : range.low)
            return "the figures favour \(range.path) at or \(high ? "above" : "below") \(end), the \(high ? "high" : "low") end of its range "
                + range.display(range.low) + ".." + range.display(range.high) + ": the range cannot reach them; widen it"
                + (high ? " upwards" : " downwards") + " if the field allows" + Self.figuresOff(posterior, entries: entries, varied: ranges.map(\.path))
        }
    }

    /// Each fitted figure's mean residual (in SDs) at the mode, the farthest first.
    /// - Complexity: O(entries).
    package static func figureOffsets(_ posterior: FitPosterior, entries: [FitEntry]) -> [(statistic: FitStatistic, meanZ: Double)] {
        var sums: [FitStatistic: (total: Double, count: Double)] = [:]
        for (entry, residual) in zip(entries, posterior.residuals) where residual.z.isFinite {
            sums[entry.statistic, default: (0, 0)].total += residual.z
            sums[entry.statistic, default: (0, 0)].count += 1
        }
        return FitStatistic.allCases.compactMap { statistic in sums[statistic].map { (statistic, $0.total / $0.count) } }
            .sorted { abs($0.meanZ) > abs($1.meanZ) }
    }

    /// "; there measured_deliverability still sits 2.1 SD below the fit on average (active_share
    /// 0.4 SD above): check the scenario's fields that move it besides the varied ones: …".
    static func figuresOff(_ posterior: FitPosterior, entries: [FitEntry], varied: [String]) -> String {
        let offsets = figureOffsets(posterior, entries: entries)
        guard let worst = offsets.first else { return ", or check the scenario's fields that move the measured figures" }
        func off(_ item: (statistic: FitStatistic, meanZ: Double)) -> String {
            FixedPoint.decimal(abs(item.meanZ), places: 1) + " SD " + (item.meanZ < 0 ? "below" : "above")
        }
        let others = offsets.dropFirst().map { $0.statistic.name + " " + off($0) }
        let fields = worst.statistic.movedBy.filter { field in !varied.contains { $0 == field || $0.hasPrefix(field + ".") } }
        return "; there \(worst.statistic.name) still sits \(off(worst)) the fit on average"
            + (others.isEmpty ? "" : " (" + others.joined(separator: ", ") + ")")
            + (fields.isEmpty ? "" : ": check the scenario's fields that move it besides the varied ones: " + fields.joined(separator: ", "))
    }

    /// Each varied field's estimate (the posterior median) as an override.
    /// - Complexity: O(axes).
    package func estimates(_ posterior: FitPosterior) -> [ScenarioOverride] {
        zip(ranges, posterior.marginals).map { range, marginal in
            let text = range.text(range.value(at: marginal.median))
            return try! ScenarioOverride(path: range.path, value: text, argument: range.path + "=" + text)
        }
    }
}
