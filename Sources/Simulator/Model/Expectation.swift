import Base

/// One `expect` entry of a scenario file: a bound a rate (or a difference of two
/// strategies' rates) must keep, for the whole confidence interval, not only the
/// point estimate. `pushsim check` judges them after the run.
public struct Expectation: Sendable, Equatable {
    /// The rate.
    public var metric: Metric
    /// The strategy's label.
    public var strategy: String
    /// The label of the strategy subtracted (`"minus"`), or nil for the rate itself.
    public var baseline: String?
    /// The interval's lower end must be at least this.
    public var atLeast: Double?
    /// The interval's upper end must be at most this.
    public var atMost: Double?
    /// The interval's two-sided confidence, in (0, 1).
    public var confidence: Double

    /// The confidence when the file names none.
    public static let defaultConfidence = 0.95

    /// An expectation; at least one bound is given.
    /// - Complexity: O(1).
    public init(metric: Metric, strategy: String, minus baseline: String? = nil, atLeast: Double? = nil,
                atMost: Double? = nil, confidence: Double = Self.defaultConfidence) {
        self.metric = metric
        self.strategy = strategy
        self.baseline = baseline
        self.atLeast = atLeast
        self.atMost = atMost
        self.confidence = confidence
    }

    /// What is measured: "deliverability of queue" or "deliverability of queue − no-queue".
    /// - Complexity: O(1).
    public var subject: String {
        metric.name + " of " + strategy + (baseline.map { " − " + $0 } ?? "")
    }

    /// The bounds as written: "≥ 0.85", "≤ 1.2", "≥ 0.8 and ≤ 0.9".
    /// - Complexity: O(1).
    public var bounds: String {
        [atLeast.map { "≥ " + format($0) }, atMost.map { "≤ " + format($0) }].compactMap { $0 }.joined(separator: " and ")
    }

    /// One line naming it, for tables and JUnit test cases:
    /// "deliverability of queue − no-queue ≥ 0.03 (95% interval)".
    /// - Complexity: O(1).
    public var title: String {
        subject + " " + bounds + " (" + Self.percent(confidence) + " interval)"
    }

    /// 0.95 as "95%", 0.995 as "99.5%".
    /// - Complexity: O(1).
    package static func percent(_ confidence: Double) -> String { format((confidence * 1000).rounded() / 10) + "%" }
}
