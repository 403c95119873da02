import Base
import Simulator

/// How `pushsim check` judged one expectation: the estimate, its interval and whether
/// the bounds hold for the whole interval. Pure: built from an `Estimate`, so a
/// verdict can be tested with estimates made by hand.
public struct Verdict: Sendable, Equatable {
    /// What was expected.
    public var expectation: Expectation
    /// The rate (or difference) and its standard error.
    public var estimate: Estimate
    /// The interval at the expectation's confidence; nil when the standard error is
    /// unknown (not finite), and then the bounds are judged on the point estimate.
    public var interval: ClosedRange<Double>?
    /// Whether every bound holds: the interval's lower end ≥ `atLeast`, its upper end ≤ `atMost`.
    public var holds: Bool

    /// Judges `expectation` on `estimate`.
    /// - Complexity: O(1).
    public init(_ expectation: Expectation, estimate: Estimate) {
        self.expectation = expectation
        self.estimate = estimate
        interval = estimate.interval(confidence: expectation.confidence)
        let low = interval?.lowerBound ?? estimate.value, high = interval?.upperBound ?? estimate.value
        // A rate without a value (nothing to divide by) meets no bound: a gate on no data fails.
        holds = estimate.value.isFinite
            && (expectation.atLeast.map { low >= $0 } ?? true) && (expectation.atMost.map { high <= $0 } ?? true)
    }

    /// Why it failed, readable on a CI page; nil when it holds:
    /// "deliverability of queue − no-queue is 0.0213, 95% interval 0.0150 … 0.0276: its lower end is below 0.03".
    /// - Complexity: O(1).
    public var failureMessage: String? {
        guard !holds else { return nil }
        guard estimate.value.isFinite else {
            return expectation.subject + " has no value: nothing to divide by (no messages, or nothing measured)"
        }
        var text = expectation.subject + " is " + Self.number(estimate.value)
        if let interval {
            text += ", " + Expectation.percent(expectation.confidence) + " interval " + Self.range(interval)
        } else {
            text += " (standard error unknown: judged on the value alone)"
        }
        var broken: [String] = []
        let end = interval == nil ? "it" : "its lower end"
        if let atLeast = expectation.atLeast, (interval?.lowerBound ?? estimate.value) < atLeast {
            broken.append("\(end) is below \(format(atLeast))")
        }
        if let atMost = expectation.atMost, (interval?.upperBound ?? estimate.value) > atMost {
            broken.append("\(interval == nil ? "it" : "its upper end") is above \(format(atMost))")
        }
        return text + ": " + broken.joined(separator: " and ")
    }

    /// A rate as text with 4 decimals (table and messages; files carry full precision).
    /// A value too large for that in 64-bit integers (only a damaged file holds one: a
    /// rate is a ratio of counts) is written as Swift writes a double, "1e+15".
    /// - Complexity: O(1).
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let scaled = (abs(value) * 10_000).rounded()
        guard scaled < 0x1p63 else { return "\(value)" }
        let whole = Int64(scaled / 10_000), fraction = Int64(scaled) % 10_000
        let digits = String(fraction)
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// "0.0150 … 0.0276".
    /// - Complexity: O(1).
    package static func range(_ interval: ClosedRange<Double>) -> String {
        number(interval.lowerBound) + " … " + number(interval.upperBound)
    }
}

extension SimulationResult {
    /// The estimate an expectation is about: the rate of its strategy, or the paired
    /// difference with its baseline. Nil when a label is not among the strategies run.
    /// - Complexity: O(strategies).
    public func estimate(for expectation: Expectation) -> Estimate? {
        guard let index = strategies.firstIndex(where: { $0.label == expectation.strategy }) else { return nil }
        guard let baseline = expectation.baseline else { return estimate(expectation.metric, strategy: index) }
        guard let other = strategies.firstIndex(where: { $0.label == baseline }) else { return nil }
        return difference(expectation.metric, strategy: index, minus: other)
    }
}
