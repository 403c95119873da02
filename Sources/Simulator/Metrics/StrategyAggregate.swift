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

    /// The counts, named as in `daily.csv`, in the order of its columns and of a
    /// partial result's `daily` arrays, each with the aggregate's total it adds to
    /// (`StrategyAggregate.add`). A test checks it holds every `Int64` field.
    /// - Complexity: O(1).
    public static var counts: [(name: String, field: WritableKeyPath<DayCounts, Int64>,
                                total: KeyPath<StrategyAggregate, Int64>)] {
        [("messages", \.messages, \.messages), ("delivered", \.delivered, \.delivered),
         ("summarized", \.summarized, \.summarized), ("lost", \.lost, \.lost), ("pending", \.pending, \.pending),
         ("measured_sent", \.measuredSent, \.measuredSent), ("measured_received", \.measuredReceived, \.measuredReceived)]
    }

    /// `count`'s value that day; nil for a count not kept per day (not in `RateCount.daily`).
    /// - Complexity: O(1).
    public func count(_ count: RateCount) -> Int64? {
        switch count {
        case .messages: messages
        case .delivered: delivered
        case .measuredSent: measuredSent
        case .measuredReceived: measuredReceived
        case .summarized, .pushesSent, .providerSent, .apnsAccepted, .reachedDevice, .logged, .uploaded, .opened, .lost: nil
        }
    }

    /// Adds another day's counts. Spelled out rather than over `counts`: the fold
    /// adds a day per user and day, where key paths would cost.
    public static func += (lhs: inout DayCounts, rhs: DayCounts) {
        lhs.messages += rhs.messages
        lhs.delivered += rhs.delivered
        lhs.summarized += rhs.summarized
        lhs.lost += rhs.lost
        lhs.pending += rhs.pending
        lhs.measuredSent += rhs.measuredSent
        lhs.measuredReceived += rhs.measuredReceived
    }
    package init(messages: Int64 = 0, delivered: Int64 = 0, summarized: Int64 = 0, lost: Int64 = 0, pending: Int64 = 0, measuredSent: Int64 = 0, measuredReceived: Int64 = 0) {
        self.messages = messages
        self.delivered = delivered
        self.summarized = summarized
        self.lost = lost
        self.pending = pending
        self.measuredSent = measuredSent
        self.measuredReceived = measuredReceived
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

    /// Along the chain, where nothing is lost (in pushes or events).
    public var chain = ChainCounts()
    /// What the Push Notifications Console would show (`apns.csv`).
    public var apns = APNsCounters()

    /// Lost per arrival day and reason: index day × reasons + (reason's raw value − 1).
    /// Kept flat beside `daily` so the fold counts a loss without building a day's array.
    public var dailyLostByReason: ContiguousArray<Int64>

    /// The rates' counts per block of users (`UserBlocks`): index
    /// block × `RateCount.allCases.count` + the count's `index`. Their spread gives
    /// each rate's standard error.
    public var blocks: ContiguousArray<Int64>
    /// The daily rates' counts per day and block: index
    /// (day × `UserBlocks.count` + block) × `RateCount.daily.count` + the count's `index`.
    public var dailyBlocks: ContiguousArray<Int64>

    /// Zeros for a run of `days` days.
    /// - Complexity: O(days × blocks).
    public init(days: Int) {
        daily = ContiguousArray(repeating: DayCounts(), count: days)
        dailyLostByReason = ContiguousArray(repeating: 0, count: days * LossReason.allCases.count)
        blocks = ContiguousArray(repeating: 0, count: UserBlocks.count * RateCount.allCases.count)
        dailyBlocks = ContiguousArray(repeating: 0, count: days * UserBlocks.count * RateCount.daily.count)
    }

    /// `count` in block `block`.
    /// - Complexity: O(1).
    public func count(_ count: RateCount, block: Int) -> Int64 {
        blocks[block * RateCount.allCases.count + count.index]
    }

    /// `count` (one of `RateCount.daily`) of day `day` in block `block`.
    /// - Complexity: O(1).
    public func count(_ count: RateCount, day: Int, block: Int) -> Int64 {
        precondition(count.index < RateCount.daily.count, "\(count.name) is not kept per day")
        return dailyBlocks[(day * UserBlocks.count + block) * RateCount.daily.count + count.index]
    }

    /// Adds `value` to `count` of block `block`.
    /// - Complexity: O(1).
    @inline(__always)
    package mutating func add(_ value: Int64, to count: RateCount, block: Int) {
        blocks[block * RateCount.allCases.count + count.index] += value
    }

    /// Where `reason`'s count of `day` sits in `dailyLostByReason`.
    /// - Complexity: O(1).
    @inline(__always)
    package static func dailyLostIndex(day: Int, reasonRawValue: Int) -> Int {
        day * LossReason.allCases.count + reasonRawValue - 1
    }

    /// Mail of `day` lost for `reason`.
    /// - Complexity: O(1).
    public func lost(_ reason: LossReason, day: Int) -> Int64 {
        dailyLostByReason[Self.dailyLostIndex(day: day, reasonRawValue: Int(reason.rawValue))]
    }

    /// The scalar counts (the counters are in `chain` and `apns`), named as in the
    /// reports, in the order of a partial result's `counts` array. A test checks it
    /// holds every `Int64` field.
    /// - Complexity: O(1).
    public static var counts: [(name: String, field: WritableKeyPath<StrategyAggregate, Int64>)] {
        [("messages", \.messages), ("delivered", \.delivered), ("summarized", \.summarized), ("pending", \.pending),
         ("pushes_sent", \.pushesSent), ("rerequests", \.rerequests), ("duplicates_shown", \.duplicatesShown),
         ("collapsed", \.collapsed), ("provider_sent", \.providerSent), ("apns_accepted", \.apnsAccepted),
         ("reached_device", \.reachedDevice), ("logged", \.logged), ("uploaded", \.uploaded), ("opened", \.opened),
         ("measured_sent", \.measuredSent), ("measured_received", \.measuredReceived)]
    }

    /// Total lost.
    public var lost: Int64 { lostByReason.reduce(0, +) }

    /// Lost for one reason.
    public func lost(_ reason: LossReason) -> Int64 { lostByReason[Int(reason.rawValue)] }

    /// delivered / messages.
    public var deliverability: Double { messages == 0 ? 0 : Double(delivered) / Double(messages) }

    /// (delivered + summarized) / messages.
    public var informedRate: Double { messages == 0 ? 0 : Double(delivered + summarized) / Double(messages) }

    /// Adds another aggregate (another user, thread or shard) of this run: a sum past
    /// `Int64.max` is a defect here, and traps.
    /// - Complexity: O(days + buckets).
    public mutating func merge(_ other: StrategyAggregate) {
        if let overflow = merge(checking: other) { preconditionFailure("merging aggregates: \(overflow) overflows") }
    }

    /// Adds another aggregate, every sum checked: on a sum past `Int64.max` it returns
    /// the count's name and leaves `self` as it was. For counts read from outside
    /// (partial results); each latency total must be a count of delivered messages
    /// (at most `Int64.max`), so the merged histogram, whose total is the merged
    /// `delivered`, cannot overflow either.
    /// - Complexity: O(days + buckets).
    public mutating func merge(checking other: StrategyAggregate) -> String? {
        var sum = self
        func add(_ lhs: inout Int64, _ rhs: Int64) -> Bool {
            let (value, overflow) = lhs.addingReportingOverflow(rhs)
            lhs = value
            return !overflow
        }
        for (name, field) in Self.counts where !add(&sum[keyPath: field], other[keyPath: field]) { return name }
        for index in lostByReason.indices where !add(&sum.lostByReason[index], other.lostByReason[index]) {
            return "lost_" + (LossReason(rawValue: UInt8(index))?.columnName ?? "without_reason")
        }
        for day in daily.indices {
            for (name, field, _) in DayCounts.counts where !add(&sum.daily[day][keyPath: field], other.daily[day][keyPath: field]) {
                return "day \(day + 1) \(name)"
            }
        }
        for index in dailyLostByReason.indices
        where !add(&sum.dailyLostByReason[index], other.dailyLostByReason[index]) {
            return "day \(index / LossReason.allCases.count + 1) lost by reason"
        }
        for index in blocks.indices where !add(&sum.blocks[index], other.blocks[index]) {
            return "block \(index / RateCount.allCases.count) " + RateCount.allCases[index % RateCount.allCases.count].name
        }
        for index in dailyBlocks.indices where !add(&sum.dailyBlocks[index], other.dailyBlocks[index]) {
            return "day \(index / (UserBlocks.count * RateCount.daily.count) + 1) block "
                + "\(index / RateCount.daily.count % UserBlocks.count) " + RateCount.daily[index % RateCount.daily.count].name
        }
        switch sum.chain.adding(other.chain) {
        case .success(let chain): sum.chain = chain
        case .failure(let overflow): return overflow.counter.columnName
        }
        switch sum.apns.adding(other.apns) {
        case .success(let apns): sum.apns = apns
        case .failure(let overflow): return "apns " + overflow.counter.columnName
        }
        sum.latency.merge(other.latency)
        self = sum
        return nil
    }

    /// Adds one day's counts of the users of block `block` to `day`, to the totals
    /// they sum to and to the block's counts.
    /// - Complexity: O(1).
    package mutating func add(_ counts: DayCounts, day: Int, block: Int) {
        // One uniqueness check per array, not one per count: the fold calls this per user and day.
        let dayBlock = (day * UserBlocks.count + block) * RateCount.daily.count
        dailyBlocks.withUnsafeMutableBufferPointer { blockCounts in
            blockCounts[dayBlock + RateCount.messages.index] += counts.messages
            blockCounts[dayBlock + RateCount.delivered.index] += counts.delivered
            blockCounts[dayBlock + RateCount.measuredSent.index] += counts.measuredSent
            blockCounts[dayBlock + RateCount.measuredReceived.index] += counts.measuredReceived
        }
        let base = block * RateCount.allCases.count
        blocks.withUnsafeMutableBufferPointer { blockCounts in
            blockCounts[base + RateCount.messages.index] += counts.messages
            blockCounts[base + RateCount.delivered.index] += counts.delivered
            blockCounts[base + RateCount.measuredSent.index] += counts.measuredSent
            blockCounts[base + RateCount.measuredReceived.index] += counts.measuredReceived
            blockCounts[base + RateCount.summarized.index] += counts.summarized
        }
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

    /// Checks the balance rules (`BalanceRules`): every message in exactly one
    /// bucket, overall and per day, every count non-negative, the funnel nested, the
    /// blocks and APNs's counters consistent. Runs in release builds too: a report
    /// that does not add up is not written. `merge` checks each part by the same rules.
    /// - Complexity: O(days × blocks + counters).
    public func checkIdentity() -> String? {
        BalanceRules.violation(in: self)
    }

    /// Checks that the blocks sum to the totals, overall and per day.
    /// - Complexity: O(days × blocks).
    package func checkBlocks() -> String? {
        let width = RateCount.allCases.count
        for count in RateCount.allCases {
            var sum: Int64 = 0
            for block in 0..<UserBlocks.count {
                let (value, overflow) = sum.addingReportingOverflow(blocks[block * width + count.index])
                if overflow { return "the blocks' \(count.name) overflows" }
                sum = value
            }
            if sum != count.total(in: self) { return "the blocks' \(count.name) (\(sum)) does not add up to the total" }
        }
        for day in daily.indices {
            for count in RateCount.daily {
                var sum: Int64 = 0
                for block in 0..<UserBlocks.count {
                    let (value, overflow) = sum.addingReportingOverflow(self.count(count, day: day, block: block))
                    if overflow { return "day \(day + 1)'s blocks' \(count.name) overflows" }
                    sum = value
                }
                if sum != daily[day].count(count) { return "day \(day + 1)'s blocks' \(count.name) does not add up to the day's" }
            }
        }
        return nil
    }
}
