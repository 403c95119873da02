import FakeAPNs

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
    /// … that the provider logged as sent, for users the talk's method counts that
    /// day (they launched the app that day or the next).
    public var measuredSent: Int64 = 0
    /// … of those, logged "received" by the extension and uploaded by a launch by
    /// the end of the next day.
    public var measuredReceived: Int64 = 0

    /// Adds another day's counts.
    public static func += (lhs: inout DayCounts, rhs: DayCounts) {
        lhs.messages += rhs.messages
        lhs.delivered += rhs.delivered
        lhs.summarized += rhs.summarized
        lhs.lost += rhs.lost
        lhs.pending += rhs.pending
        lhs.measuredSent += rhs.measuredSent
        lhs.measuredReceived += rhs.measuredReceived
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

    // The funnel (`funnel.csv`), in messages: each stage counts a message once.
    /// The provider sent an original push for it (what XIVA's own log shows).
    public var providerSent: Int64 = 0
    /// APNs answered 200 to at least one of its pushes (what a provider sees).
    public var apnsAccepted: Int64 = 0
    /// At least one of its pushes reached iOS on the device.
    public var reachedDevice: Int64 = 0
    /// The extension logged "received" for it.
    public var logged: Int64 = 0
    /// … and a launch uploaded that log before the run ended.
    public var uploaded: Int64 = 0
    /// The user tapped its notification.
    public var opened: Int64 = 0

    // The talk's measurement, summed over days (see `DayCounts`).
    /// Sent, over users who launched the app the same or the next day.
    public var measuredSent: Int64 = 0
    /// Of those, logged and uploaded by the end of the next day.
    public var measuredReceived: Int64 = 0

    // Along the chain, where nothing is lost (in pushes or events).
    /// Pushes shown without the extension running (iOS < 10).
    public var extensionNotRun: Int64 = 0
    /// Extension invocations killed over the memory limit.
    public var extensionKilled: Int64 = 0
    /// Extension invocations whose time ran out before the re-request answered.
    public var extensionTimedOut: Int64 = 0
    /// Pushes shown as is because they were numbered for another device id.
    public var hashMismatches: Int64 = 0
    /// Pushes that reached the device after a push of a later mail.
    public var reordered: Int64 = 0
    /// Provider retries (network failures, 429, 503).
    public var retries: Int64 = 0
    /// Re-requests answered with an error.
    public var rerequestErrors: Int64 = 0
    /// Re-requested positions the provider no longer held (past the TTL).
    public var positionsExpired: Int64 = 0
    /// APNs token rotations.
    public var tokenRotations: Int64 = 0
    /// Device id changes.
    public var deviceIDChanges: Int64 = 0
    /// Registrations that reached the provider (install included).
    public var registrations: Int64 = 0
    /// App launches (taps included).
    public var launches: Int64 = 0
    /// Folder subscription changes.
    public var subscriptionChanges: Int64 = 0
    /// What the Push Notifications Console would show (`apns.csv`).
    public var apns = APNsCounters()

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
        providerSent += other.providerSent
        apnsAccepted += other.apnsAccepted
        reachedDevice += other.reachedDevice
        logged += other.logged
        uploaded += other.uploaded
        opened += other.opened
        measuredSent += other.measuredSent
        measuredReceived += other.measuredReceived
        extensionNotRun += other.extensionNotRun
        extensionKilled += other.extensionKilled
        extensionTimedOut += other.extensionTimedOut
        hashMismatches += other.hashMismatches
        reordered += other.reordered
        retries += other.retries
        rerequestErrors += other.rerequestErrors
        positionsExpired += other.positionsExpired
        tokenRotations += other.tokenRotations
        deviceIDChanges += other.deviceIDChanges
        registrations += other.registrations
        launches += other.launches
        subscriptionChanges += other.subscriptionChanges
        apns += other.apns
    }

    /// Adds one day's counts of some users to `day` and to the totals they sum to.
    /// - Complexity: O(1).
    mutating func add(_ counts: DayCounts, day: Int) {
        daily[day] += counts
        messages += counts.messages
        delivered += counts.delivered
        summarized += counts.summarized
        pending += counts.pending
        measuredSent += counts.measuredSent
        measuredReceived += counts.measuredReceived
    }

    /// measuredReceived / measuredSent: deliverability as the talk's logging reports it.
    public var measuredDeliverability: Double {
        measuredSent == 0 ? 0 : Double(measuredReceived) / Double(measuredSent)
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
        if total.messages != messages || total.delivered != delivered || total.summarized != summarized
            || total.lost != lost || total.pending != pending
            || total.measuredSent != measuredSent || total.measuredReceived != measuredReceived {
            return "the daily series does not add up to the totals"
        }
        if Int64(latency.total) != delivered { return "latency was recorded for \(latency.total) messages, \(delivered) delivered" }
        return nil
    }
}
