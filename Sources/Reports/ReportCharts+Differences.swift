import Base
import Simulator

/// The daily deliverability of each strategy against the first one's, one small chart a
/// strategy: strategies whose lines lie on each other in the daily chart each get a
/// picture of their own, and a day's difference is read with its own (paired) interval,
/// much narrower than the two strategies' intervals side by side.
extension ReportCharts {
    /// Pixel size of one panel; the page sets them two abreast.
    package static let panelWidth = 440.0, differencePanelHeight = 230.0

    /// The width of each of `count` panels: half the page's, or all of it for one alone.
    /// - Complexity: O(1).
    package static func panelWidth(count: Int) -> Double { count == 1 ? 880 : panelWidth }

    /// One chart per strategy after the first: its daily deliverability minus the first
    /// strategy's (the baseline), in percentage points, by the mail's arrival day, with
    /// the paired 95% interval shaded (`SimulationResult.dailyDifference`), a dashed line at
    /// zero, weekends shaded (the page says so: a legend entry would crowd a panel). Every panel has the same y axis, so heights compare. Empty
    /// with fewer than two strategies.
    /// - Complexity: O(strategies × days × blocks).
    package static func dailyDifferences(scenario: Scenario, result: SimulationResult) -> [LineChart] {
        guard result.strategies.count > 1 else { return [] }
        let days = result.aggregates[0].daily.count, baseline = result.strategies[0].label
        var panels: [(series: LineChart.Series, legend: [Legend.Entry])] = []
        var values: [Double] = [0]
        for index in 1..<result.strategies.count {
            var points: [(x: Double, y: Double?)] = [], band: [(x: Double, lower: Double, upper: Double)] = []
            for day in 0..<days {
                let estimate = result.dailyDifference(.deliverability, strategy: index, minus: 0, day: day)
                guard estimate.value.isFinite else { points.append((Double(day), nil)); continue }
                points.append((Double(day), 100 * estimate.value))
                if let interval = estimate.interval(confidence: Reports.confidence),
                   interval.lowerBound.isFinite, interval.upperBound.isFinite {
                    band.append((Double(day), 100 * interval.lowerBound, 100 * interval.upperBound))
                }
            }
            values += points.compactMap(\.y) + band.flatMap { [$0.lower, $0.upper] }
            let colour = Palette.series(index), marker = Marker.series(index)
            let label = result.strategies[index].label + " − " + baseline
            panels.append((LineChart.Series(label: label, colour: colour, points: points, markers: true, marker: marker,
                                            band: band),
                           [.init(label: label, swatch: .line(colour: colour, dashed: false, marker: marker)),
                            .init(label: "95% interval", swatch: .band(colour: colour))]))
        }
        // Padded, so a line at zero (a strategy the same as the baseline) stays off the axis.
        let low = values.min() ?? 0, high = max(values.max() ?? 0, low + 0.5), pad = 0.05 * (high - low)
        let yAxis = Axis.linear("difference (pp)", covering: (low - pad)...(high + pad), count: 4)
        var xAxis = dayAxis(start: scenario.start, days: days)
        xAxis.label = "mail arrival day"
        // A tick every other week: a panel is half the page wide.
        if xAxis.ticks.count > 5 { xAxis.ticks = xAxis.ticks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
        let weekends = weekendRanges(scenario: scenario, days: days)
        return LineChart.levelled(panels.enumerated().map { offset, panel in
            let zero = LineChart.Series(label: "no difference", colour: Palette.axis,
                                        points: [(-0.5, 0), (Double(days) - 0.5, 0)], dashed: true)
            var chart = LineChart(id: "daily-difference-\(offset + 1)",
                                  title: "Daily deliverability of \(panel.series.label), percentage points",
                                  xAxis: xAxis, yAxis: yAxis, series: [zero, panel.series], shaded: weekends,
                                  width: panelWidth(count: panels.count), height: differencePanelHeight)
            chart.drawsOverlaps = false
            chart.legendEntries = panel.legend
            return chart
        })
    }

    /// The weekends among days 0 … days−1 as x-ranges, one per weekend, not per day:
    /// adjacent rectangles would show a seam.
    /// - Complexity: O(days).
    package static func weekendRanges(scenario: Scenario, days: Int) -> [ClosedRange<Double>] {
        var weekends: [ClosedRange<Double>] = []
        for day in 0..<days where scenario.start.adding(days: day).weekday >= 5 {
            if let last = weekends.last, last.upperBound == Double(day) - 0.5 {
                weekends[weekends.count - 1] = last.lowerBound...Double(day) + 0.5
            } else {
                weekends.append(Double(day) - 0.5...Double(day) + 0.5)
            }
        }
        return weekends
    }
}
