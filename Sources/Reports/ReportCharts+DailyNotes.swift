import Base
import Simulator

/// What the daily chart cannot say by itself, in words under it: which days' measured
/// figures are left out because their measurement window runs past the run's end. (Lines
/// that coincide need no words: `dailyDifferences` draws each strategy apart.)
extension ReportCharts {
    /// The notes under `chart` (as `dailyDeliverability` drew it for `scenario` and
    /// `result`), as plain text, in reading order; none when there is nothing to say.
    /// - Complexity: O(strategies × days × log(strategies)).
    package static func dailyNotes(scenario: Scenario, result: SimulationResult, chart: LineChart) -> [String] {
        [truncationNote(scenario: scenario, result: result)].compactMap { $0 }
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
