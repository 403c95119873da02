import Base

/// How a live run's simulated time moves.
public enum ClockMode: Sendable, Equatable {
    /// Simulated time is wall time since the start times `speed` (simulated seconds per
    /// wall second): for soak runs and demos.
    case scaled(speed: Double)
    /// Simulated time moves only when the control API advances it: no wall time at all,
    /// so the same requests in the same order give the same answers and reports.
    case controlled
}

/// The live run's clock: where simulated time stands, and how it maps to the epoch times
/// APNs's wire carries (`apns-expiration`, the 410 timestamp). Simulated time 0 is the
/// scenario's `start` date at 00:00 UTC.
package struct LiveClock {
    package let mode: ClockMode
    /// Where the clock starts: 0, or under `serve --start now` the wall clock's time of day.
    package let origin: SimTime

    package init(mode: ClockMode, origin: SimTime = 0) {
        self.mode = mode
        self.origin = origin
    }

    /// The simulated time `elapsed` wall time after the start, under `.scaled`; nil under `.controlled`.
    /// - Complexity: O(1).
    package func reading(elapsed: Duration) -> SimTime? {
        switch mode {
        case .scaled(let speed):
            let (seconds, attoseconds) = elapsed.components
            let wall = Double(seconds) + Double(attoseconds) / 1e18
            return origin + SimTime(clamping: Int64((wall * speed * Double(TimeUnit.second)).rounded(.down)))
        case .controlled:
            return nil
        }
    }

    /// Epoch seconds of the scenario's start.
    /// - Complexity: O(1).
    package static func startEpochSeconds(_ start: CivilDate) -> Int64 { Int64(start.daysSinceEpoch) * 86_400 }

    /// The simulated instant of an epoch time in seconds, saturating far outside the run.
    /// - Complexity: O(1).
    package static func simulatedTime(epochSeconds: Int64, start: CivilDate) -> SimTime {
        let (difference, overflow) = epochSeconds.subtractingReportingOverflow(startEpochSeconds(start))
        guard !overflow else { return epochSeconds < 0 ? .min / 2 : .max / 2 }
        let limit = Int64.max / 2 / TimeUnit.second
        return max(-limit, min(limit, difference)) * TimeUnit.second
    }

    /// The epoch time in milliseconds of a simulated instant (APNs's 410 timestamp).
    /// - Complexity: O(1).
    package static func epochMilliseconds(_ time: SimTime, start: CivilDate) -> Int64 {
        startEpochSeconds(start) * 1000 + time / (TimeUnit.second / 1000)
    }

    /// An instant as an ISO 8601 UTC date and time, to the millisecond.
    /// - Complexity: O(1).
    package static func iso8601(_ time: SimTime, start: CivilDate) -> String {
        let milliseconds = epochMilliseconds(time, start: start)
        let days = Int(floorDivide(milliseconds, 86_400_000))
        let inDay = milliseconds - Int64(days) * 86_400_000
        let date = CivilDate(daysSinceEpoch: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let ms = inDay % 1000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(date)T\(two(inDay / 3_600_000)):\(two(inDay / 60_000 % 60)):\(two(inDay / 1000 % 60)).\(msText)Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
