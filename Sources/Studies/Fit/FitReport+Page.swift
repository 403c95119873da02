import Base
import Reports
import Simulator

extension FitReport {
    /// `fit.html`: self-contained (inline SVG and CSS, no script), in the report page's
    /// style: what was fitted, whether the fit is good, measured against fitted day by
    /// day, each field's posterior over its range, and the prediction.
    /// - Complexity: O(entries + strategies + fine points per axis).
    package func html() -> String {
        let e = SVG.escape
        var html = ReportPage.head(title: "PushSim fit: " + scenario.name)
        html += ReportPage.description(scenario.description)
        let series = study.series
        html += "<dl class=\"facts\">\n"
        html += "<dt>measured</dt><dd><code>\(e(series.file))</code>: \(series.days.count) days, \(series.days[0].date) to "
            + "\(series.days[series.days.count - 1].date) (\(e(series.timeZone))); "
            + e(series.statistics.map(\.name).joined(separator: ", ")) + "</dd>\n"
        html += "<dt>measured strategy</dt><dd>\(e(labels[design.measured]))</dd>\n"
        for range in study.ranges {
            html += "<dt>varied</dt><dd><code>\(e(range.path))</code> from \(e(range.display(range.low))) to \(e(range.display(range.high)))</dd>\n"
        }
        for override in study.sets { html += "<dt>set</dt><dd><code>\(e(override.path))</code> = \(e(override.valueText))</dd>\n" }
        html += "<dt>design</dt><dd>\(design.scenarios.count) points (\(posterior.nodesPerAxis) per field), each \(scenario.devices) devices "
            + "with seed \(scenario.seed) (common random numbers)</dd>\n"
        html += "<dt>command</dt><dd><code>\(e(commandLine))</code></dd>\n"
        html += "</dl>\n</header>\n"

        let sentence = goodnessLine.prefix(1).uppercased() + goodnessLine.dropFirst()
        html += "<section id=\"goodness\">\n<h2>Goodness of fit</h2>\n<p>" + e(sentence) + ".</p>\n"
        html += "<p class=\"note\">Each day's residual is (measured − fitted) over the square root of both variances: the simulation's "
            + "and the measured figure's own. A figure's days move together (the same users; the days' errors add up to "
            + "\(FixedPoint.decimal(posterior.dayCorrelation, places: 2)) times what independent days would give): what they share is "
            + "counted once, as an error of the figure's level, in the chi-square as in the fit. "
            + "A p-value under " + FixedPoint.decimal(FitStudy.Goodness.chiSquareLevel, places: 3) + ", a figure whose days differ by weekday more than their own scatter allows (an F test, "
            + "Bonferroni over the figures, at " + FixedPoint.decimal(FitStudy.Goodness.patternLevel * 100, places: 1) + "%), or weekends off by 3 standard errors, "
            + "says the scenario misses something the figures show. The p-value is nominal (the days' dispersion is read from the same days); "
            + "these levels were set by simulating the model, where they call about 5% of its own series poor.</p>\n"
        let tail = tailLine.prefix(1).uppercased() + tailLine.dropFirst()
        html += "<p id=\"outliers\">" + e(tail) + ".</p>\n"
        if !outlierLines.isEmpty {
            html += "<ul class=\"outliers\">\n" + outlierLines.map { "<li>" + e($0) + "</li>\n" }.joined() + "</ul>\n"
        }
        html += residualFigure()
        html += "</section>\n"

        html += "<section id=\"days\">\n<h2>Measured against fitted, day by day</h2>\n"
        for statistic in series.statistics {
            if let chart = dayChart(statistic) {
                let caption = statistic.name.replacing(every: "_", with: " ")
                html += "<figure>\n<figcaption>" + e(caption) + "</figcaption>\n" + chart.svg()
                    + "<p class=\"note\">\(e(statistic.summary)). Points: measured, with their 95% sampling interval; line: the "
                    + "simulation at the fitted values, shaded where 95% of measured figures would fall." + e(levelNote(statistic)) + "</p>\n</figure>\n"
            } else {
                html += "<p class=\"empty\">" + e(statistic.name.replacing(every: "_", with: " ")) + ": the same on every day, "
                    + "measured and simulated at every point (0, or a share's 1), so it tells the points nothing and is not fitted.</p>\n"
            }
        }
        html += "</section>\n"

        html += "<section id=\"fields\">\n<h2>The fields</h2>\n"
        var rows: [[String]] = []
        for (axis, range) in study.ranges.enumerated() {
            let answer = answer(axis)
            rows.append([range.path, range.display(range.low) + " to " + range.display(range.high), answer.estimate, answer.interval])
        }
        html += ReportPage.table(["field", "range", "estimate (median)", "95% interval"], rows)
        for axis in study.ranges.indices { html += "<figure>\n" + densityChart(axis).svg() + "</figure>\n" }
        html += "<p class=\"note\">The posterior of each field under a flat prior over its range, from a Gaussian likelihood of "
            + "the measured figures against the simulated ones, smoothed over the design's points (docs/fit.md, \"Method\"); shaded: its 95% interval.</p>\n"
        html += "</section>\n"

        html += "<section id=\"prediction\">\n<h2>Prediction</h2>\n"
        rows = labels.indices.map { index in
            let d = posterior.deliverability[index], g = posterior.gain[index]
            let own = index == design.measured
            let value = { (x: Double) in FixedPoint.decimal(100 * x, places: 2) + "%" }
            return [labels[index] + (own ? " (measured)" : ""), value(d.value),
                    value(max(0, d.low)) + " to " + value(min(1, d.high)),
                    own ? "–" : (g.value >= 0 ? "+" : "") + FixedPoint.decimal(100 * g.value, places: 2) + " pp",
                    own ? "" : FixedPoint.decimal(100 * g.low, places: 2) + " to " + FixedPoint.decimal(100 * g.high, places: 2) + " pp"]
        }
        html += ReportPage.table(["strategy", "true deliverability", "95% interval", "gain over " + labels[design.measured], "95% interval"], rows,
                                 caption: "Over the measured days, for the fitted population")
        html += "<p class=\"note\">True deliverability: mail whose own notification was shown, of all mail (not the talk's measured figure). "
            + "The intervals carry the fields' uncertainty (the team's own sampling, through the fields) and the simulation's, less what the fitted fields absorb of it (both read over blocks of users); "
            + "a gain is paired, every strategy seeing the same users.</p>\n</section>\n"
        html += guessSection()
        html += "<footer>Written by pushsim fit; the figures are in fit-parameters.csv, fit-days.csv and fit-prediction.csv, "
            + "the fitted scenario in fitted.json.</footer>\n</body>\n</html>\n"
        return html
    }

    /// Measured figures of `statistic` (points with 95% bars) against the fit (a line with
    /// its predictive band), over the measured days; weekends shaded.
    func dayChart(_ statistic: FitStatistic) -> LineChart? {
        let entries = zip(design.entries, posterior.residuals).filter { $0.0.statistic == statistic && $0.1.fitted.isFinite }
        guard !entries.isEmpty else { return nil }
        let days = study.series.span
        var measured = LineChart.Series(label: "measured", colour: Palette.series(0), points: [], markers: true, marker: Marker.series(0))
        var fitted = LineChart.Series(label: "fitted", colour: Palette.series(1), points: [], band: [])
        // A share in percent; a rate (launches per mail) as it is.
        let scale = statistic.isShare ? 100.0 : 1.0
        func shown(_ value: Double) -> Double { scale * min(max(value, statistic.range.lowerBound), statistic.range.upperBound) }
        for (entry, residual) in entries {
            let x = Double(entry.day)
            measured.points.append((x, scale * entry.value))
            measured.errorBars.append((x, shown(entry.value - 1.96 * residual.measuredError), shown(entry.value + 1.96 * residual.measuredError)))
            fitted.points.append((x, scale * residual.fitted))
            let spread = 1.96 * (residual.fittedError * residual.fittedError + residual.measuredError * residual.measuredError).squareRoot()
            fitted.band?.append((x, shown(residual.fitted - spread), shown(residual.fitted + spread)))
        }
        let ys = measured.errorBars.flatMap { [$0.lower, $0.upper] } + (fitted.band ?? []).flatMap { [$0.lower, $0.upper] }
        var yAxis = Axis.linear(statistic.name.replacing(every: "_", with: " ") + (statistic.isShare ? " (%)" : ""),
                                covering: (ys.min() ?? 0)...(ys.max() ?? scale))
        yAxis.domain = max(0, yAxis.domain.lowerBound)...min(scale * statistic.range.upperBound, yAxis.domain.upperBound)
        yAxis.ticks.removeAll { !yAxis.domain.contains($0.value) }
        let weekends = weekendRanges(days: days)
        let first = study.series.days[0].date
        var axis = ReportCharts.dayAxis(start: first, days: days)
        axis.label = "day (" + study.series.timeZone + "; weekends shaded)"
        return LineChart(id: "fit-\(statistic.name)", title: statistic.name + ": measured against fitted", xAxis: axis, yAxis: yAxis,
                         series: [fitted, measured], shaded: weekends, shadedLabel: "weekend", height: 320)
    }

    /// Field `axis`'s posterior density over its range, relative to its peak; the 95%
    /// interval shaded, the estimate marked.
    func densityChart(_ axis: Int) -> LineChart {
        let range = study.ranges[axis], marginal = posterior.marginals[axis]
        // Durations in one unit for the axis.
        var unit = ("", 1.0)
        if range.isDuration {
            let largest = range.value(at: marginal.window.upperBound)
            unit = [("d", 86_400.0), ("h", 3_600.0), ("min", 60.0), ("s", 1.0)].first { largest >= 2 * $0.1 } ?? ("s", 1)
        }
        let x = { (fraction: Double) in range.value(at: fraction) / unit.1 }
        let n = marginal.density.count, window = marginal.window
        let points = marginal.density.enumerated().map { offset, density in
            (x(window.lowerBound + (window.upperBound - window.lowerBound) * Double(offset) / Double(n - 1)), Optional(density))
        }
        let whole = window == 0...1
        var xAxis = Axis.linear(range.path + (unit.0.isEmpty ? "" : " (" + unit.0 + ")")
                                + (whole ? "" : "; where the posterior is, within " + range.display(range.low) + " to " + range.display(range.high)),
                                covering: x(window.lowerBound)...x(window.upperBound))
        xAxis.domain = x(window.lowerBound)...x(window.upperBound)
        xAxis.ticks.removeAll { !xAxis.domain.contains($0.value) }
        var yAxis = Axis.linear("posterior (relative to its peak)", covering: 0...1)
        yAxis.domain = 0...1.05
        let estimate = answer(axis).estimate
        return LineChart(id: "fit-field-\(axis)", title: range.path + ": posterior over its range", xAxis: xAxis, yAxis: yAxis,
                         series: [LineChart.Series(label: "posterior", colour: Palette.series(0), points: points)],
                         shaded: [x(marginal.low)...x(marginal.high)], shadedLabel: "95% interval",
                         references: [Tick(value: x(marginal.median), label: "estimate " + estimate)], height: 240)
    }

    /// The guessed fields' effects as a table, the largest first; empty without `--guess`.
    private func guessSection() -> String {
        guard !guesses.isEmpty else { return "" }
        func largest(_ effects: [Double]) -> String {
            guard let top = largestEffect(effects) else { return "none" }
            return "±" + FixedPoint.decimal(100 * effects[top], places: 2) + " pp (" + labels[top] + ")"
        }
        let rows = guesses.map { guess in
            [guess.range.path, guess.range.display(guess.range.low) + ".." + guess.range.display(guess.range.high),
             largest(guess.deliverabilityEffect), labels.count > 1 ? largest(guess.gainEffect) : "–"]
        }
        return "<section id=\"guesses\">\n<h2>Guessed fields</h2>\n"
            + ReportPage.table(["guessed field", "range", "effect on deliverability", "effect on gain"], rows,
                               caption: "Fields not fitted, the largest effect first")
            + "<p class=\"note\">Each effect is half the change from the range's low end to its high end, run at the fitted values with "
            + "the same seed; the range is read as ±2 standard deviations, so (effect / 2)² is added to each prediction's variance: "
            + "the intervals above include it. \"none\": the field moves no strategy's figure over its range "
            + "(the model does not read it here).</p>\n</section>\n"
    }
}
