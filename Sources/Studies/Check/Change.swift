import FoundationEssentials
import Glibc
import Simulator

/// How a rate moved between two independent runs (`pushsim diff`): new − old, with
/// the unpaired standard error √(se₁² + se₂²), its two-sided p-value, and whether the
/// move is more than sampling noise explains. Pure: built from two `Estimate`s. One
/// `Change` judges one rate alone; `FolderComparison` judges them together (Holm).
public struct Change: Sendable, Equatable {
    /// The rate in the old run.
    public var old: Estimate
    /// The rate in the new run.
    public var new: Estimate
    /// new − old, with the unpaired standard error and, when both runs say theirs,
    /// the Welch–Satterthwaite degrees of freedom.
    public var difference: Estimate
    /// The difference's interval at the confidence asked (for this rate alone); nil
    /// when either standard error is unknown.
    public var interval: ClosedRange<Double>?
    /// The two-sided p-value of "no change" (Student t with `difference`'s degrees of
    /// freedom, else normal); nil when unknown, or when the rate is the same
    /// certain value in both runs (no test: nothing varies).
    public var pValue: Double?
    /// `pValue` after the correction for all the rates tested together (Holm), set
    /// by `FolderComparison`; a lone `Change` is its own family (equal to `pValue`).
    public var adjustedPValue: Double?
    /// Whether the runs differ beyond noise: the adjusted p-value is at most
    /// 1 − confidence; nil when unknown.
    public var beyondNoise: Bool?

    /// Compares `old` with `new` at `confidence` (two-sided, in (0, 1)).
    /// - Complexity: O(ν) for ν degrees of freedom.
    public init(old: Estimate, new: Estimate, confidence: Double) {
        self.old = old
        self.new = new
        let a = old.standardError * old.standardError, b = new.standardError * new.standardError
        let standardError = (a + b).squareRoot()
        var degreesOfFreedom: Int?
        if let first = old.degreesOfFreedom, let second = new.degreesOfFreedom, a + b > 0 {
            // Welch–Satterthwaite; floored, so the t tails are if anything wider.
            let welch = (a + b) * (a + b) / (a * a / Double(first) + b * b / Double(second))
            degreesOfFreedom = welch.isFinite ? max(1, Int(min(welch, 1e6))) : min(first, second)
        }
        difference = Estimate(value: new.value - old.value, standardError: standardError, degreesOfFreedom: degreesOfFreedom)
        // NaN (an SE not reported) propagates through the sum: unknown, not "no change".
        guard difference.value.isFinite, let interval = difference.interval(confidence: confidence) else {
            interval = nil; pValue = nil; adjustedPValue = nil; beyondNoise = nil; return
        }
        self.interval = interval
        pValue = Self.twoSidedP(difference)
        adjustedPValue = pValue
        beyondNoise = pValue.map { $0 <= 1 - confidence } ?? false
    }

    /// The two-sided p-value of a difference with a known standard error.
    /// - Complexity: O(ν) for ν degrees of freedom.
    static func twoSidedP(_ difference: Estimate) -> Double? {
        if difference.standardError == 0 { return difference.value == 0 ? nil : 0 }
        let statistic = abs(difference.value) / difference.standardError
        guard statistic.isFinite else { return 0 }
        if let degreesOfFreedom = difference.degreesOfFreedom {
            return min(1, max(0, 1 - studentTCentralProbability(statistic, degreesOfFreedom: degreesOfFreedom)))
        }
        return erfc(statistic / 2.0.squareRoot())
    }
}
