import Base

/// The counts of a strategy that the reported rates, the funnel and the fit's figures
/// are ratios of, besides the losses by reason: per message, but for `launches` and the
/// Console's (per notification). One case per count, in block-array order
/// (its raw value is its `RateCount.index`); its name in reports, messages and
/// partial results is the case's name in snake_case (`apnsAccepted` →
/// `apns_accepted`). Adding one is adding its case here (at the end: the daily ones
/// stay first), saying its `funnelPosition`, counting it where it happens (the
/// ledger's `FoldPass.funnel`) and raising `PartialResult.version` (the partial's
/// arrays grow); storage (`StrategyAggregate`'s subscript), the blocks and their
/// standard errors, merge, the balance rules' sign checks, partial results and the
/// funnel follow.
public enum OutcomeCounter: Int, Counter {
    /// Mails, one per device + app.
    case messages
    /// Own notification shown.
    case delivered
    /// Sent, over users who launched the app the same or the next day (the talk's measurement).
    case measuredSent
    /// Of those, logged and uploaded by the end of the next day.
    case measuredReceived
    /// App launches, by the launch's day: what a team's analytics counts (`pushsim fit`'s
    /// `launches`). The same as the chain's `launches` (`ChainCounter`), kept per day and block.
    case launches
    /// Notifications APNs accepted (answered 200), by the day it did: the Console's "received".
    /// Per notification, re-sends included. Equal to APNs's `accepted` over the run.
    case consoleReceived
    /// Notifications APNs handed to the device, straight away or from storage, by the day it
    /// did: the Console's "delivered". Equal to APNs's `delivered` + `delivered_from_storage`.
    case consoleDelivered
    /// Covered by a summary / error notification only.
    case summarized
    /// Requests sent to APNs, originals and re-sends.
    case pushesSent
    // The funnel (`funnel.csv`), in messages: each stage counts a message once.
    /// The provider sent an original push for it (what XIVA's own log shows).
    case providerSent
    /// APNs answered 200 to at least one of its pushes (what a provider sees).
    case apnsAccepted
    /// At least one of its pushes reached iOS on the device.
    case reachedDevice
    /// The extension logged "received" for it.
    case logged
    /// … and a launch uploaded that log before the run ended.
    case uploaded
    /// The user tapped its notification.
    case opened

    /// Where the count stands in the funnel (`funnel.csv`, the report's funnel chart),
    /// in chain order; nil for a count that is not a funnel stage. A new case must say.
    /// - Complexity: O(1).
    public var funnelPosition: Int? {
        switch self {
        case .messages: 0
        case .providerSent: 1
        case .apnsAccepted: 2
        case .reachedDevice: 3
        case .delivered: 4
        case .logged: 5
        case .uploaded: 6
        case .opened: 7
        case .measuredSent, .measuredReceived, .launches, .consoleReceived, .consoleDelivered, .summarized, .pushesSent: nil
        }
    }

    /// The funnel's stages, in chain order (`funnelPosition`), each with its name
    /// there: the case's own, but `shown` for `delivered`.
    /// - Complexity: O(1).
    public static let funnelStages: [(stage: String, count: OutcomeCounter)] =
        allCases.compactMap { counter in counter.funnelPosition.map { ($0, counter) } }.sorted { $0.0 < $1.0 }
            .map { ($0.1 == .delivered ? "shown" : $0.1.columnName, $0.1) }

    /// The counts kept per day and block too: those of the daily rates
    /// (`Metric.daily`) and the fit's (`launches`, the Console's), first in `allCases` so their
    /// index is the same in both arrays.
    public static let daily: [OutcomeCounter] = [.messages, .delivered, .measuredSent, .measuredReceived, .launches,
                                                 .consoleReceived, .consoleDelivered]
}

/// A strategy's outcome counts (or summed over many).
public typealias OutcomeCounts = CounterSet<OutcomeCounter, 16>

/// A count that the reported rates are ratios of (`Metric` says which), kept per
/// block of users as well as in total so that every rate carries a standard error
/// (`UserBlocks`). Declared by `OutcomeCounter` and `LossReason`: the block arrays,
/// their partial-result encoding, their checks and the estimators all follow.
public enum RateCount: Hashable, Sendable {
    case outcome(OutcomeCounter)
    case lost(LossReason)

    /// Every count, in block-array order (`index`).
    public static let allCases: [RateCount] = OutcomeCounter.allCases.map { .outcome($0) } + LossReason.allCases.map { .lost($0) }

    /// The counts kept per day and block too (`OutcomeCounter.daily`).
    public static let daily: [RateCount] = OutcomeCounter.daily.map { .outcome($0) }

    /// Where the count sits in a block's slice of `StrategyAggregate.blocks`: the
    /// outcome's raw value, then the loss reasons in raw-value order.
    /// - Complexity: O(1).
    @inline(__always)
    public var index: Int {
        switch self {
        case .outcome(let counter): counter.rawValue
        case .lost(let reason): Self.firstLostIndex + Int(reason.rawValue) - 1
        }
    }

    /// The index of the first loss reason's count; the others follow in raw-value order.
    package static let firstLostIndex = OutcomeCounter.allCases.count

    /// The count's total in `aggregate`.
    /// - Complexity: O(1).
    public func total(in aggregate: StrategyAggregate) -> Int64 {
        switch self {
        case .outcome(let counter): aggregate[counter]
        case .lost(let reason): aggregate.lost(reason)
        }
    }

    /// The name of the count in messages and partial results.
    /// - Complexity: O(name length).
    public var name: String {
        switch self {
        case .outcome(let counter): counter.columnName
        case .lost(let reason): "lost_" + reason.columnName
        }
    }
}

/// Users are the independent units of a run; their counts are also summed into a
/// fixed number of blocks, user u into block u mod `count`, so a rate's standard error
/// comes from the spread of its blocks (the delta method over blocks as units). The
/// assignment depends on the user's index only, so blocks sum the same for any
/// number of threads or shards.
public enum UserBlocks {
    /// Blocks per run: enough degrees of freedom (63) that the interval is close to
    /// its normal form, few enough that per-day blocks stay small (2 KiB a day and strategy).
    public static let count = 64

    /// The block that user `user` counts in.
    /// - Complexity: O(1).
    @inline(__always)
    public static func block(of user: Int) -> Int { user % count }

    /// Blocks that hold at least one user of a run over `users` users (contiguous
    /// user ranges fill blocks in turn).
    /// - Complexity: O(1).
    public static func used(users: Int64) -> Int { Int(min(Int64(count), max(users, 0))) }
}
