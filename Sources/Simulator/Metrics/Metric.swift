/// A rate PushSim reports for a strategy: a ratio of two counts summed over users.
/// Declared once: `summary.csv`'s rate columns, their standard errors, `compare.csv`,
/// the `expect` metrics of a scenario file and `pushsim check` / `diff` all follow
/// from this list.
public enum Metric: Hashable, Sendable {
    /// delivered / messages.
    case deliverability
    /// (delivered + summarized) / messages.
    case informedRate
    /// measured_received / measured_sent: what the talk's logging reports.
    case measuredDeliverability
    /// pushes_sent / messages: the cost.
    case pushesPerMessage
    /// lost for this reason / messages.
    case lostShare(LossReason)

    /// Every metric, in `summary.csv` order.
    public static let allCases: [Metric] = [.deliverability, .informedRate, .measuredDeliverability, .pushesPerMessage]
        + LossReason.allCases.map { .lostShare($0) }

    /// The metric's name in files and scenario `expect` entries (`summary.csv`'s column).
    public var name: String {
        switch self {
        case .deliverability: "deliverability"
        case .informedRate: "informed_rate"
        case .measuredDeliverability: "measured_deliverability"
        case .pushesPerMessage: "pushes_per_message"
        case .lostShare(let reason): "lost_" + reason.columnName + "_share"
        }
    }

    /// The metric named `name`, or nil.
    /// - Complexity: O(metrics).
    public init?(name: String) {
        guard let metric = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = metric
    }

    /// The ratio's numerator in `aggregate`.
    /// - Complexity: O(1).
    public func numerator(of aggregate: StrategyAggregate) -> Int64 {
        switch self {
        case .deliverability: aggregate.delivered
        case .informedRate: aggregate.delivered + aggregate.summarized
        case .measuredDeliverability: aggregate.measuredReceived
        case .pushesPerMessage: aggregate.pushesSent
        case .lostShare(let reason): aggregate.lost(reason)
        }
    }

    /// The ratio's denominator in `aggregate`.
    /// - Complexity: O(1).
    public func denominator(of aggregate: StrategyAggregate) -> Int64 {
        switch self {
        case .deliverability, .informedRate, .pushesPerMessage, .lostShare: aggregate.messages
        case .measuredDeliverability: aggregate.measuredSent
        }
    }
}

/// A rate with its standard error, from one run.
public struct Estimate: Sendable, Equatable {
    /// The point estimate (0 when the denominator is 0).
    public var value: Double
    /// Its standard error (0 when it cannot be estimated).
    public var standardError: Double

    /// An estimate.
    /// - Complexity: O(1).
    public init(value: Double, standardError: Double) {
        self.value = value
        self.standardError = standardError
    }

    /// The two-sided normal interval at `confidence` (0.95: value ± 1.96 SE).
    /// - Complexity: O(1).
    public func interval(confidence: Double = 0.95) -> ClosedRange<Double> {
        let half = normalQuantile(0.5 + confidence / 2) * standardError
        return (value - half)...(value + half)
    }
}

/// Φ⁻¹(p), the standard normal quantile (p in (0, 1)).
/// - Complexity: O(1).
public func normalQuantile(_ p: Double) -> Double { standardNormalQuantile(p) }
