import FakeAPNs

/// The rules every aggregate a run produces obeys, written once: the run checks its
/// result against them before it writes anything (`StrategyAggregate.checkIdentity`,
/// release builds too), and `merge` checks each part it reads (`PartialChecks`): a
/// partial travels from another machine, and a damaged one must be named (exit 65),
/// not summed into reports that break their own invariants or trap on an overflow.
/// Each rule follows from how the ledger and FakeAPNs count (cited beside it); sums
/// of parts that obey them obey them too, so the merged result needs no second look.
/// `PartialChecksTests` runs every shipped scenario through them, user by user.
package enum BalanceRules {
    /// The first rule `aggregate` breaks, described; nil when a run could have produced it.
    /// - Complexity: O(days + counters).
    package static func violation(in aggregate: StrategyAggregate) -> String? {
        negativeCount(in: aggregate) ?? unbalancedBuckets(in: aggregate) ?? unbalancedDays(in: aggregate)
            ?? brokenFunnel(in: aggregate)
            // The fold adds a user's counts to its block as well as to the totals.
            ?? aggregate.checkBlocks()
            // The backend's background pushes are requests to APNs too.
            ?? violation(in: aggregate.apns, pushesSent: aggregate[.pushesSent] &+ aggregate.background[.sent])
            ?? unbalancedBackground(in: aggregate.background)
    }

    /// The background pushes' counts add up (`BackgroundCounter`): on the device every one
    /// received met one first fate, and every one deferred left the hold once or is still held.
    private static func unbalancedBackground(in background: BackgroundCounts) -> String? {
        for counter in BackgroundCounter.allCases where background[counter] < 0 {
            return "background \(counter.columnName) \(background[counter]) < 0"
        }
        let firstFates = background[.deliveredToApp] &+ background[.deferred] &+ background[.discardedForceQuit]
        if background[.received] != firstFates {
            return "background received \(background[.received]) != delivered_to_app + deferred + discarded_force_quit \(firstFates)"
        }
        let leftHold = background[.deliveredAfterDeferral] &+ background[.throttled] &+ background[.heldAtEnd]
        if background[.deferred] != leftHold {
            return "background deferred \(background[.deferred]) != delivered_after_deferral + throttled + held_at_end \(leftHold)"
        }
        if background[.rejected] &+ background[.apnsDiscarded] &+ background[.received] > background[.sent] {
            return "background rejected + apns_discarded + received > sent \(background[.sent])"
        }
        return nil
    }

    /// Whether any of `counts` is below 0: their sign bits or'ed together, a loop the
    /// compiler vectorizes (the per-day and per-block arrays hold hundreds of thousands of
    /// counts, checked at every run's end: `fit`, `sweep` and `check` run many small runs).
    /// - Complexity: O(n).
    private static func hasNegative(_ counts: ContiguousArray<Int64>) -> Bool {
        counts.withUnsafeBufferPointer { buffer in
            var signs: Int64 = 0
            for count in buffer { signs |= count }
            return signs < 0
        }
    }

    /// Every count is a number of things that happened: the first below 0.
    private static func negativeCount(in aggregate: StrategyAggregate) -> String? {
        // Named only once one is found (`countFields`).
        if let negative = StrategyAggregate.countFields.firstIndex(where: { aggregate[keyPath: $0] < 0 }) {
            let (name, field) = StrategyAggregate.counts[negative]
            return "\(name) \(aggregate[keyPath: field]) < 0"
        }
        for reason in LossReason.allCases where aggregate.lost(reason) < 0 {
            return "lost_\(reason.columnName) \(aggregate.lost(reason)) < 0"
        }
        for counter in ChainCounter.allCases where aggregate.chain[counter] < 0 {
            return "\(counter.columnName) \(aggregate.chain[counter]) < 0"
        }
        for counter in APNsCounter.allCases where aggregate.apns[counter] < 0 {
            return "apns \(counter.columnName) \(aggregate.apns[counter]) < 0"
        }
        for (index, day) in aggregate.daily.enumerated() {
            for counter in DayCounter.allCases where day[counter] < 0 {
                return "day \(index + 1) \(counter.columnName) \(day[counter]) < 0"
            }
        }
        if hasNegative(aggregate.dailyLostByReason), let negative = aggregate.dailyLostByReason.firstIndex(where: { $0 < 0 }) {
            return "day \(negative / LossReason.allCases.count + 1) lost by reason \(aggregate.dailyLostByReason[negative]) < 0"
        }
        if hasNegative(aggregate.blocks), let negative = aggregate.blocks.firstIndex(where: { $0 < 0 }) {
            return "block \(negative / RateCount.allCases.count) "
                + "\(RateCount.allCases[negative % RateCount.allCases.count].name) \(aggregate.blocks[negative]) < 0"
        }
        if hasNegative(aggregate.dailyBlocks), let negative = aggregate.dailyBlocks.firstIndex(where: { $0 < 0 }) {
            return "day \(negative / (UserBlocks.count * RateCount.daily.count) + 1) block count \(aggregate.dailyBlocks[negative]) < 0"
        }
        return nil
    }

    /// Every message ends in exactly one bucket of its arrival day, and the measured
    /// ones are among those sent and received. Every count is ≥ 0 here.
    private static func unbalancedBuckets(in aggregate: StrategyAggregate) -> String? {
        // Ledger.fold: a lost message has the reason of its first loss (raw value ≥ 1).
        if aggregate.lostByReason[0] != 0 { return "a loss without a reason was counted" }
        // Every count is ≥ 0, so a sum that does not overflow bounds its terms.
        guard let lost = sum(aggregate.lostByReason) else { return "the lost_* counts add up past \(Int64.max)" }
        // Ledger.fold: every message ends in exactly one bucket …
        guard sum([aggregate[.delivered], aggregate[.summarized], lost, aggregate.pending]) == aggregate[.messages] else {
            return "delivered \(aggregate[.delivered]) + summarized \(aggregate[.summarized]) + lost \(lost) "
                + "+ pending \(aggregate.pending) ≠ messages \(aggregate[.messages])"
        }
        // … of its arrival day, which adds the day to the totals (StrategyAggregate.add).
        for (index, day) in aggregate.daily.enumerated() {
            guard sum([day[.delivered], day[.summarized], day[.lost], day[.pending]]) == day[.messages] else {
                return "day \(index + 1): delivered \(day[.delivered]) + summarized \(day[.summarized]) + lost \(day[.lost]) "
                    + "+ pending \(day[.pending]) ≠ messages \(day[.messages])"
            }
            // Measured only when the provider sent it; received only when measured sent.
            for (smaller, larger) in [(DayCounter.measuredSent, DayCounter.messages), (.measuredReceived, .measuredSent)]
            where day[smaller] > day[larger] {
                return "day \(index + 1): \(smaller.columnName) \(day[smaller]) > \(larger.columnName) \(day[larger])"
            }
        }
        return nil
    }

    /// The days add up to the totals: each day counter, and the losses by day and reason.
    private static func unbalancedDays(in aggregate: StrategyAggregate) -> String? {
        for counter in DayCounter.allCases {
            // `lost` is the reasons' sum, which did not overflow (`unbalancedBuckets`).
            let days = sum(aggregate.daily.lazy.map { $0[counter] })
            if days != counter.total(in: aggregate) {
                return "the daily \(counter.columnName) add up to \(days.map(String.init) ?? "more than \(Int64.max)"), "
                    + "the total is \(counter.total(in: aggregate))"
            }
        }
        // Ledger.fold counts each lost message under its day and reason, and in the day's lost.
        for (index, day) in aggregate.daily.enumerated() {
            let reasons = sum(LossReason.allCases.map { aggregate.lost($0, day: index) })
            if reasons != day[.lost] {
                return "day \(index + 1): the lost_* counts add up to \(reasons.map(String.init) ?? "more than \(Int64.max)"), "
                    + "its lost is \(day[.lost])"
            }
        }
        for reason in LossReason.allCases {
            let days = sum(aggregate.daily.indices.map { aggregate.lost(reason, day: $0) })
            if days != aggregate.lost(reason) {
                return "the daily lost_\(reason.columnName) add up to \(days.map(String.init) ?? "more than \(Int64.max)"), "
                    + "the total is \(aggregate.lost(reason))"
            }
        }
        return nil
    }

    /// The funnel's stages and what they are counted against: latencies, nested stages,
    /// APNs's answers and hand-outs, launches and the Console's days.
    private static func brokenFunnel(in aggregate: StrategyAggregate) -> String? {
        // The fold records a latency for each delivered message, and only for those.
        if aggregate.latency.total != UInt64(aggregate[.delivered]) {
            return "latency was recorded for \(aggregate.latency.total) messages, \(aggregate[.delivered]) delivered"
        }
        // The recovered messages are among the delivered, bucket by bucket.
        if let bucket = aggregate.recoveredLatency.counts.indices.first(where: {
            aggregate.recoveredLatency.counts[$0] > aggregate.latency.counts[$0]
        }) {
            return "recovered latency bucket \(bucket) holds \(aggregate.recoveredLatency.counts[bucket]) messages, "
                + "more than the \(aggregate.latency.counts[bucket]) delivered in it"
        }
        // The funnel: each stage counts a message at most once; these pairs are nested by the fold.
        // Names are looked up only for the rule broken: this runs on every aggregate merged.
        let nested: [(smaller: OutcomeCounter, larger: OutcomeCounter)] = [
            (.providerSent, .messages), (.apnsAccepted, .messages), (.reachedDevice, .messages), (.logged, .messages),
            // Uploaded only once logged.
            (.uploaded, .logged),
            // A tap is drawn only for a message's first presentation.
            (.opened, .delivered),
            // Measured sent only when the provider sent it; received only when uploaded.
            (.measuredSent, .providerSent), (.measuredReceived, .uploaded),
            // Each message sent has its own original request.
            (.providerSent, .pushesSent),
        ]
        for rule in nested where aggregate[rule.smaller] > aggregate[rule.larger] {
            return "\(rule.smaller.columnName) \(aggregate[rule.smaller]) > \(rule.larger.columnName) \(aggregate[rule.larger])"
        }
        // Each message accepted had a request of its own answered 200.
        if aggregate[.apnsAccepted] > aggregate.apns[.accepted] {
            return "\(OutcomeCounter.apnsAccepted.columnName) \(aggregate[.apnsAccepted]) > apns \(APNsCounter.accepted.columnName) "
                + "\(aggregate.apns[.accepted])"
        }
        // A push reaches the device only when APNs hands it out.
        let handedOut = sum([aggregate.apns[.delivered], aggregate.apns[.deliveredFromStorage]]) ?? .max
        if aggregate[.reachedDevice] > handedOut {
            return "\(OutcomeCounter.reachedDevice.columnName) \(aggregate[.reachedDevice]) > apns \(APNsCounter.delivered.columnName) "
                + "+ \(APNsCounter.deliveredFromStorage.columnName) \(handedOut)"
        }
        // The launches by day are the chain's launches, day by day.
        if aggregate[.launches] != aggregate.chain[.launches] {
            return "the daily launches add up to \(aggregate[.launches]), the chain's launches are \(aggregate.chain[.launches])"
        }
        // The Console's days are APNs's counters, cut by day.
        if aggregate[.consoleReceived] != aggregate.apns[.accepted] {
            return "the daily console_received add up to \(aggregate[.consoleReceived]), apns accepted is \(aggregate.apns[.accepted])"
        }
        if aggregate[.consoleDelivered] != handedOut {
            return "the daily console_delivered add up to \(aggregate[.consoleDelivered]), apns delivered + delivered_from_storage is \(handedOut)"
        }
        return nil
    }

    /// The rules of FakeAPNs's counters (APNsServer), against the requests the provider sent.
    /// - Complexity: O(counters).
    package static func violation(in apns: APNsCounters, pushesSent: Int64) -> String? {
        // Each request that reached APNs got one answer; some never reached it (network
        // failures) or were still on their way at the end.
        guard let answered = sum([apns[.accepted], apns[.rejected], apns[.tooManyRequests]]), answered <= pushesSent else {
            return "apns accepted \(apns[.accepted]) + rejected \(apns[.rejected]) + too_many_requests "
                + "\(apns[.tooManyRequests]) > pushes_sent \(pushesSent)"
        }
        guard let handedOut = sum([apns[.delivered], apns[.deliveredFromStorage]]) else {
            return "apns delivered + delivered_from_storage add up past \(Int64.max)"
        }
        // Only a notification handed out can bounce off the device.
        if apns[.bounced] > handedOut {
            return "apns bounced \(apns[.bounced]) > delivered + delivered_from_storage \(handedOut)"
        }
        // Only a stored notification is handed out from storage.
        if apns[.deliveredFromStorage] > apns[.storedOffline] {
            return "apns delivered_from_storage \(apns[.deliveredFromStorage]) > stored_offline \(apns[.storedOffline])"
        }
        // Notifications come in accepted or bounced and leave once, handed out or
        // discarded (stored or held ones are on the way); the rest were held at the end.
        let exits = sum([handedOut, apns[.discardedUnregistered], apns[.discardedExpired], apns[.discardedDisabled],
                         apns[.discardedReplaced]])
        let entries = sum([apns[.accepted], apns[.bounced]])
        guard let entries, let exits, exits <= entries else {
            return "apns delivered + delivered_from_storage + discarded_* \(exits.map(String.init) ?? "(past \(Int64.max))") "
                + "> accepted + bounced \(entries.map(String.init) ?? "(past \(Int64.max))")"
        }
        return nil
    }

    /// The sum of non-negative counts, or nil past `Int64.max`.
    private static func sum(_ values: some Sequence<Int64>) -> Int64? {
        var total: Int64 = 0
        for value in values {
            let (next, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = next
        }
        return total
    }
}
