extension SimulationResult {
    /// `metric` for strategy `index`, with its standard error over users.
    /// (Standard errors are not computed yet: `.nan` until they are.)
    /// - Complexity: O(1).
    public func estimate(_ metric: Metric, strategy index: Int) -> Estimate {
        let aggregate = aggregates[index]
        let denominator = metric.denominator(of: aggregate)
        let value = denominator == 0 ? 0 : Double(metric.numerator(of: aggregate)) / Double(denominator)
        return Estimate(value: value, standardError: .nan)
    }

    /// `metric` of strategy `index` minus that of strategy `baseline`, with the paired
    /// standard error (every strategy sees the same users).
    /// - Complexity: O(1).
    public func difference(_ metric: Metric, strategy index: Int, minus baseline: Int) -> Estimate {
        Estimate(value: estimate(metric, strategy: index).value - estimate(metric, strategy: baseline).value,
                 standardError: .nan)
    }
}
