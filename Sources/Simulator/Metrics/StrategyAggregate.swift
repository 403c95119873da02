/// Counts for one day of one strategy, by the mail's arrival day.
public struct DayCounts: Sendable, Equatable {
    /// Mails that arrived that day.
    public var messages: Int64 = 0
    /// … whose own notification was shown.
    public var delivered: Int64 = 0
    /// … covered only by a "missed messages" notification.
    public var summarized: Int64 = 0
    /// … lost.
    public var lost: Int64 = 0
    /// … still in flight at the end of the run.
    public var pending: Int64 = 0

    /// Adds another day's counts.
    public static func += (lhs: inout DayCounts, rhs: DayCounts) {
        lhs.messages += rhs.messages
        lhs.delivered += rhs.delivered
        lhs.summarized += rhs.summarized
        lhs.lost += rhs.lost
        lhs.pending += rhs.pending
    }
}

/// Everything reported for one strategy, summed over users. Mergeable by
/// addition in any order (integers only), so threads and shards give the same bytes.
public struct StrategyAggregate: Sendable, Equatable {
    /// Mails, one per device + app.
    public var messages: Int64 = 0
    /// Own notification shown.
    public var delivered: Int64 = 0
    /// Covered by a summary / error notification only.
    public var summarized: Int64 = 0
    /// In flight at the end.
    public var pending: Int64 = 0
    /// Lost, by `LossReason.rawValue` (index 0 unused).
    public var lostByReason = ContiguousArray<Int64>(repeating: 0, count: LossReason.slots)
    /// Requests sent to APNs, originals and re-sends.
    public var pushesSent: Int64 = 0
    /// Re-requests the extensions made.
    public var rerequests: Int64 = 0
    /// Extra Notification Center entries for a message already shown.
    public var duplicatesShown: Int64 = 0
    /// Presentations merged into an existing entry by collapse id.
    public var collapsed: Int64 = 0
    /// Mail → first presentation, delivered messages only.
    public var latency = LatencyHistogram()
    /// Per arrival day.
    public var daily: ContiguousArray<DayCounts>

    /// Zeros for a run of `days` days.
    /// - Complexity: O(days).
    public init(days: Int) {
        daily = ContiguousArray(repeating: DayCounts(), count: days)
    }

    /// Total lost.
    public var lost: Int64 { lostByReason.reduce(0, +) }

    /// Lost for one reason.
    public func lost(_ reason: LossReason) -> Int64 { lostByReason[Int(reason.rawValue)] }

    /// delivered / messages.
    public var deliverability: Double { messages == 0 ? 0 : Double(delivered) / Double(messages) }

    /// (delivered + summarized) / messages.
    public var informedRate: Double { messages == 0 ? 0 : Double(delivered + summarized) / Double(messages) }

    /// Adds another aggregate (another user, thread or shard).
    /// - Complexity: O(days + buckets).
    public mutating func merge(_ other: StrategyAggregate) {
        messages += other.messages
        delivered += other.delivered
        summarized += other.summarized
        pending += other.pending
        for index in lostByReason.indices { lostByReason[index] += other.lostByReason[index] }
        pushesSent += other.pushesSent
        rerequests += other.rerequests
        duplicatesShown += other.duplicatesShown
        collapsed += other.collapsed
        latency.merge(other.latency)
        for index in daily.indices { daily[index] += other.daily[index] }
    }

    /// Checks that every message is in exactly one bucket, overall and per day.
    /// Runs in release builds too: a report that does not add up is not written.
    /// - Complexity: O(days).
    public func checkIdentity() -> String? {
        if delivered + summarized + lost + pending != messages {
            return "delivered \(delivered) + summarized \(summarized) + lost \(lost) + pending \(pending) ≠ messages \(messages)"
        }
        if lostByReason[0] != 0 { return "a loss without a reason was counted" }
        var total = DayCounts()
        for day in daily {
            if day.delivered + day.summarized + day.lost + day.pending != day.messages {
                return "a day's outcomes do not add up to its messages"
            }
            total += day
        }
        if total != DayCounts(messages: messages, delivered: delivered, summarized: summarized, lost: lost, pending: pending) {
            return "the daily series does not add up to the totals"
        }
        if Int64(latency.total) != delivered { return "latency was recorded for \(latency.total) messages, \(delivered) delivered" }
        return nil
    }
}
