/// Counts events against a `RateLimit` as the generic cell rate algorithm does: one
/// instant, the "theoretical arrival time", moves `1 / perSecond` later with each event;
/// the limit is crossed when it runs more than `burst` intervals ahead of now. Two
/// integers, no queue of timestamps, whatever the rate.
struct RateMeter: Sendable {
    let limit: RateLimit
    /// Nanoseconds; starts far in the past so the first `burst` events pass.
    private var theoreticalArrival = Int64.min / 2
    /// Events counted when `perSecond` is 0.
    private var count = 0

    init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// Counts one event at `now` (nanoseconds); false once the limit is crossed.
    /// - Complexity: O(1).
    mutating func record(at now: Int64) -> Bool {
        guard limit.perSecond > 0 else {
            count += 1
            return count <= limit.burst
        }
        let interval = Swift.max(1, 1_000_000_000 / Int64(limit.perSecond))
        theoreticalArrival = Swift.max(theoreticalArrival, now) &+ interval
        let allowance = Int64(Swift.max(0, limit.burst)).multipliedReportingOverflow(by: interval)
        return allowance.overflow || theoreticalArrival &- now <= allowance.partialValue
    }
}
