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
    /// The interval's two-sided confidence, in (0, `maximumConfidence`].
    public var confidence: Double

    /// The confidence when the file names none.
    public static let defaultConfidence = 0.95
    /// The highest confidence a file or `--confidence` may ask for. Past it the quantile
    /// stops meaning anything (0.9999999999999999 makes 0.5 + c / 2 round to 1, whose
    /// quantile is infinite), and 64 blocks of users cannot support a claim past 99.9999% anyway.
    public static let maximumConfidence = 0.999_999
    /// "above 0 and at most 0.999999": what a confidence may be, as messages say it.
    public static let confidenceRangeText = "above 0 and at most " + format(maximumConfidence)

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
    /// The labels are the scenario's (checked: no control character), cut like any echo.
    /// - Complexity: O(1).
    public var subject: String {
        metric.name + " of " + UserText.escape(strategy) + (baseline.map { " − " + UserText.escape($0) } ?? "")
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

    /// 0.95 as "95%", 0.995 as "99.5%", to four decimals of a percent, the precision
    /// `maximumConfidence` needs: 0.999999 reads "99.9999%", not a rounded "100%" no
    /// interval has.
    /// - Complexity: O(1).
    package static func percent(_ confidence: Double) -> String { format((confidence * 1_000_000).rounded() / 10_000) + "%" }
}
