import Base
import Simulator

/// What the daily chart cannot say by itself, in words under it: which strategies' lines
/// coincide (and so are drawn over each other), and which days' measured figures are left
/// out because their measurement window runs past the run's end.
extension ReportCharts {
    /// The notes under `chart` (as `dailyDeliverability` drew it for `scenario` and
    /// `result`), as plain text, in reading order; none when there is nothing to say.
    /// - Complexity: O(strategies × days × log(strategies)).
    package static func dailyNotes(scenario: Scenario, result: SimulationResult, chart: LineChart) -> [String] {
        [coincidenceNote(scenario: scenario, chart: chart), truncationNote(scenario: scenario, result: result)].compactMap { $0 }
    }

    /// "queue-as-published and queue-no-collapse-id lie on queue on every day; …": each
    /// strategy whose true line lies within the chart's coincidence tolerance of an
    /// earlier one's (the one drawn under it), with the days it does; measured lines named
    /// apart where they coincide otherwise. nil when no lines coincide.
    /// - Complexity: O(strategies × days × log(strategies)).
    package static func coincidenceNote(scenario: Scenario, chart: LineChart) -> String? {
        // The chart's series alternate: a strategy's true line (even), then its measured one (odd).
        let coincidences = chart.coincidences
        func phrases(measured: Bool) -> [String] {
            Coincidence.phrases(coincidences.filter { ($0.series % 2 == 1) == measured },
                                name: { chart.series[$0 - $0 % 2].label }) { days, shared in
                if days == shared { return "on every day" }
                let indices = days.map { Int($0) }
                if dateRangeCount(indices) <= 3 { return "on " + dateRanges(indices, start: scenario.start) }
                return "on \(days.count) of \(shared.count) days (\(dateRanges([indices[0]], start: scenario.start)) to "
                    + "\(dateRanges([indices[indices.count - 1]], start: scenario.start)))"
            }
        }
        let solid = phrases(measured: false), dashed = phrases(measured: true)
        guard !solid.isEmpty || !dashed.isEmpty else { return nil }
        let tolerance = chart.coincidenceTolerance
        let within = FixedPoint.decimal(tolerance, places: tolerance < 0.1 ? 2 : 1)
        var text = "Lines within \(within) percentage points of each other (a line's width here) lie on top of each other: "
            + "they are drawn in alternating dashes of their colours, their markers nested (the lower one's larger), with one "
            + "shaded interval in the lower one's colour."
        if !solid.isEmpty { text += " True lines: " + solid.joined(separator: "; ") + "." }
        if !dashed.isEmpty {
            text += solid == dashed ? " Their measured lines likewise." : " Measured lines: " + dashed.joined(separator: "; ") + "."
        }
        return text
    }

    /// "The measured figures of Feb 28 are left out …": the days whose measurement window
    /// ends after the run, with what they would have read; nil when none measured anything.
    /// - Complexity: O(strategies × days).
    package static func truncationNote(scenario: Scenario, result: SimulationResult) -> String? {
        let days = (0..<scenario.dayCount).filter { scenario.measurementTruncated(day: $0) }
        var measured: [Double] = [], truth: [Double] = []
        for aggregate in result.aggregates {
            for day in days where day < aggregate.daily.count {
                let counts = aggregate.daily[day]
                if counts[.measuredSent] > 0 { measured.append(Double(counts[.measuredReceived]) / Double(counts[.measuredSent])) }
                if counts[.messages] > 0 { truth.append(Double(counts[.delivered]) / Double(counts[.messages])) }
            }
        }
        guard !measured.isEmpty else { return nil }
        func range(_ values: [Double]) -> String {
            let low = FixedPoint.decimal(100 * (values.min() ?? 0), places: 1), high = FixedPoint.decimal(100 * (values.max() ?? 0), places: 1)
            return low == high ? low + "%" : low + "% to " + high + "%"
        }
        let dates = dateRanges(days, start: scenario.start)
        let these = days.count == 1 ? "this day" : "these days"
        return "The measured figures of \(dates) are left out (dotted line): the talk's method counts a day's mail over the "
            + "users who launch the app by the end of the next day, and the logs they upload by then; for \(these) that is past "
            + "the run's end, so they would read low (\(range(measured)), against a true \(range(truth))). daily.csv has them."
    }

    /// The ranges of consecutive days among `days` (ascending).
    /// - Complexity: O(days).
    package static func dateRangeCount(_ days: [Int]) -> Int {
        days.indices.filter { $0 == 0 || days[$0] != days[$0 - 1] + 1 }.count
    }

    /// Days as dates, consecutive ones as ranges: "Jan 1 – Jan 31, Feb 3 and Feb 9".
    /// - Complexity: O(days).
    package static func dateRanges(_ days: [Int], start: CivilDate) -> String {
        func date(_ day: Int) -> String {
            let civil = start.adding(days: day)
            return "\(months[civil.month - 1]) \(civil.day)"
        }
        var ranges: [String] = []
        var index = 0
        while index < days.count {
            var end = index
            while end + 1 < days.count && days[end + 1] == days[end] + 1 { end += 1 }
            ranges.append(end == index ? date(days[index]) : date(days[index]) + " – " + date(days[end]))
            index = end + 1
        }
        return Coincidence.list(ranges)
    }
}
