import Base
import FoundationEssentials
import Glibc

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

    /// The counts the ratio's numerator sums.
    /// - Complexity: O(1).
    public var numeratorCounts: [RateCount] {
        switch self {
        case .deliverability: [.outcome(.delivered)]
        case .informedRate: [.outcome(.delivered), .outcome(.summarized)]
        case .measuredDeliverability: [.outcome(.measuredReceived)]
        case .pushesPerMessage: [.outcome(.pushesSent)]
        case .lostShare(let reason): [.lost(reason)]
        }
    }

    /// The count the ratio divides by.
    /// - Complexity: O(1).
    public var denominatorCount: RateCount {
        switch self {
        case .deliverability, .informedRate, .pushesPerMessage, .lostShare: .outcome(.messages)
        case .measuredDeliverability: .outcome(.measuredSent)
        }
    }

    /// The rates `daily.csv` reports per day, with standard errors: their counts are
    /// those of `RateCount.daily`.
    public static let daily: [Metric] = [.deliverability, .measuredDeliverability]

    /// The ratio's numerator in `aggregate`.
    /// - Complexity: O(1).
    public func numerator(of aggregate: StrategyAggregate) -> Int64 {
        numeratorCounts.reduce(0) { $0 + $1.total(in: aggregate) }
    }

    /// The ratio's denominator in `aggregate`.
    /// - Complexity: O(1).
    public func denominator(of aggregate: StrategyAggregate) -> Int64 { denominatorCount.total(in: aggregate) }
}

/// A rate with its standard error, from one run.
public struct Estimate: Sendable, Equatable {
    /// The point estimate; NaN when there is nothing to divide by (no messages, nothing
    /// measured): files leave it empty, JSON writes `null`, and no expectation holds on it.
    public var value: Double
    /// Its standard error; not finite when it cannot be estimated (fewer than two
    /// users, or nothing to divide by).
    public var standardError: Double
    /// The degrees of freedom of the standard error (blocks of users − 1), for a
    /// Student t interval; nil for the normal one (e.g. a standard error read back
    /// from a CSV file).
    public var degreesOfFreedom: Int?

    /// An estimate.
    /// - Complexity: O(1).
    public init(value: Double, standardError: Double, degreesOfFreedom: Int? = nil) {
        self.value = value
        self.standardError = standardError
        self.degreesOfFreedom = degreesOfFreedom
    }

    /// Whether the standard error is known (finite, non-negative), so an interval exists.
    public var hasStandardError: Bool { standardError.isFinite && standardError >= 0 }

    /// The two-sided interval at `confidence`: value ± q·SE, q the Student t quantile
    /// with `degreesOfFreedom` (1.998 at 63 and 0.95), or the normal one (1.960); nil
    /// when the standard error is unknown, and when no interval exists: a value that is
    /// not finite (NaN, read back from a damaged file), a confidence outside (0, 1) or so
    /// close to 1 that 0.5 + confidence / 2 rounds to 1, or ends that overflow.
    /// - Complexity: O(1).
    public func interval(confidence: Double = 0.95) -> ClosedRange<Double>? {
        guard hasStandardError, value.isFinite, confidence > 0, confidence < 1 else { return nil }
        let p = 0.5 + confidence / 2
        let quantile = degreesOfFreedom.map { studentTQuantile(p, degreesOfFreedom: $0) } ?? normalQuantile(p)
        let half = quantile * standardError
        let low = value - half, high = value + half
        // A range's ends must be ordered: NaN (∞ − ∞, 0 × ∞) would trap, not merely be wrong.
        guard quantile.isFinite, low.isFinite, high.isFinite, low <= high else { return nil }
        return low...high
    }
}

/// Φ⁻¹(p), the standard normal quantile for p in (0, 1); ±∞ at and beyond the ends and
/// NaN for NaN, never a trap (the approximation itself clamps p = 1 for the samplers).
/// - Complexity: O(1).
public func normalQuantile(_ p: Double) -> Double {
    if p.isNaN { return .nan }
    if p <= 0 { return -.infinity }
    if p >= 1 { return .infinity }
    return standardNormalQuantile(p)
}

/// The Student t quantile with `degreesOfFreedom` ν ≥ 1 at p in (0, 1): the root of
/// the exact distribution function, found by bisection to double precision. Outside
/// its domain it answers rather than traps: ±∞ at p ≤ 0 and p ≥ 1 (a confidence that
/// rounds p to 1), NaN for NaN or ν < 1, so a caller checks `isFinite`.
/// - Complexity: O(ν) per step, 200 steps at most.
public func studentTQuantile(_ p: Double, degreesOfFreedom: Int) -> Double {
    guard degreesOfFreedom >= 1, !p.isNaN else { return .nan }
    if p <= 0 { return -.infinity }
    if p >= 1 { return .infinity }
    if p < 0.5 { return -studentTQuantile(1 - p, degreesOfFreedom: degreesOfFreedom) }
    let target = 2 * p - 1
    var low = 0.0, high = 1.0
    while studentTCentralProbability(high, degreesOfFreedom: degreesOfFreedom) < target && high < 1e300 { high *= 2 }
    for _ in 0..<200 {
        let middle = (low + high) / 2
        guard middle > low && middle < high else { break }
        if studentTCentralProbability(middle, degreesOfFreedom: degreesOfFreedom) < target { low = middle } else { high = middle }
    }
    return (low + high) / 2
}

/// P(|T| < t) for Student's t with ν degrees of freedom, by the finite series of
/// Abramowitz and Stegun 26.7.3 (ν odd) and 26.7.4 (ν even), θ = atan(t / √ν).
/// - Complexity: O(ν).
package func studentTCentralProbability(_ t: Double, degreesOfFreedom: Int) -> Double {
    let theta = Glibc.atan(t / Double(degreesOfFreedom).squareRoot())
    let sine = Glibc.sin(theta), cosine = Glibc.cos(theta), cosineSquared = cosine * cosine
    var term = 1.0, sum = 1.0
    if degreesOfFreedom % 2 == 1 {
        guard degreesOfFreedom > 1 else { return 2 * theta / Double.pi }
        for k in stride(from: 2, through: degreesOfFreedom - 3, by: 2) {
            term *= Double(k) / Double(k + 1) * cosineSquared
            sum += term
        }
        return 2 / Double.pi * (theta + sine * cosine * sum)
    }
    for k in stride(from: 1, through: degreesOfFreedom - 3, by: 2) {
        term *= Double(k) / Double(k + 1) * cosineSquared
        sum += term
    }
    return sine * sum
}
