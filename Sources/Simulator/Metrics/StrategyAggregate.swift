import Base
import FakeAPNs

/// The counts kept per arrival day of one strategy (launches and the Console's: per their
/// own day), in the order of `daily.csv`'s columns and of a partial result's `daily` arrays,
/// named as there (snake_case of the case). Adding one is its case here, its total (`total(in:)`) and counting
/// it in the fold (`Ledger.FoldPass`); storage, sums, sign checks, the daily totals'
/// balance and partial results follow.
public enum DayCounter: Int, Counter {
    /// Mails that arrived that day.
    case messages
    /// … whose own notification was shown.
    case delivered
    /// … covered only by a "missed messages" notification.
    case summarized
    /// … lost.
    case lost
    /// … still in flight at the end of the run.
    case pending
    /// … that the provider logged as sent, for users the talk's method counts that
    /// day (they launched the app that day or the next).
    case measuredSent
    /// … of those, logged "received" by the extension and uploaded by a launch by
    /// the end of the next day.
    case measuredReceived
    /// App launches that day (by the launch's day, not a mail's).
    case launches
    /// Notifications APNs accepted that day (the Console's "received"; by that day, not a mail's).
    case consoleReceived
    /// Notifications APNs handed to the device that day (the Console's "delivered").
    case consoleDelivered

    /// The day count of `outcome`; nil for an outcome not kept per day.
    /// - Complexity: O(1).
    public init?(_ outcome: OutcomeCounter) {
        switch outcome {
        case .messages: self = .messages
        case .delivered: self = .delivered
        case .summarized: self = .summarized
        case .measuredSent: self = .measuredSent
        case .measuredReceived: self = .measuredReceived
        case .launches: self = .launches
        case .consoleReceived: self = .consoleReceived
        case .consoleDelivered: self = .consoleDelivered
        case .pushesSent, .providerSent, .apnsAccepted, .reachedDevice, .logged, .uploaded, .opened: return nil
        }
    }

    /// The aggregate's total that the days' counts add up to (`StrategyAggregate.add`).
    /// - Complexity: O(1) (`lost`: O(reasons)).
    public func total(in aggregate: StrategyAggregate) -> Int64 {
        switch self {
        case .messages: aggregate[.messages]
        case .delivered: aggregate[.delivered]
        case .summarized: aggregate[.summarized]
        case .lost: aggregate.lost
        case .pending: aggregate.pending
        case .measuredSent: aggregate[.measuredSent]
        case .measuredReceived: aggregate[.measuredReceived]
        case .launches: aggregate[.launches]
        case .consoleReceived: aggregate[.consoleReceived]
        case .consoleDelivered: aggregate[.consoleDelivered]
        }
    }
}

/// Counts for one day of one strategy: by the mail's arrival day, but launches and the
/// Console's by their own.
public typealias DayCounts = CounterSet<DayCounter, 10>

/// Everything reported for one strategy, summed over users. Mergeable by
/// addition in any order (integers only), so threads and shards give the same bytes.
public struct StrategyAggregate: Sendable, Equatable {
    /// The outcome and funnel counts (`OutcomeCounter`); `self[counter]` reads and counts them.
    public var outcomes = OutcomeCounts()
    /// In flight at the end.
    public var pending: Int64 = 0
    /// Lost, by `LossReason.rawValue` (index 0 unused).
    public var lostByReason = ContiguousArray<Int64>(repeating: 0, count: LossReason.slots)
    /// Re-requests the extensions made.
    public var rerequests: Int64 = 0
    /// Extra Notification Center entries for a message already shown.
    public var duplicatesShown: Int64 = 0
    /// Presentations merged into an existing entry by collapse id.
    public var collapsed: Int64 = 0
    /// Mail → first presentation, delivered messages only.
    public var latency = LatencyHistogram()
    /// Mail → first presentation of the recovered messages among them: those whose first
    /// showing was a copy the provider re-sent (a re-request's answer). `latency` holds
    /// them too; the first copies are the difference (`firstCopyLatency`).
    public var recoveredLatency = LatencyHistogram()
    /// Per arrival day.
    public var daily: ContiguousArray<DayCounts>

    /// Along the chain, where nothing is lost (in pushes or events).
    public var chain = ChainCounts()
    /// What the Push Notifications Console would show (`apns.csv`).
    public var apns = APNsCounters()
    /// What APNs's faults cost (`apns.faults`): zeros for a scenario without them.
    public var faults = APNsFaultCounts()
    /// What became of the background pushes (`background.csv`); zeros without `background`.
    public var background = BackgroundCounts()

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

    /// The count of `counter`.
    /// - Complexity: O(1).
    @inlinable
    public subscript(counter: OutcomeCounter) -> Int64 {
        get { outcomes[counter] }
        set { outcomes[counter] = newValue }
    }

    /// `count` in block `block`.
    /// - Complexity: O(1).
    public func count(_ count: RateCount, block: Int) -> Int64 {
        blocks[block * RateCount.allCases.count + count.index]
    }

    /// `count` (one of `RateCount.daily`) of day `day` in block `block`.
    /// - Complexity: O(1).
    public func count(_ count: RateCount, day: Int, block: Int) -> Int64 {
        precondition(count.index < OutcomeCounter.daily.count, "\(count.name) is not kept per day")
        return dailyBlocks[(day * UserBlocks.count + block) * OutcomeCounter.daily.count + count.index]
    }

    /// Adds `value` to `count` of block `block`.
    /// - Complexity: O(1).
    @inline(__always)
    package mutating func add(_ value: Int64, to count: RateCount, block: Int) {
        blocks[block * RateCount.allCases.count + count.index] += value
    }

    /// Adds `counts` to the totals and to block `block`'s counts.
    /// - Complexity: O(outcomes).
    @inline(__always)
    package mutating func add(_ counts: OutcomeCounts, block: Int) {
        outcomes += counts
        let base = block * RateCount.allCases.count
        let width = RateCount.firstLostIndex
        blocks.withUnsafeMutableBufferPointer { blockCounts in
            let source = counts.storage.span
            for index in 0..<width { blockCounts[base + index] += source[index] }
        }
    }

    /// Calls `body` with this aggregate and recorders into its `latency` and
    /// `recoveredLatency`, their buckets made unique once for the call (`latency.record`
    /// checks once a value): the fold records a lane's latencies so. While `body` runs,
    /// the aggregate holds stand-ins for the two (`LatencyHistogram.movedOut`): record
    /// only through the recorders.
    /// - Complexity: O(1) plus `body`'s.
    @inline(__always)
    package mutating func recordingLatencies<Result>(
        _ body: (inout StrategyAggregate, inout LatencyHistogram.Recorder, inout LatencyHistogram.Recorder) throws -> Result
    ) rethrows -> Result {
        var taken = (latency: LatencyHistogram.movedOut, recovered: LatencyHistogram.movedOut)
        swap(&taken.latency, &latency)
        swap(&taken.recovered, &recoveredLatency)
        defer {
            swap(&taken.latency, &latency)
            swap(&taken.recovered, &recoveredLatency)
        }
        return try taken.latency.recording { latency in
            try taken.recovered.recording { recovered in try body(&self, &latency, &recovered) }
        }
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
    /// reports, in the order of a partial result's `counts` array: format 6's order,
    /// then any outcome declared since, in `OutcomeCounter` order. A test checks it
    /// holds every outcome and every other `Int64` field once.
    /// Built once (key paths are immutable: shared without a lock).
    nonisolated(unsafe) public static let counts: [(name: String, field: WritableKeyPath<StrategyAggregate, Int64>)] =
        countDeclarations.map { (name: $0.name.text, field: $0.field) }

    /// `counts`' fields alone, in its order: what a check that finds every count in order
    /// reads. An outcome's name comes from the runtime's reflection of its case, about
    /// 90,000 instructions a name the first time (a fifth of a 100-device benchmark's check).
    nonisolated(unsafe) package static let countFields: [WritableKeyPath<StrategyAggregate, Int64>] =
        countDeclarations.map(\.field)

    /// A scalar count's name, made only when it is read.
    private enum CountName {
        case outcome(OutcomeCounter)
        case field(String)

        var text: String {
            switch self {
            case .outcome(let counter): counter.columnName
            case .field(let name): name
            }
        }
    }

    /// `counts`, its names not yet made.
    nonisolated(unsafe) private static let countDeclarations: [(name: CountName, field: WritableKeyPath<StrategyAggregate, Int64>)] = {
        func outcome(_ counter: OutcomeCounter) -> (name: CountName, field: WritableKeyPath<StrategyAggregate, Int64>) {
            (.outcome(counter), \StrategyAggregate.[counter])
        }
        let format6: [(name: CountName, field: WritableKeyPath<StrategyAggregate, Int64>)] =
            [outcome(.messages), outcome(.delivered), outcome(.summarized), (.field("pending"), \.pending),
             outcome(.pushesSent), (.field("rerequests"), \.rerequests), (.field("duplicates_shown"), \.duplicatesShown),
             (.field("collapsed"), \.collapsed), outcome(.providerSent), outcome(.apnsAccepted), outcome(.reachedDevice),
             outcome(.logged), outcome(.uploaded), outcome(.opened), outcome(.measuredSent), outcome(.measuredReceived)]
        let listed = Set(format6.compactMap { if case .outcome(let counter) = $0.name { counter } else { nil } })
        return format6 + OutcomeCounter.allCases.filter { !listed.contains($0) }.map(outcome)
    }()

    /// Total lost.
    public var lost: Int64 { lostByReason.reduce(0, +) }

    /// Lost for one reason.
    public func lost(_ reason: LossReason) -> Int64 { lostByReason[Int(reason.rawValue)] }

    /// delivered / messages.
    public var deliverability: Double { self[.messages] == 0 ? 0 : Double(self[.delivered]) / Double(self[.messages]) }

    /// (delivered + summarized) / messages.
    public var informedRate: Double {
        self[.messages] == 0 ? 0 : Double(self[.delivered] + self[.summarized]) / Double(self[.messages])
    }

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
        for (index, field) in Self.countFields.enumerated() where !add(&sum[keyPath: field], other[keyPath: field]) {
            return Self.counts[index].name
        }
        for index in lostByReason.indices where !add(&sum.lostByReason[index], other.lostByReason[index]) {
            return "lost_" + (LossReason(rawValue: UInt8(index))?.columnName ?? "without_reason")
        }
        for day in daily.indices {
            switch sum.daily[day].adding(other.daily[day]) {
            case .success(let counts): sum.daily[day] = counts
            case .failure(let overflow): return "day \(day + 1) \(overflow.counter.columnName)"
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
        if let overflow = sum.faults.add(checking: other.faults) { return overflow }
        switch sum.background.adding(other.background) {
        case .success(let background): sum.background = background
        case .failure(let overflow): return "background " + overflow.counter.columnName
        }
        sum.latency.merge(other.latency)
        sum.recoveredLatency.merge(other.recoveredLatency)
        self = sum
        return nil
    }

    /// Adds `value` to daily count `counter` (one of `OutcomeCounter.daily`) of `day`, to its
    /// total and to block `block`'s counts: for the counts kept by their own day (launches,
    /// the Console's), which come one or two at a time, not a day's `DayCounts` at once.
    /// - Complexity: O(1).
    @inline(__always)
    package mutating func add(_ value: Int64, to counter: OutcomeCounter, day: Int, block: Int) {
        guard let dayCounter = DayCounter(counter) else { preconditionFailure("\(counter.columnName) is not kept per day") }
        daily[day][dayCounter] += value
        outcomes[counter] += value
        dailyBlocks[(day * UserBlocks.count + block) * OutcomeCounter.daily.count + counter.rawValue] += value
        blocks[block * RateCount.allCases.count + counter.rawValue] += value
    }

    /// Adds `(day, count)` pairs of one lane to daily count `counter` (one of
    /// `OutcomeCounter.daily`): what `add(_:to:day:block:)` does for each pair, with one
    /// uniqueness check per array for all of them. For the counts kept by their own day
    /// (launches, the Console's), which the lane's end adds together. Inlined: the pairs
    /// are then read in place, not through a call a pair (`ConsoleDays.add` maps its cuts).
    /// - Complexity: O(pairs).
    @inline(__always)
    package mutating func add(_ counts: some Collection<(day: Int, count: Int64)>, to counter: OutcomeCounter, block: Int) {
        guard let dayCounter = DayCounter(counter) else { preconditionFailure("\(counter.columnName) is not kept per day") }
        guard !counts.isEmpty else { return }
        precondition(block >= 0 && block < UserBlocks.count && dailyBlocks.count == daily.count * UserBlocks.count * OutcomeCounter.daily.count,
                     "block \(block) is not one of the aggregate's")
        var total: Int64 = 0
        daily.withUnsafeMutableBufferPointer { days in
            for (day, count) in counts {
                // Checked here: the block counts below are written unchecked.
                precondition(day >= 0 && day < days.count, "day \(day) is not in the run")
                days[day][dayCounter] += count
                total += count
            }
        }
        dailyBlocks.withUnsafeMutableBufferPointer { blockCounts in
            for (day, count) in counts {
                blockCounts[(day * UserBlocks.count + block) * OutcomeCounter.daily.count + counter.rawValue] += count
            }
        }
        outcomes[counter] += total
        blocks[block * RateCount.allCases.count + counter.rawValue] += total
    }

    /// Adds one day's counts of the users of block `block` to `day`, to the totals
    /// they sum to and to the block's counts.
    /// - Complexity: O(1).
    package mutating func add(_ counts: DayCounts, day: Int, block: Int) {
        addToDay(counts, day: day, block: block)
        addToTotals(counts, block: block)
    }

    /// The day's half of `add(_:day:block:)`: `daily[day]` and the day's block counts.
    /// - Complexity: O(1).
    package mutating func addToDay(_ counts: DayCounts, day: Int, block: Int) {
        addToDays(CollectionOfOne((day: day, counts: counts)), block: block)
    }

    /// `addToDay` for each of `days`, with one uniqueness check per array for all of them:
    /// the fold adds a lane's days so, at the lane's end, and their sum once, to the totals
    /// (`addToTotals`). Inlined: the days are then read in place.
    /// - Complexity: O(days).
    @inline(__always)
    package mutating func addToDays(_ days: some Collection<(day: Int, counts: DayCounts)>, block: Int) {
        guard !days.isEmpty else { return }
        precondition(block >= 0 && block < UserBlocks.count && dailyBlocks.count == daily.count * UserBlocks.count * OutcomeCounter.daily.count,
                     "block \(block) is not one of the aggregate's")
        daily.withUnsafeMutableBufferPointer { daily in
            for (day, counts) in days {
                // Checked here: the block counts below are written unchecked.
                precondition(day >= 0 && day < daily.count, "day \(day) is not in the run")
                daily[day] += counts
            }
        }
        // `OutcomeCounter.daily`, a literal, costs no lazy-global check here, unlike `RateCount.daily`.
        dailyBlocks.withUnsafeMutableBufferPointer { blockCounts in
            for (day, counts) in days {
                let row = blockCounts.baseAddress! + (day * UserBlocks.count + block) * OutcomeCounter.daily.count
                row[OutcomeCounter.messages.rawValue] += counts[.messages]
                row[OutcomeCounter.delivered.rawValue] += counts[.delivered]
                row[OutcomeCounter.measuredSent.rawValue] += counts[.measuredSent]
                row[OutcomeCounter.measuredReceived.rawValue] += counts[.measuredReceived]
                row[OutcomeCounter.launches.rawValue] += counts[.launches]
                row[OutcomeCounter.consoleReceived.rawValue] += counts[.consoleReceived]
                row[OutcomeCounter.consoleDelivered.rawValue] += counts[.consoleDelivered]
            }
        }
    }

    /// The totals' half of `add(_:day:block:)`: the totals and the block's counts of
    /// `counts`, a day's or the sum of a lane's days.
    /// - Complexity: O(1).
    package mutating func addToTotals(_ counts: DayCounts, block: Int) {
        let base = block * RateCount.allCases.count
        blocks.withUnsafeMutableBufferPointer { blockCounts in
            blockCounts[base + OutcomeCounter.messages.rawValue] += counts[.messages]
            blockCounts[base + OutcomeCounter.delivered.rawValue] += counts[.delivered]
            blockCounts[base + OutcomeCounter.measuredSent.rawValue] += counts[.measuredSent]
            blockCounts[base + OutcomeCounter.measuredReceived.rawValue] += counts[.measuredReceived]
            blockCounts[base + OutcomeCounter.summarized.rawValue] += counts[.summarized]
            blockCounts[base + OutcomeCounter.launches.rawValue] += counts[.launches]
            blockCounts[base + OutcomeCounter.consoleReceived.rawValue] += counts[.consoleReceived]
            blockCounts[base + OutcomeCounter.consoleDelivered.rawValue] += counts[.consoleDelivered]
        }
        outcomes[.messages] += counts[.messages]
        outcomes[.delivered] += counts[.delivered]
        outcomes[.summarized] += counts[.summarized]
        pending += counts[.pending]
        outcomes[.measuredSent] += counts[.measuredSent]
        outcomes[.measuredReceived] += counts[.measuredReceived]
        outcomes[.launches] += counts[.launches]
        outcomes[.consoleReceived] += counts[.consoleReceived]
        outcomes[.consoleDelivered] += counts[.consoleDelivered]
    }

    /// measuredReceived / measuredSent: deliverability as the talk's logging reports it.
    public var measuredDeliverability: Double {
        self[.measuredSent] == 0 ? 0 : Double(self[.measuredReceived]) / Double(self[.measuredSent])
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
        checkTotalBlocks() ?? (dailyBlocksAddUp() ? nil : checkDailyBlocks())
    }

    /// True when every day's blocks add up to the day's counts, without overflow: the
    /// usual answer, found by one pass over `dailyBlocks` (`checkDailyBlocks` says what is wrong).
    /// - Complexity: O(days × blocks).
    private func dailyBlocksAddUp() -> Bool {
        let width = RateCount.daily.count
        guard dailyBlocks.count == daily.count * UserBlocks.count * width else { return false }
        return dailyBlocks.withUnsafeBufferPointer { counts in
            var overflowed = false
            for day in daily.indices {
                for count in OutcomeCounter.daily {
                    // A day's block row is indexed by the count's raw value (`count(_:day:block:)`).
                    var sum: Int64 = 0
                    var at = day * UserBlocks.count * width + count.rawValue
                    for _ in 0..<UserBlocks.count {
                        let (value, overflow) = sum.addingReportingOverflow(counts[at])
                        sum = value
                        if overflow { overflowed = true }
                        at &+= width
                    }
                    if overflowed || sum != DayCounter(count).map({ daily[day][$0] }) { return false }
                }
            }
            return true
        }
    }

    /// Checks that the blocks sum to the totals.
    /// - Complexity: O(blocks).
    private func checkTotalBlocks() -> String? {
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
        return nil
    }

    /// The first day's count whose blocks do not add up to it, or overflow.
    /// - Complexity: O(days × blocks).
    private func checkDailyBlocks() -> String? {
        for day in daily.indices {
            for count in OutcomeCounter.daily {
                var sum: Int64 = 0
                for block in 0..<UserBlocks.count {
                    let (value, overflow) = sum.addingReportingOverflow(self.count(.outcome(count), day: day, block: block))
                    if overflow { return "day \(day + 1)'s blocks' \(count.columnName) overflows" }
                    sum = value
                }
                if sum != DayCounter(count).map({ daily[day][$0] }) { return "day \(day + 1)'s blocks' \(count.columnName) does not add up to the day's" }
            }
        }
        return nil
    }
}
