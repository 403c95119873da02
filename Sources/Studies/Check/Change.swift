import Simulator

/// How a rate moved between two independent runs (`pushsim diff`): new − old, with
/// the unpaired standard error √(se₁² + se₂²), and whether the move is more than
/// sampling noise explains at a confidence. Pure: built from two `Estimate`s.
public struct Change: Sendable, Equatable {
    /// The rate in the old run.
    public var old: Estimate
    /// The rate in the new run.
    public var new: Estimate
    /// new − old, with the unpaired standard error.
    public var difference: Estimate
    /// The difference's interval; nil when either standard error is unknown.
    public var interval: ClosedRange<Double>?
    /// Whether the interval leaves out 0 (the runs differ beyond noise); nil when unknown.
    public var beyondNoise: Bool?

    /// Compares `old` with `new` at `confidence` (two-sided, in (0, 1)).
    /// - Complexity: O(1).
    public init(old: Estimate, new: Estimate, confidence: Double) {
        self.old = old
        self.new = new
        let standardError = (old.standardError * old.standardError + new.standardError * new.standardError).squareRoot()
        difference = Estimate(value: new.value - old.value, standardError: standardError)
        // NaN (an SE not reported) propagates through the sum: unknown, not "no change".
        guard let interval = difference.interval(confidence: confidence) else { interval = nil; beyondNoise = nil; return }
        self.interval = interval
        beyondNoise = !interval.contains(0)
    }
}
