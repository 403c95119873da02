import Base
import Reports
import Simulator

/// The outputs of `pushsim sweep`: `sweep.csv` (every rate with its standard error, one
/// row per point and strategy) and `sweep.html` (the headline rates against the first
/// swept field, one line per strategy, error bars spanning the 95% interval that
/// `summary.csv`'s `_low`/`_high` hold). Rendered whole in memory; the same results
/// always give the same bytes.
package struct SweepReport {
    /// One simulated point: its value index per axis, the scenario as run and its result.
    package struct Point {
        package var indices: [Int]
        package var scenario: Scenario
        package var result: SimulationResult
        package init(indices: [Int], scenario: Scenario, result: SimulationResult) {
            self.indices = indices
            self.scenario = scenario
            self.result = result
        }
    }

    /// The files' names, in the order `files` lists them.
    package static let fileNames = ["sweep.csv", "sweep.html"]

    /// The rates `sweep.html` draws (every rate is in `sweep.csv`).
    package static let chartedMetrics: [Metric] = [.deliverability, .informedRate, .measuredDeliverability, .pushesPerMessage]

    package var grid: SweepGrid
    package var points: [Point]
    /// The command line shown on the page.
    package var commandLine: String

    /// The files to write, by name.
    /// - Complexity: O(points × strategies × metrics).
    package var files: [(name: String, contents: String)] { Array(zip(Self.fileNames, [csv(), html()])) }

    /// `sweep.csv`'s columns: the swept paths, `strategy`, then each rate and its `_se`.
    /// - Complexity: O(axes + metrics).
    package static func columns(_ grid: SweepGrid) -> [String] {
        grid.axes.map(\.path) + ["strategy"] + Metric.allCases.flatMap { [$0.name, $0.name + "_se"] }
    }

    /// Strategy `index`'s `metric` in `result` as `summary.csv` writes it: the exact
    /// ratio with 6 decimals (4 for pushes per message), a loss share's estimate with 6;
    /// empty when nothing was counted.
    /// - Complexity: O(digits).
    package static func rate(_ metric: Metric, _ result: SimulationResult, strategy index: Int) -> String {
        let aggregate = result.aggregates[index]
        switch metric {
        case .pushesPerMessage:
            return FixedPoint.ratio(metric.numerator(of: aggregate), metric.denominator(of: aggregate), places: 4)
        case .deliverability, .informedRate, .measuredDeliverability:
            return FixedPoint.ratio(metric.numerator(of: aggregate), metric.denominator(of: aggregate), places: 6)
        case .lostShare:
            guard metric.denominator(of: aggregate) > 0 else { return "" }
            return FixedPoint.decimal(result.estimate(metric, strategy: index).value, places: 6)
        }
    }

    /// A standard error as `summary.csv` writes it: 6 decimals; empty when not known.
    /// - Complexity: O(digits).
    package static func standardError(_ estimate: Estimate) -> String {
        estimate.hasStandardError ? FixedPoint.decimal(estimate.standardError, places: 6) : ""
    }

    /// `sweep.csv`.
    /// - Complexity: O(points × strategies × metrics).
    package func csv() -> String {
        var text = CSV.row(Self.columns(grid))
        for point in points {
            let values = zip(grid.axes, point.indices).map { $0.texts[$1] }
            for (index, strategy) in point.result.strategies.enumerated() {
                let rates = Metric.allCases.flatMap { metric in
                    [Self.rate(metric, point.result, strategy: index), Self.standardError(point.result.estimate(metric, strategy: index))]
                }
                text += CSV.row(values + [strategy.label] + rates)
            }
        }
        return text
    }

    /// The charts of `metric`: one per combination of the other axes' values, x the
    /// first axis, one line per strategy label (in order of first appearance), each with
    /// its colour and marker shape. A combination where no point has anything to divide
    /// by has no chart (nil): an empty frame would say nothing, `emptyReason` says why.
    /// - Complexity: O(points × strategies × log(strategies)).
    package func charts(_ metric: Metric) -> [(caption: String?, chart: LineChart?)] {
        let isShare = switch metric {
        case .pushesPerMessage: false
        case .deliverability, .informedRate, .measuredDeliverability, .lostShare: true
        }
        let scale = isShare ? 100.0 : 1.0
        let first = grid.axes[0]
        let xValues = self.xValues
        let xAxis: Axis
        switch first.scale {
        case .numeric(let values, _):
            let low = values.min() ?? 0, high = values.max() ?? 1
            var axis = Axis.linear(first.axisLabel, covering: low...high)
            // A margin of 3% each side, so the first and last points (and their bars) stay off the frame.
            let margin = 0.03 * (axis.domain.upperBound - axis.domain.lowerBound)
            axis.domain = axis.domain.lowerBound - margin...axis.domain.upperBound + margin
            xAxis = axis
        case .categorical:
            xAxis = Axis(label: first.axisLabel, domain: -0.5...Double(first.texts.count) - 0.5,
                         ticks: first.texts.enumerated().map { Tick(value: Double($0.offset), label: $0.element) })
        }
        let labels = strategyLabels
        // Points grouped by their values on the other axes, in grid order.
        var groups: [(key: [Int], points: [Point])] = []
        for point in points {
            let key = Array(point.indices.dropFirst())
            if let index = groups.firstIndex(where: { $0.key == key }) { groups[index].points.append(point) } else { groups.append((key, [point])) }
        }
        return groups.enumerated().map { groupIndex, group in
            var series: [LineChart.Series] = []
            for (labelIndex, label) in labels.enumerated() {
                var line = LineChart.Series(label: label, colour: Palette.series(labelIndex), points: [], markers: true,
                                            marker: Marker.series(labelIndex))
                for point in group.points.sorted(by: { xValues[$0.indices[0]] < xValues[$1.indices[0]] }) {
                    guard let index = point.result.strategies.firstIndex(where: { $0.label == label }) else { continue }
                    let estimate = point.result.estimate(metric, strategy: index)
                    let x = xValues[point.indices[0]]
                    // Nothing counted (no launches, so nothing measured): a gap, not a 0.
                    guard metric.denominator(of: point.result.aggregates[index]) > 0 else {
                        line.points.append((x, nil))
                        continue
                    }
                    line.points.append((x, scale * estimate.value))
                    if let interval = estimate.interval(confidence: 0.95) {
                        // A share's interval is cut at 0% and 100%, where the axis ends.
                        let low = scale * interval.lowerBound, high = scale * interval.upperBound
                        line.errorBars.append(isShare ? (x, max(0, low), min(100, high)) : (x, low, high))
                    }
                }
                series.append(line)
            }
            let caption = group.key.isEmpty ? nil
                : zip(grid.axes.dropFirst(), group.key).map { "\($0.name) = \($0.texts[$1])" }.joined(separator: ", ")
            let ys = series.flatMap { $0.points.compactMap(\.y) + $0.errorBars.flatMap { [$0.lower, $0.upper] } }
            guard let low = ys.min(), let high = ys.max() else { return (caption, nil) }
            var yAxis = Axis.linear(metric.name.replacing(every: "_", with: " ") + (isShare ? " (%)" : " (APNs requests per mail)"),
                                    covering: low...high)
            if isShare {
                // No share is below 0% or above 100%: the axis stops there, as report.html's does.
                let top = min(100, yAxis.domain.upperBound)
                // All at 100%: a point of axis below it, so the line is not on the frame's edge alone.
                let bottom = min(max(0, yAxis.domain.lowerBound), max(0, top - 1))
                yAxis.domain = bottom...max(top, bottom + 1)
                yAxis.ticks.removeAll { !yAxis.domain.contains($0.value) }
            }
            let title = metric.name + " against " + first.name + (caption.map { " (" + $0 + ")" } ?? "")
            return (caption, LineChart(id: "sweep-\(metric.name)-\(groupIndex)", title: title, xAxis: xAxis, yAxis: yAxis,
                                       series: series))
        }
    }

    /// Where each value of the first axis sits on the charts' x axis, in its order.
    /// - Complexity: O(values).
    package var xValues: [Double] {
        switch grid.axes[0].scale {
        case .numeric(let values, _): values
        case .categorical: grid.axes[0].texts.indices.map(Double.init)
        }
    }

    /// The note under `chart` naming the strategies whose lines lie on top of each other
    /// (`LineChart.coincidences`) and at which values of the first axis; nil when none do.
    /// - Complexity: O(points × strategies × log(strategies)).
    package func coincidenceNote(_ chart: LineChart, metric: Metric) -> String? {
        let first = grid.axes[0], xValues = xValues
        let phrases = Coincidence.phrases(chart.coincidences, name: { chart.series[$0].label }) { xs, shared in
            if xs == shared { return "at every point" }
            let texts = xs.compactMap { x in xValues.firstIndex(of: x).map { first.texts[$0] } }
            return "at " + first.name + " = " + texts.joined(separator: ", ")
        }
        guard !phrases.isEmpty else { return nil }
        let unit = switch metric {
        case .pushesPerMessage: "pushes per message"
        case .deliverability, .informedRate, .measuredDeliverability, .lostShare: "percentage points"
        }
        let tolerance = chart.coincidenceTolerance
        return "Lines within \(FixedPoint.decimal(tolerance, places: tolerance < 0.1 ? 3 : 2)) \(unit) of each other (a line's "
            + "width here) lie on top of each other, drawn in alternating dashes of their colours: "
            + phrases.joined(separator: "; ") + "."
    }

    /// The strategies' labels in order of first appearance over the points.
    /// - Complexity: O(points × strategies²).
    package var strategyLabels: [String] {
        points.reduce(into: [String]()) { labels, point in
            for strategy in point.result.strategies where !labels.contains(strategy.label) { labels.append(strategy.label) }
        }
    }

    /// Why `metric` has nothing to chart at any point of a chart: what its denominator
    /// counts and, where the scenario decides it, why that is none.
    /// - Complexity: O(points).
    package func emptyReason(_ metric: Metric) -> String {
        switch metric {
        case .measuredDeliverability:
            let launches = points.contains { $0.scenario.chain.device.launches != nil }
            return "nothing was measured. The talk's method counts only the mail of users who launch the app (device.launches), "
                + (launches ? "and none of them launched it in time, on a device whose extension logs (iOS 10 or later)."
                            : "and this scenario has no launches.")
        case .deliverability, .informedRate, .pushesPerMessage, .lostShare:
            return "no strategy had any mail, so no rate has anything to divide by."
        }
    }

    /// `sweep.html`: self-contained (inline SVG and CSS, no script), in the report page's style.
    /// - Complexity: O(points × strategies × metrics).
    package func html() -> String {
        let e = SVG.escape
        let name = points.first?.scenario.name ?? ""
        var html = ReportPage.head(title: "PushSim sweep: " + name)
        html += ReportPage.description(points.first?.scenario.description ?? "")
        func distinct<Value: Equatable & CustomStringConvertible>(_ values: [Value]) -> String {
            values.reduce(into: [Value]()) { if !$0.contains($1) { $0.append($1) } }.map(\.description).joined(separator: ", ")
        }
        html += "<dl class=\"facts\">\n"
        html += "<dt>seed</dt><dd>\(e(distinct(points.map(\.scenario.seed))))</dd>\n"
        html += "<dt>devices</dt><dd>\(e(distinct(points.map(\.scenario.devices))))</dd>\n"
        html += "<dt>days</dt><dd>\(e(distinct(points.map(\.scenario.dayCount))))</dd>\n"
        for axis in grid.axes {
            html += "<dt>swept</dt><dd>\(e(axis.name)): <code>\(e(axis.path))</code> = \(e(axis.texts.joined(separator: ", ")))"
                + (axis.title?.summary.map { "<br><span class=\"help\">\(e($0))</span>" } ?? "") + "</dd>\n"
        }
        for override in grid.fixed {
            html += "<dt>set</dt><dd><code>\(e(override.path))</code> = \(e(override.valueText))</dd>\n"
        }
        html += "<dt>points</dt><dd>\(points.count), each run with the same seed (common random numbers)</dd>\n"
        html += "<dt>command</dt><dd><code>\(e(commandLine))</code></dd>\n"
        html += "</dl>\n</header>\n"
        for metric in Self.chartedMetrics {
            let charts = charts(metric)
            html += "<section id=\"\(metric.name)\">\n<h2>\(e(metric.name.replacing(every: "_", with: " ")))</h2>\n"
            guard charts.contains(where: { $0.chart != nil }) else {
                html += "<p class=\"empty\">No chart: \(e(emptyReason(metric)))</p>\n</section>\n"
                continue
            }
            html += "<p>\(e(metric.name)) of each strategy against \(e(grid.axes[0].name)); bars are the 95% interval "
                + "(± t·SE, as summary.csv's _low and _high) where the standard error is known.</p>\n"
            for (caption, chart) in charts {
                html += "<figure>\n"
                if let caption { html += "<figcaption>\(e(caption))</figcaption>\n" }
                if let chart {
                    html += chart.svg()
                    if let note = coincidenceNote(chart, metric: metric) { html += "<p class=\"note\">\(e(note))</p>\n" }
                } else {
                    html += "<p class=\"empty\">No chart: \(e(emptyReason(metric)))</p>\n"
                }
                html += "</figure>\n"
            }
            html += "</section>\n"
        }
        html += "<footer>Written by pushsim sweep; every rate of every point, with its standard error, is in sweep.csv.</footer>\n"
            + "</body>\n</html>\n"
        return html
    }
    package init(grid: SweepGrid, points: [Point], commandLine: String) {
        self.grid = grid
        self.points = points
        self.commandLine = commandLine
    }
}
