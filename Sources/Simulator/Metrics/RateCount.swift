/// A count that the reported rates are ratios of (`Metric` says which), kept per
/// block of users as well as in total so that every rate carries a standard error
/// (`UserBlocks`). Declared once: the block arrays, their partial-result encoding,
/// their checks and the estimators all follow from this list.
public enum RateCount: Hashable, Sendable {
    case messages
    case delivered
    case measuredSent
    case measuredReceived
    case summarized
    case pushesSent
    // The funnel's stages (`funnel.csv`'s shares), besides messages and delivered.
    case providerSent
    case apnsAccepted
    case reachedDevice
    case logged
    case uploaded
    case opened
    case lost(LossReason)

    /// Every count, in block-array order (`index`).
    public static let allCases: [RateCount] = [.messages, .delivered, .measuredSent, .measuredReceived,
                                               .summarized, .pushesSent, .providerSent, .apnsAccepted, .reachedDevice,
                                               .logged, .uploaded, .opened] + LossReason.allCases.map { .lost($0) }

    /// The counts kept per day and block too: those of the daily rates
    /// (`Metric.daily`), first in `allCases` so their index is the same in both arrays.
    public static let daily: [RateCount] = [.messages, .delivered, .measuredSent, .measuredReceived]

    /// Where the count sits in a block's slice of `StrategyAggregate.blocks`.
    /// - Complexity: O(1).
    @inline(__always)
    public var index: Int {
        switch self {
        case .messages: 0
        case .delivered: 1
        case .measuredSent: 2
        case .measuredReceived: 3
        case .summarized: 4
        case .pushesSent: 5
        case .providerSent: 6
        case .apnsAccepted: 7
        case .reachedDevice: 8
        case .logged: 9
        case .uploaded: 10
        case .opened: 11
        case .lost(let reason): Self.firstLostIndex + Int(reason.rawValue) - 1
        }
    }

    /// The index of the first loss reason's count; the others follow in raw-value order.
    package static let firstLostIndex = 12

    /// The count's total in `aggregate`.
    /// - Complexity: O(1).
    public func total(in aggregate: StrategyAggregate) -> Int64 {
        switch self {
        case .messages: aggregate.messages
        case .delivered: aggregate.delivered
        case .measuredSent: aggregate.measuredSent
        case .measuredReceived: aggregate.measuredReceived
        case .summarized: aggregate.summarized
        case .pushesSent: aggregate.pushesSent
        case .providerSent: aggregate.providerSent
        case .apnsAccepted: aggregate.apnsAccepted
        case .reachedDevice: aggregate.reachedDevice
        case .logged: aggregate.logged
        case .uploaded: aggregate.uploaded
        case .opened: aggregate.opened
        case .lost(let reason): aggregate.lost(reason)
        }
    }

    /// The name of the count in messages and partial results.
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .messages: "messages"
        case .delivered: "delivered"
        case .measuredSent: "measured_sent"
        case .measuredReceived: "measured_received"
        case .summarized: "summarized"
        case .pushesSent: "pushes_sent"
        case .providerSent: "provider_sent"
        case .apnsAccepted: "apns_accepted"
        case .reachedDevice: "reached_device"
        case .logged: "logged"
        case .uploaded: "uploaded"
        case .opened: "opened"
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
