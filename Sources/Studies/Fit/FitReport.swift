import Base
import Reports
import ScenarioFormat
import Simulator

/// What `pushsim fit` writes (docs/fit.md, "Output"): `fit-parameters.csv`, `fit-days.csv`,
/// `fit-prediction.csv`, `fitted.json` (the scenario with the fitted values) and `fit.html`.
/// Rendered whole in memory; the same inputs always give the same bytes.
package struct FitReport {
    package var study: FitStudy
    package var design: FitStudy.Design
    package var posterior: FitPosterior
    package var goodness: FitStudy.Goodness
    /// The strategies' labels, in the scenario's order.
    package var labels: [String]
    /// The scenario as the fit ran it (first point), for names and dates.
    package var scenario: Scenario
    package var commandLine: String
    /// The guessed fields' effects, the largest first; the posterior's predictions are widened by them.
    package var guesses: [FitGuess]

    /// The files' names, in the order `files` lists them.
    package static let fileNames = ["fit-parameters.csv", "fit-days.csv", "fit-prediction.csv", "fitted.json", "fit.html"]

    package init(study: FitStudy, design: FitStudy.Design, posterior: FitPosterior, labels: [String], commandLine: String,
                 guesses: [FitGuess] = []) {
        self.study = study
        self.design = design
        self.posterior = posterior
        self.posterior.widen(by: guesses)
        self.guesses = guesses
        self.goodness = FitStudy.goodness(posterior, entries: design.entries)
        self.labels = labels
        self.scenario = design.scenarios[0]
        self.commandLine = commandLine
    }

    /// The files to write, by name.
    /// - Complexity: O(entries + strategies + fine points per axis).
    package var files: [(name: String, contents: String)] {
        Array(zip(Self.fileNames, [parametersCSV(), daysCSV(), predictionCSV(), fittedScenario(), html()]))
    }

    private func number(_ value: Double, places: Int = 6) -> String { value.isFinite ? FixedPoint.decimal(value, places: places) : "" }

    /// `fit-parameters.csv`: one row per varied field, values in the field's unit
    /// (durations in seconds).
    package static let parameterColumns = ["path", "unit", "range_low", "range_high", "estimate", "low", "high", "best"]

    package func parametersCSV() -> String {
        var text = CSV.row(Self.parameterColumns)
        for (range, marginal) in zip(study.ranges, posterior.marginals) {
            let value = { (fraction: Double) in FitRange.significant(range.value(at: fraction), digits: 6) }
            text += CSV.row([range.path, range.isDuration ? "s" : "", FitRange.significant(range.low, digits: 6),
                             FitRange.significant(range.high, digits: 6), value(marginal.median), value(marginal.low),
                             value(marginal.high), value(marginal.mode)])
        }
        return text
    }

    /// `fit-days.csv`: one row per measured day and statistic.
    package static let dayColumns = ["date", "weekday", "statistic", "measured", "measured_se", "fitted", "fitted_se", "z"]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    package func daysCSV() -> String {
        var text = CSV.row(Self.dayColumns)
        for (entry, residual) in zip(design.entries, posterior.residuals) {
            text += CSV.row([study.series.days[entry.row].date.description, Self.weekdays[entry.weekday], entry.statistic.name,
                             number(entry.value), number(residual.measuredError), number(residual.fitted),
                             number(residual.fittedError), number(residual.z, places: 3)])
        }
        return text
    }

    /// `fit-prediction.csv`: one row per strategy.
    package static let predictionColumns = ["strategy", "measured", "deliverability", "deliverability_se", "deliverability_low",
                                            "deliverability_high", "parameter_se", "simulation_se", "guess_se", "gain", "gain_se",
                                            "gain_low", "gain_high"]

    package func predictionCSV() -> String {
        var text = CSV.row(Self.predictionColumns)
        for (index, label) in labels.enumerated() {
            let d = posterior.deliverability[index], g = posterior.gain[index]
            let own = index == design.measured
            text += CSV.row([label, own ? "true" : "false", number(d.value), number(d.standardError), number(max(0, d.low)),
                             number(min(1, d.high)), number(d.parameterError), number(d.simulationError), number(d.guessError),
                             own ? "" : number(g.value), own ? "" : number(g.standardError),
                             own ? "" : number(g.low), own ? "" : number(g.high)])
        }
        return text
    }

    /// `fitted.json`: the scenario file with the measured period, the `--set` overrides
    /// and each varied field at its estimate, its description saying so.
    package func fittedScenario() -> String {
        let estimates = study.estimates(posterior)
        let note = " Fitted by pushsim fit to " + study.series.file + " (" + "\(study.series.days.count) days from \(study.series.days[0].date), "
            + study.series.timeZone + "): " + zip(study.ranges, posterior.marginals).map { range, marginal in
                range.path + " = " + range.display(range.value(at: marginal.median)) + " [" + range.display(range.value(at: marginal.low))
                    + ", " + range.display(range.value(at: marginal.high)) + "]"
            }.joined(separator: ", ") + "."
        var overrides = design.period + study.sets + estimates
        if let description = try? ScenarioOverride(path: "description", value: JSONText.string(scenario.description + note), argument: "description") {
            overrides.append(description)
        }
        return JSONText.pretty(ScenarioOverride.text(study.scenarioBytes, overrides: overrides) ?? "{}\n")
    }

    /// A varied field's answer for people: `38.2m [31.0m, 46.5m]`.
    package func answer(_ axis: Int) -> (estimate: String, interval: String) {
        let range = study.ranges[axis], marginal = posterior.marginals[axis]
        return (range.display(range.value(at: marginal.median)),
                "[" + range.display(range.value(at: marginal.low)) + ", " + range.display(range.value(at: marginal.high)) + "]")
    }

    /// The goodness of fit in one sentence.
    package var goodnessLine: String {
        let g = goodness
        var line = "chi-square \(FixedPoint.decimal(g.chiSquare, places: 1)) on \(g.degreesOfFreedom) degrees of freedom "
            + "(p = \(FixedPoint.decimal(g.pValue, places: 3)))"
        if g.weekendZ.isFinite {
            line += "; weekends' residuals against weekdays' \(g.weekendShift >= 0 ? "+" : "")\(FixedPoint.decimal(g.weekendShift, places: 2)) SD "
                + "(z \(FixedPoint.decimal(g.weekendZ, places: 1)))"
        }
        if let worst = g.worstPattern {
            line += "; weekday pattern: worst \(worst.statistic.name) F \(FixedPoint.decimal(worst.f, places: 2)) on \(worst.d1) and "
                + "\(worst.d2) degrees of freedom (p = \(FixedPoint.decimal(worst.pValue, places: 3)), \(g.patterns.count) figure"
                + "\(g.patterns.count == 1 ? "" : "s") tested)"
        }
        guard !g.isGood else { return line + ": a good fit" }
        var why: [String] = []
        if g.pValue < FitStudy.Goodness.chiSquareLevel { why.append("p < " + number(FitStudy.Goodness.chiSquareLevel, places: 3)) }
        if g.patternP < FitStudy.Goodness.patternLevel, let worst = g.worstPattern {
            why.append("\(worst.statistic.name)'s days differ by weekday more than their scatter allows: check "
                       + worst.statistic.movedBy.filter { $0.contains("weekend") || $0.contains("launches") }.joined(separator: ", "))
        }
        if abs(g.weekendZ) >= 3 { why.append("weekends differ") }
        return line + ": a poor fit (" + why.joined(separator: "; ") + "), so read the prediction with care"
    }

    /// How the day errors' tail was read, in one sentence.
    package var tailLine: String {
        let robustness = posterior.robustness
        guard robustness.degreesOfFreedom.isFinite else { return "day errors: Gaussian (no day far off the others)" }
        let outliers = robustness.outliers.count
        return "day errors: Student-t with \(FitRange.significant(robustness.degreesOfFreedom, digits: 2)) degrees of freedom "
            + "(estimated from the days); " + (outliers == 0 ? "no outlier day" : "\(outliers) outlier day\(outliers == 1 ? "" : "s"), "
            + "discounted rather than followed")
    }

    /// One line per outlier day: its date, each figure's residual there and its weight.
    package var outlierLines: [String] {
        posterior.robustness.outliers.map { outlier in
            let row = design.entries[outlier.entries[0]].row
            let figures = outlier.entries.map { entry in
                let z = posterior.residuals[entry].z
                return design.entries[entry].statistic.name + " residual " + (z >= 0 ? "+" : "") + FixedPoint.decimal(z, places: 1) + " SD"
            }
            return "\(study.series.days[row].date) (\(Self.weekdays[design.entries[outlier.entries[0]].weekday])): "
                + figures.joined(separator: ", ") + "; counted with weight " + FitRange.significant(outlier.weight, digits: 2)
        }
    }

    /// The statistics the fit read: the file's, but those no day of which told the points apart.
    package var fittedStatistics: [FitStatistic] {
        study.series.statistics.filter { statistic in
            zip(design.entries, posterior.residuals).contains { $0.0.statistic == statistic && $0.1.z.isFinite }
        }
    }

    /// The stdout table.
    package func table() -> String {
        var text = "fit: \(UserText.path(study.file)) to \(UserText.path(study.series.file)) (\(study.series.days.count) days from "
            + "\(study.series.days[0].date), \(study.series.timeZone); "
            + fittedStatistics.map(\.name).joined(separator: ", ") + "), measured strategy \(labels[design.measured])\n\n"
        var rows = [["field", "range", "estimate", "95% interval"]]
        for (axis, range) in study.ranges.enumerated() {
            let answer = answer(axis)
            rows.append([range.path, range.display(range.low) + ".." + range.display(range.high), answer.estimate, answer.interval])
        }
        text += TextColumns.lines(rows) + "\ngoodness of fit: " + goodnessLine + "\n" + tailLine + "\n"
        for line in outlierLines { text += "  outlier day " + line + "\n" }
        text += "\n"
        rows = [["strategy", "true deliverability", "95% interval", "gain over " + labels[design.measured], "95% interval"]]
        for (index, label) in labels.enumerated() {
            let d = posterior.deliverability[index], g = posterior.gain[index]
            let own = index == design.measured
            rows.append([label + (own ? " (measured)" : ""), number(d.value, places: 4),
                         "[" + number(max(0, d.low), places: 4) + ", " + number(min(1, d.high), places: 4) + "]",
                         own ? "–" : (g.value >= 0 ? "+" : "") + number(g.value, places: 4),
                         own ? "" : "[" + number(g.low, places: 4) + ", " + number(g.high, places: 4) + "]"])
        }
        text += TextColumns.lines(rows)
        guard !guesses.isEmpty else { return text + "(intervals carry the fields' uncertainty and the simulation's)\n" }
        return text + "(intervals carry the fields' uncertainty, the simulation's and the guessed fields')\n\n" + guessTable()
    }

    /// The strategy a guess moves most, by `effects` (one per strategy); nil when it moves none
    /// (a field the model does not read: "none", not a strategy picked among zeros). The
    /// measured strategy's gain is 0 by definition: not a candidate.
    /// - Complexity: O(strategies).
    func largestEffect(_ effects: [Double]) -> Int? {
        let candidates = effects.count > 1 && effects[design.measured] == 0 ? effects.indices.filter { $0 != design.measured } : Array(effects.indices)
        guard let top = candidates.max(by: { effects[$0] < effects[$1] }), effects[top] > 0 else { return nil }
        return top
    }

    /// The guessed fields, the largest effect first: each one's ± effect (half the change from
    /// LOW to HIGH) on the deliverability and on the gain it moves most.
    package func guessTable() -> String {
        func largest(_ effects: [Double]) -> String {
            guard let top = largestEffect(effects) else { return "none" }
            return "±" + number(effects[top], places: 4) + " (" + labels[top] + ")"
        }
        var rows = [["guessed field", "range", "effect on deliverability", "effect on gain"]]
        for guess in guesses {
            rows.append([guess.range.path, guess.range.display(guess.range.low) + ".." + guess.range.display(guess.range.high),
                         largest(guess.deliverabilityEffect), labels.count > 1 ? largest(guess.gainEffect) : "–"])
        }
        return TextColumns.lines(rows) + "(each: half the change from LOW to HIGH at the fitted values, the largest strategy's; "
            + "the range read as ±2 SD, so (effect / 2)² is added to each prediction's variance)\n"
    }
}
