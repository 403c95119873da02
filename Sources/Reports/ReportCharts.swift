import Base
import Simulator

/// The report page's charts, built from a run's scenario and aggregates. Strategies keep
/// one colour (`Palette.series`) in every chart.
package enum ReportCharts {
    /// Month names for date ticks: fixed English, whatever the locale.
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Daily deliverability per strategy by the mail's arrival day: the true figure solid
    /// with filled markers, the talk's measured figure dashed with hollow ones, in the
    /// strategy's colour and marker shape, weekends shaded. Lines that coincide are drawn
    /// so each shows where it can (`LineChart.overlaps`); `dailyDifferences` draws each
    /// strategy apart.
    /// A day whose measurement window runs past the run's end (`Scenario.measurementTruncated`)
    /// has no measured point: it would read low for want of the next day's launches, and
    /// neither the line nor the y axis should follow it; a reference line marks the day.
    /// `bands`, when given, holds one optional interval per strategy and day as a ratio
    /// (0…1, like `Estimate.interval(confidence: 0.95)`), drawn around the true line; an
    /// interval with a bound that is not finite (no standard error) is left out.
    /// - Complexity: O(strategies × days × log(strategies)).
    package static func dailyDeliverability(scenario: Scenario, result: SimulationResult,
                                    bands: [[ClosedRange<Double>?]]? = nil) -> LineChart {
        func percent(_ numerator: Int64, _ denominator: Int64) -> Double? {
            denominator > 0 ? 100 * Double(numerator) / Double(denominator) : nil
        }
        var series: [LineChart.Series] = []
        var legend: [Legend.Entry] = []
        for (index, (strategy, aggregate)) in zip(result.strategies, result.aggregates).enumerated() {
            let colour = Palette.series(index), marker = Marker.series(index)
            var truth = LineChart.Series(label: strategy.label, colour: colour,
                                         points: aggregate.daily.enumerated().map { (Double($0.offset), percent($0.element[.delivered], $0.element[.messages])) },
                                         markers: true, marker: marker)
            if let band = bands?[index] {
                truth.band = band.enumerated().compactMap { day, range in
                    guard let range, range.lowerBound.isFinite, range.upperBound.isFinite else { return nil }
                    // A share cannot leave [0, 100%], whatever the normal approximation says.
                    return (Double(day), 100 * max(0, range.lowerBound), 100 * min(1, range.upperBound))
                }
            }
            series.append(truth)
            series.append(LineChart.Series(label: strategy.label + " (measured)", colour: colour,
                                           points: aggregate.daily.enumerated().map { day, counts in
                                               (Double(day), scenario.measurementTruncated(day: day)
                                                   ? nil : percent(counts[.measuredReceived], counts[.measuredSent]))
                                           },
                                           dashed: true, markers: true, marker: marker))
            legend.append(.init(label: strategy.label, swatch: .line(colour: colour, dashed: false, marker: marker)))
        }
        legend += [.init(label: "true", swatch: .line(colour: Palette.axis, dashed: false, marker: .circle), newRow: true),
                   .init(label: "measured (the talk's method)", swatch: .line(colour: Palette.axis, dashed: true, marker: .circle))]
        if series.contains(where: { !($0.band ?? []).isEmpty }) {
            legend.append(.init(label: "95% interval", swatch: .band(colour: Palette.axis)))
        }
        let values = series.flatMap { $0.points.compactMap(\.y) + ($0.band ?? []).flatMap { [$0.lower, $0.upper] } }
        let lowest = max(0, min(values.min() ?? 0, 99)), highest = min(100, max(values.max() ?? 100, lowest + 1))
        var yAxis = Axis.linear("deliverability (%)", covering: lowest...highest, count: 5)
        yAxis.domain = yAxis.domain.lowerBound...min(100, yAxis.domain.upperBound)
        yAxis.ticks.removeAll { $0.value > 100 }
        let days = scenario.dayCount
        let weekends = weekendRanges(scenario: scenario, days: days)
        let truncated = (0..<days).filter { scenario.measurementTruncated(day: $0) }
        var chart = LineChart(id: "daily", title: "Daily deliverability per strategy, true (solid) and measured (dashed)",
                              xAxis: dayAxis(start: scenario.start, days: days), yAxis: yAxis, series: series,
                              shaded: weekends, shadedLabel: "weekend",
                              references: truncated.first.map { [Tick(value: Double($0), label: "measured: cut short")] } ?? [],
                              height: 460)
        chart.legendEntries = legend
        return chart
    }

    /// Days 0 … days−1 as an axis with dated ticks on Mondays (every week, or every few weeks for long runs).
    /// - Complexity: O(days).
    package static func dayAxis(start: CivilDate, days: Int) -> Axis {
        let every = 7 * max(1, (days + 69) / 70)
        let firstMonday = (7 - start.weekday) % 7
        let ticks = stride(from: firstMonday, to: days, by: every).map { day in
            let date = start.adding(days: day)
            return Tick(value: Double(day), label: "\(months[date.month - 1]) \(date.day)")
        }
        return Axis(label: "mail arrival day (scenario's local date; weekends shaded)",
                    domain: -0.5...Double(max(1, days)) - 0.5, ticks: ticks)
    }

    /// The outcome categories of `where messages go`: delivered, summarized, every loss reason
    /// some strategy has, pending; with each strategy's counts in that order.
    /// - Complexity: O(strategies × reasons).
    package static func outcomes(result: SimulationResult) -> StackedBarChart {
        let reasons = LossReason.allCases.filter { reason in result.aggregates.contains { $0.lost(reason) > 0 } }
        let categories = [StackedBarChart.Category(label: "delivered", colour: Palette.delivered),
                          .init(label: "summarized", colour: Palette.summarized)]
            + reasons.map { StackedBarChart.Category(label: "lost: " + $0.columnName.replacing(every: "_", with: " "),
                                                     colour: Palette.lost($0)) }
            + [.init(label: "pending", colour: Palette.pending)]
        let bars = zip(result.strategies, result.aggregates).map { strategy, aggregate in
            StackedBarChart.Bar(label: strategy.label,
                                values: [aggregate[.delivered], aggregate[.summarized]] + reasons.map { aggregate.lost($0) } + [aggregate.pending])
        }
        return StackedBarChart(id: "outcomes", title: "Where messages go, per strategy", categories: categories, bars: bars)
    }

    /// The funnel: the share of messages reaching each stage of the chain, one bar per strategy.
    /// - Complexity: O(strategies × stages).
    package static func funnel(result: SimulationResult) -> GroupedBarChart {
        let stages = Reports.funnelStages
        let series = zip(result.strategies, result.aggregates).enumerated().map { index, pair in
            let (strategy, aggregate) = pair
            return GroupedBarChart.Series(label: strategy.label, colour: Palette.series(index),
                                          values: stages.map { aggregate[.messages] > 0 ? 100 * Double($0.count.total(in: aggregate)) / Double(aggregate[.messages]) : 0 },
                                          valueLabels: nil)
        }
        return GroupedBarChart(id: "funnel", title: "The delivery funnel: share of messages reaching each stage",
                               groups: stages.map { $0.stage.replacing(every: "_", with: " ") },
                               xLabel: "stage of the delivery chain", yAxis: Axis.linear("share of messages (%)", covering: 0...100),
                               series: series)
    }

    /// Cost: pushes sent and re-requests, per message, per strategy.
    /// - Complexity: O(strategies).
    package static func cost(result: SimulationResult) -> GroupedBarChart {
        let series = zip(result.strategies, result.aggregates).enumerated().map { index, pair in
            let (strategy, aggregate) = pair
            let counts = [aggregate[.pushesSent], aggregate.rerequests]
            return GroupedBarChart.Series(label: strategy.label, colour: Palette.series(index),
                                          values: counts.map { aggregate[.messages] > 0 ? Double($0) / Double(aggregate[.messages]) : 0 },
                                          valueLabels: counts.map { FixedPoint.ratio($0, aggregate[.messages], places: 3) })
        }
        let highest = series.flatMap(\.values).max() ?? 1
        return GroupedBarChart(id: "cost", title: "Cost: pushes and re-requests per message",
                               groups: ["pushes sent per message", "re-requests per message"],
                               xLabel: "", yAxis: Axis.linear("per message", covering: 0...max(highest * 1.1, 0.1)),
                               series: series, height: 300)
    }
}
