/// Standard errors from the run itself. Users are independent and summed into K
/// blocks (`UserBlocks`; K = min(64, users)), so a rate R = ΣY / ΣX (Y, X summed over
/// users) is a ratio estimator over K independent units. The delta method gives each
/// block b the linearised value eᵦ = (Yᵦ − R·Xᵦ) / ΣX and
///
///     SE(R)² = K / (K − 1) · Σᵦ eᵦ²
///
/// For a difference of two strategies A − B, which see the same users (common random
/// numbers), the block values subtract before squaring (the paired standard error):
///
///     SE(R_A − R_B)² = K / (K − 1) · Σᵦ (e_Aᵦ − e_Bᵦ)²
///
/// Intervals use the Student t quantile with K − 1 degrees of freedom.
extension SimulationResult {
    /// Blocks holding users in this run: K.
    package var usedBlocks: Int { UserBlocks.used(users: users) }

    /// `metric` for strategy `index`, with its standard error over users.
    /// - Complexity: O(blocks).
    public func estimate(_ metric: Metric, strategy index: Int) -> Estimate {
        estimate(metric.numeratorCounts, over: metric.denominatorCount, strategy: index)
    }

    /// The ratio of the sum of `numerator` to `denominator` for strategy `index` (a
    /// rate that is not a `Metric`, such as a funnel stage's share), with its standard error.
    /// - Complexity: O(blocks).
    public func estimate(_ numerator: [RateCount], over denominator: RateCount, strategy index: Int) -> Estimate {
        let linearised = linearisedBlocks(numerator, over: denominator, strategy: index)
        return estimate(value: linearised.value, blockValues: linearised.blocks)
    }

    /// `metric` of strategy `index` minus that of strategy `baseline`, with the paired
    /// standard error (every strategy sees the same users).
    /// - Complexity: O(blocks).
    public func difference(_ metric: Metric, strategy index: Int, minus baseline: Int) -> Estimate {
        let strategy = linearisedBlocks(metric.numeratorCounts, over: metric.denominatorCount, strategy: index)
        let base = linearisedBlocks(metric.numeratorCounts, over: metric.denominatorCount, strategy: baseline)
        let blocks = strategy.blocks.map { value in zip(value, base.blocks ?? []).map { $0 - $1 } }
        // Either rate without a denominator has no standard error; neither has the difference.
        return estimate(value: strategy.value - base.value, blockValues: base.blocks == nil ? nil : blocks)
    }

    /// The unpaired standard error of the same difference: what two independent runs
    /// would give, √(SE_A² + SE_B²). For showing what pairing buys.
    /// - Complexity: O(blocks).
    public func unpairedDifference(_ metric: Metric, strategy index: Int, minus baseline: Int) -> Estimate {
        let strategy = estimate(metric, strategy: index), base = estimate(metric, strategy: baseline)
        return Estimate(value: strategy.value - base.value,
                        standardError: (strategy.standardError * strategy.standardError
                                        + base.standardError * base.standardError).squareRoot(),
                        degreesOfFreedom: strategy.degreesOfFreedom)
    }

    /// `metric` (one of `Metric.daily`) of strategy `index` on day `day`.
    /// - Complexity: O(blocks).
    public func dailyEstimate(_ metric: Metric, strategy index: Int, day: Int) -> Estimate {
        let aggregate = aggregates[index]
        let numerator = metric.numeratorCounts, denominator = metric.denominatorCount
        func y(_ block: Int) -> Int64 {
            numerator.reduce(0) { $0 + aggregate.count($1, day: day, block: block) }
        }
        let linearised = Self.linearise(y: y, x: { aggregate.count(denominator, day: day, block: $0) })
        return estimate(value: linearised.value, blockValues: linearised.blocks)
    }

    /// `metric` (one of `Metric.daily`) of strategy `index` minus that of strategy
    /// `baseline` on day `day`, with the paired standard error (the same users each day).
    /// - Complexity: O(blocks).
    public func dailyDifference(_ metric: Metric, strategy index: Int, minus baseline: Int, day: Int) -> Estimate {
        func linearised(_ strategy: Int) -> (value: Double, blocks: [Double]?) {
            let aggregate = aggregates[strategy]
            let numerator = metric.numeratorCounts, denominator = metric.denominatorCount
            return Self.linearise(y: { block in numerator.reduce(0) { $0 + aggregate.count($1, day: day, block: block) } },
                                  x: { aggregate.count(denominator, day: day, block: $0) })
        }
        let strategy = linearised(index), base = linearised(baseline)
        let blocks = strategy.blocks.map { value in zip(value, base.blocks ?? []).map { $0 - $1 } }
        return estimate(value: strategy.value - base.value, blockValues: base.blocks == nil ? nil : blocks)
    }

    /// R and the blocks' linearised values eᵦ; with ΣX = 0, no value (NaN) and no blocks.
    /// - Complexity: O(blocks).
    package func linearisedBlocks(_ numerator: [RateCount], over denominator: RateCount,
                                  strategy index: Int) -> (value: Double, blocks: [Double]?) {
        let aggregate = aggregates[index]
        return Self.linearise(y: { block in numerator.reduce(0) { $0 + aggregate.count($1, block: block) } },
                              x: { aggregate.count(denominator, block: $0) })
    }

    private static func linearise(y: (Int) -> Int64, x: (Int) -> Int64) -> (value: Double, blocks: [Double]?) {
        var sumY = 0.0, sumX = 0.0
        for block in 0..<UserBlocks.count {
            sumY += Double(y(block))
            sumX += Double(x(block))
        }
        // Nothing to divide by: no value at all (not 0), so no bound can hold on it.
        guard sumX > 0 else { return (.nan, nil) }
        let ratio = sumY / sumX
        return (ratio, (0..<UserBlocks.count).map { (Double(y($0)) - ratio * Double(x($0))) / sumX })
    }

    private func estimate(value: Double, blockValues: [Double]?) -> Estimate {
        let k = usedBlocks
        guard let blockValues, k >= 2 else { return Estimate(value: value, standardError: .nan) }
        let sumOfSquares = blockValues.reduce(0) { $0 + $1 * $1 }
        return Estimate(value: value, standardError: (Double(k) / Double(k - 1) * sumOfSquares).squareRoot(),
                        degreesOfFreedom: k - 1)
    }
}
