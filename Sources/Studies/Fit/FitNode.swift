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
    /// Per pair of statistics (row-major, `FitStatistic.index`): the covariance of their pooled
    /// figures over blocks beyond what their same days give (one day's launches and the next
    /// day's counted mail, a user's habits over weeks), over √(pooled variance × pooled
    /// variance): the level errors' correlation, scaled to the pooled variances. 1 on the
    /// diagonal, 0 where either is unmeasured.
    package var levelCorrelation: [Double] = FitNode.identity
    /// Per pair of statistics (row-major): the correlation over blocks of their figures on the
    /// same day, averaged over the days both measure (a day's users launch, receive and log
    /// together); 1 on the diagonal, 0 where they share no day.
    package var sameDayCorrelation: [Double] = FitNode.identity
    /// Per strategy, in the scenario's order.
    package var deliverability: [Double]
    package var deliverabilityVariance: [Double]
    /// Per strategy: its deliverability minus the measured strategy's (paired: the same users).
    package var gain: [Double]
    package var gainVariance: [Double]
    /// Per entry: the simulated figure's error per block of users (the delta method's
    /// linearised values, Σ of their squares times `blockCorrection` its variance before any
    /// floor); empty where the day has no spread. With `deliverabilityBlocks` and `gainBlocks`
    /// (per strategy), what the prediction's simulation error shares with the figures' the
    /// fit calibrates against (docs/fit.md, "Method", step 7). Empty when not kept.
    package var blockErrors: [[Double]] = []
    package var deliverabilityBlocks: [[Double]] = []
    package var gainBlocks: [[Double]] = []
    /// K / (K − 1) for K blocks of users.
    package var blockCorrection = 1.0
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

    /// The identity correlation: statistics whose levels move independently.
    package static let identity: [Double] = {
        let count = FitStatistic.allCases.count
        return (0..<(count * count)).map { $0 / count == $0 % count ? 1 : 0 }
    }()

    /// The node of `result`, where strategy `measured` is the one the team ran.
    /// - Complexity: O(entries × blocks + strategies × blocks).
    package init(_ result: SimulationResult, measured: Int, entries: [FitEntry]) {
        let aggregate = result.aggregates[measured]
        let blocks = max(result.usedBlocks, 1)
        let correction = blocks >= 2 ? Double(blocks) / Double(blocks - 1) : 1
        var days = DayFigures(aggregate, entries: entries, correction: correction)
        days.floorVariancesAtDispersion(entries)
        let pooled = PooledFigures(aggregate, entries: entries, correction: correction)
        pooledVariance = pooled.variance
        levelCorrelation = pooled.levelCorrelation
        sameDayCorrelation = days.sameDayCorrelation
        dayCorrelation = days.dayCorrelation(correction: correction)
        self.mean = days.mean
        self.variance = days.variance
        self.count = days.count
        blockErrors = days.blockErrors
        blockCorrection = correction
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
            let blocks = result.linearisedBlocks(Metric.deliverability.numeratorCounts, over: Metric.deliverability.denominatorCount,
                                                 strategy: index).blocks ?? []
            deliverabilityBlocks.append(blocks)
        }
        let baseline = deliverabilityBlocks[measured]
        gainBlocks = deliverabilityBlocks.map { blocks in
            blocks.isEmpty || baseline.isEmpty ? [] : zip(blocks, baseline).map { $0 - $1 }
        }
    }

    /// Over blocks, as the variances are: Σ e_s e_t.
    private static func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0.0) { $0 + $1.0 * $1.1 } }

    /// Over blocks: Σ e_s e_t / √(Σ e_s² Σ e_t²), or `covariance` over the same root, within ±1.
    private static func blockCorrelation(_ a: [Double], _ b: [Double], covariance: Double? = nil) -> Double {
        min(max((covariance ?? dot(a, b)) / (dot(a, a) * dot(b, b)).squareRoot(), -1), 1)
    }

    /// Each entry's simulated figure on its day: its ratio, variance and count, with each
    /// day's errors per block (for the same days' correlation) and each statistic's
    /// standardised errors summed over its days (for the days' correlation).
    private struct DayFigures {
        var mean: [Double] = [], variance: [Double] = [], count: [Double] = []
        /// Per entry, its errors per block (empty without spread).
        var blockErrors: [[Double]] = []
        var standardised: [FitStatistic: [Double]] = [:]
        var linearisedByDay: [Int: [FitStatistic: [Double]]] = [:]
        var days: [FitStatistic: Int] = [:]

        init(_ aggregate: StrategyAggregate, entries: [FitEntry], correction: Double) {
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
                    mean.append(.nan); variance.append(.nan); count.append(0); blockErrors.append([])
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
                blockErrors.append(squares > 0 ? linearised : [])
                if squares > 0 { linearisedByDay[entry.day, default: [:]][entry.statistic] = linearised }
                let scale = 1 / v.squareRoot()
                var sums = standardised[entry.statistic] ?? Array(repeating: 0, count: UserBlocks.count)
                for block in 0..<UserBlocks.count { sums[block] += linearised[block] * scale }
                standardised[entry.statistic] = sums
                days[entry.statistic, default: 0] += 1
            }
        }

        /// A day's own spread over blocks says nothing when its ratio is 1 (or 0) in this run, and
        /// little when it is near: the variance a statistic's days share, a pooled multiple φ of
        /// its sampling variance at the statistic's mean p̄ (binomial p̄(1 − p̄)/X for a share,
        /// Poisson p̄/X for a rate), is the least a day's can be.
        mutating func floorVariancesAtDispersion(_ entries: [FitEntry]) {
            for statistic in FitStatistic.allCases {
                let slots = entries.indices.filter { entries[$0].statistic == statistic && count[$0] > 0 }
                guard !slots.isEmpty else { continue }
                let totalX = slots.reduce(0.0) { $0 + count[$1] }
                let p = slots.reduce(0.0) { $0 + mean[$1] * count[$1] } / totalX
                // At least half a mail's worth either side, so p̄ = 1 still leaves a spread.
                let perMail = statistic.samplingVariance(p, count: totalX) * totalX
                let binomial = slots.map { perMail / count[$0] }
                let dispersion = max(slots.indices.reduce(0.0) { $0 + variance[slots[$1]] } / binomial.reduce(0, +), 1)
                for (slot, base) in zip(slots, binomial) { variance[slot] = max(variance[slot], dispersion * base) }
            }
        }

        /// Per pair of statistics (row-major): their same days' correlation over blocks,
        /// averaged over the days both measure.
        var sameDayCorrelation: [Double] {
            let statistics = FitStatistic.allCases.count
            var sameDayCorrelation = FitNode.identity
            for first in FitStatistic.allCases {
                for second in FitStatistic.allCases where first != second {
                    let pairs = linearisedByDay.values.compactMap { day in day[first].flatMap { a in day[second].map { (a, $0) } } }
                    guard !pairs.isEmpty else { continue }
                    sameDayCorrelation[first.index * statistics + second.index] = pairs.reduce(0.0) { $0 + blockCorrelation($1.0, $1.1) } / Double(pairs.count)
                }
            }
            return sameDayCorrelation
        }

        /// Per statistic, and over all of them: two statistics of the same users' days move
        /// together too (more launches raise both the share counted and the logs uploaded).
        /// The largest variance of a sum of standardised days over the days, at least 1.
        func dayCorrelation(correction: Double) -> Double {
            var correlation = 1.0
            var all = [Double](repeating: 0, count: UserBlocks.count)
            for (statistic, sums) in standardised {
                let n = Double(days[statistic] ?? 1)
                correlation = max(correlation, correction * sums.reduce(0) { $0 + $1 * $1 } / n)
                for block in all.indices { all[block] += sums[block] }
            }
            let entriesCounted = Double(days.values.reduce(0, +))
            if entriesCounted > 0 { correlation = max(correlation, correction * all.reduce(0) { $0 + $1 * $1 } / entriesCounted) }
            return correlation
        }
    }

    /// Each statistic's figure over all its days at once: its variance over blocks, its
    /// errors per block, and each day's part of them.
    private struct PooledFigures {
        /// Per statistic (`FitStatistic.allCases` order); 0 when unmeasured.
        var variance = [Double](repeating: 0, count: FitStatistic.allCases.count)
        /// Per statistic, the pooled error per block (nil when it has no spread).
        var errors: [[Double]?] = Array(repeating: nil, count: FitStatistic.allCases.count)
        /// Per statistic and day, its part of the pooled error per block (they sum to it).
        var dayErrors: [[Int: [Double]]] = Array(repeating: [:], count: FitStatistic.allCases.count)

        init(_ aggregate: StrategyAggregate, entries: [FitEntry], correction: Double) {
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
                let errors = zip(ys, xs).map { ($0.0 - ratio * $0.1) / totalX }
                let squares = errors.reduce(0.0) { $0 + $1 * $1 }
                variance[index] = max(correction * squares, statistic.samplingVariance(ratio, count: totalX))
                if squares > 0 { self.errors[index] = errors }
                for day in days {
                    dayErrors[index][day] = (0..<UserBlocks.count).map { block in
                        (Double(aggregate.count(numerator, day: day, block: block))
                         - ratio * Double(aggregate.count(denominator, day: day, block: block))) / totalX
                    }
                }
            }
        }

        /// Per pair of statistics (row-major): the correlation of their pooled errors beyond
        /// what their same days give.
        var levelCorrelation: [Double] {
            let statistics = FitStatistic.allCases.count
            var levelCorrelation = FitNode.identity
            for first in 0..<statistics {
                for second in 0..<statistics where first != second {
                    guard let a = errors[first], let b = errors[second] else { continue }
                    let sameDays = dayErrors[first].reduce(0.0) { sum, day in
                        dayErrors[second][day.key].map { sum + dot(day.value, $0) } ?? sum
                    }
                    levelCorrelation[first * statistics + second] = blockCorrelation(a, b, covariance: dot(a, b) - sameDays)
                }
            }
            return levelCorrelation
        }
    }
}
