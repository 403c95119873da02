import Base

/// The talk's measurement of a day's mail: it counts users who launched the app that day
/// or the next (their logs can have reached analytics), and a message as received when a
/// launch uploaded the extension's log by the end of the next day. The ledger's fold and
/// the report page read the window from here, so what is counted and what is shown as
/// cut short cannot disagree.
public enum MeasurementWindow {
    /// Days from the start of the mail's arrival day to the window's end: that day and the next.
    public static let days = 2

    /// The end (exclusive) of the window for mail that arrived on `day` (0-based): the end
    /// of the next day.
    /// - Complexity: O(1).
    @inlinable
    public static func end(ofDay day: Int) -> SimTime { SimTime(day + days) * TimeUnit.day }
}

extension Scenario {
    /// Whether the measurement window of `day` ends after the run: the launches and uploads
    /// of its next day never happen, so its measured deliverability reads low (docs/reports.md,
    /// "daily.csv"). In a run of whole days it is the last day; a run that ends within a
    /// day cuts its last two days' windows.
    /// - Complexity: O(1).
    public func measurementTruncated(day: Int) -> Bool { MeasurementWindow.end(ofDay: day) > duration }
}
