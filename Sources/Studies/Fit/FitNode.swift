import Simulator

/// One measured figure the fit matches: a statistic on one measured day.
package struct FitEntry: Sendable, Equatable {
    package var statistic: FitStatistic
    /// The row in the measured file.
    package var row: Int
    /// The simulation's day (0-based from the fit's start).
    package var day: Int
    /// The measured ratio.
    package var value: Double
    /// Its denominator's count (how many mails the ratio is over).
    package var count: Double
    /// Monday 0 … Sunday 6.
    package var weekday: Int

    package var isWeekend: Bool { weekday >= 5 }

    /// The entries of `series` whose days start at `start` in the simulation: one per
    /// statistic the file measures and day where its denominator is measured and positive.
    /// - Complexity: O(days × statistics).
    package static func entries(_ series: MeasuredSeries) -> [FitEntry] {
        guard let first = series.days.first?.date else { return [] }
        var entries: [FitEntry] = []
        for statistic in series.statistics {
            for (row, day) in series.days.enumerated() {
                guard let numerator = day[statistic.numerator], let denominator = day[statistic.denominator], denominator > 0 else { continue }
                entries.append(FitEntry(statistic: statistic, row: row, day: day.date.daysSinceEpoch - first.daysSinceEpoch,
                                        value: Double(numerator) / Double(denominator), count: Double(denominator),
                                        weekday: day.date.weekday))
            }
        }
        return entries
    }
}

/// What one design point's simulation says: for every measured figure the simulated
/// value, its variance and count; for every strategy its true deliverability and the gain
/// over the measured strategy, each with its variance (over the run's blocks of users).
package struct FitNode: Sendable, Equatable {
    /// Per entry: the simulated ratio (NaN when the day's denominator is 0), its variance
    /// (SE²) and its denominator's count.
    package var mean: [Double]
    package var variance: [Double]
    package var count: [Double]
    /// Per statistic (`FitStatistic.allCases` order): the variance of its figure pooled over
    /// the measured days (all their mail together), over the run's blocks; 0 when unmeasured.
    /// An error of the simulated level that every day of the statistic shares.
    package var pooledVariance: [Double] = Array(repeating: 0, count: FitStatistic.allCases.count)
    /// Per strategy, in the scenario's order.
    package var deliverability: [Double]
    package var deliverabilityVariance: [Double]
    /// Per strategy: its deliverability minus the measured strategy's (paired: the same users).
    package var gain: [Double]
    package var gainVariance: [Double]
    /// How much the days' figures move together: the variance of the sum of a statistic's
    /// standardised daily errors over blocks, divided by the days (1 when independent);
    /// the largest over each statistic and all of them together, at least 1.
    package var dayCorrelation: Double

    package init(mean: [Double], variance: [Double], count: [Double], deliverability: [Double], deliverabilityVariance: [Double],
                 gain: [Double], gainVariance: [Double], dayCorrelation: Double) {
        self.mean = mean
        self.variance = variance
        self.count = count
        self.deliverability = deliverability
        self.deliverabilityVariance = deliverabilityVariance
        self.gain = gain
        self.gainVariance = gainVariance
        self.dayCorrelation = dayCorrelation
    }

    /// The node of `result`, where strategy `measured` is the one the team ran.
    /// - Complexity: O(entries × blocks + strategies × blocks).
    package init(_ result: SimulationResult, measured: Int, entries: [FitEntry]) {
        let aggregate = result.aggregates[measured]
        let blocks = max(result.usedBlocks, 1)
        let correction = blocks >= 2 ? Double(blocks) / Double(blocks - 1) : 1
        var mean: [Double] = [], variance: [Double] = [], count: [Double] = []
        var standardised: [FitStatistic: [Double]] = [:]
        var days: [FitStatistic: Int] = [:]
        for entry in entries {
            let numerator = RateCount.outcome(entry.statistic.numerator.simulatedCount!)
            let denominator = RateCount.outcome(entry.statistic.denominator.simulatedCount!)
            var sumY = 0.0, sumX = 0.0
            let inRun = entry.day < aggregate.daily.count
            if inRun {
                for block in 0..<UserBlocks.count {
                    sumY += Double(aggregate.count(numerator, day: entry.day, block: block))
                    sumX += Double(aggregate.count(denominator, day: entry.day, block: block))
                }
            }
            guard sumX > 0 else {
                mean.append(.nan); variance.append(.nan); count.append(0)
                continue
            }
            let ratio = sumY / sumX
            var linearised: [Double] = []
            var squares = 0.0
            for block in 0..<UserBlocks.count {
                let e = (Double(aggregate.count(numerator, day: entry.day, block: block))
                         - ratio * Double(aggregate.count(denominator, day: entry.day, block: block))) / sumX
                linearised.append(e)
                squares += e * e
            }
            // A day where every mail was received (or none) has no spread over blocks: the
            // floor is the variance of one mail in the day's count.
            let floor = 0.25 / (sumX * sumX)
            let v = max(correction * squares, floor)
            mean.append(ratio)
            variance.append(v)
            count.append(sumX)
            let scale = 1 / v.squareRoot()
            var sums = standardised[entry.statistic] ?? Array(repeating: 0, count: UserBlocks.count)
            for block in 0..<UserBlocks.count { sums[block] += linearised[block] * scale }
            standardised[entry.statistic] = sums
            days[entry.statistic, default: 0] += 1
        }
        // Per statistic, and over all of them: two statistics of the same users' days move
        // together too (more launches raise both the share counted and the logs uploaded).
        // A day's own spread over blocks says nothing when its ratio is 1 (or 0) in this run, and
        // little when it is near: the variance a statistic's days share, a pooled multiple φ of
        // the binomial p̄(1 − p̄)/X at the statistic's mean p̄, is the least a day's can be.
        for statistic in FitStatistic.allCases {
            let slots = entries.indices.filter { entries[$0].statistic == statistic && count[$0] > 0 }
            guard !slots.isEmpty else { continue }
            let totalX = slots.reduce(0.0) { $0 + count[$1] }
            let p = slots.reduce(0.0) { $0 + mean[$1] * count[$1] } / totalX
            // At least half a mail's worth either side, so p̄ = 1 still leaves a spread.
            let smoothed = min(max(p, 0.5 / totalX), 1 - 0.5 / totalX)
            let binomial = slots.map { smoothed * (1 - smoothed) / count[$0] }
            let dispersion = max(slots.indices.reduce(0.0) { $0 + variance[slots[$1]] } / binomial.reduce(0, +), 1)
            for (slot, base) in zip(slots, binomial) { variance[slot] = max(variance[slot], dispersion * base) }
        }
        // Each statistic's figure over all its days at once, and its variance over blocks.
        for (index, statistic) in FitStatistic.allCases.enumerated() {
            let days = entries.filter { $0.statistic == statistic && $0.day < aggregate.daily.count }.map(\.day)
            guard !days.isEmpty else { continue }
            let numerator = RateCount.outcome(statistic.numerator.simulatedCount!)
            let denominator = RateCount.outcome(statistic.denominator.simulatedCount!)
            var ys = [Double](repeating: 0, count: UserBlocks.count), xs = ys
            for day in days {
                for block in 0..<UserBlocks.count {
                    ys[block] += Double(aggregate.count(numerator, day: day, block: block))
                    xs[block] += Double(aggregate.count(denominator, day: day, block: block))
                }
            }
            let totalX = xs.reduce(0, +)
            guard totalX > 0 else { continue }
            let ratio = ys.reduce(0, +) / totalX
            let squares = zip(ys, xs).reduce(0.0) { $0 + (($1.0 - ratio * $1.1) / totalX) * (($1.0 - ratio * $1.1) / totalX) }
            let smoothed = min(max(ratio, 0.5 / totalX), 1 - 0.5 / totalX)
            pooledVariance[index] = max(correction * squares, smoothed * (1 - smoothed) / totalX)
        }
        var correlation = 1.0
        var all = [Double](repeating: 0, count: UserBlocks.count)
        for (statistic, sums) in standardised {
            let n = Double(days[statistic] ?? 1)
            correlation = max(correlation, correction * sums.reduce(0) { $0 + $1 * $1 } / n)
            for block in all.indices { all[block] += sums[block] }
        }
        let entriesCounted = Double(days.values.reduce(0, +))
        if entriesCounted > 0 { correlation = max(correlation, correction * all.reduce(0) { $0 + $1 * $1 } / entriesCounted) }
        dayCorrelation = correlation
        self.mean = mean
        self.variance = variance
        self.count = count
        deliverability = []
        deliverabilityVariance = []
        gain = []
        gainVariance = []
        for index in result.strategies.indices {
            let estimate = result.estimate(.deliverability, strategy: index)
            deliverability.append(estimate.value)
            deliverabilityVariance.append(estimate.hasStandardError ? estimate.standardError * estimate.standardError : 0)
            let difference = result.difference(.deliverability, strategy: index, minus: measured)
            gain.append(difference.value)
            gainVariance.append(difference.hasStandardError ? difference.standardError * difference.standardError : 0)
        }
    }
}
