import FoundationEssentials
import Glibc

extension FitStudy {
    /// The goodness of fit at the mode (docs/fit.md, "Method", step 8), three checks:
    /// - the chi-square of the residuals (each figure's shared error counted once, as in the
    ///   likelihood) and its upper tail: figures further off than their variances allow;
    /// - each figure's days by weekday: an F test of the residuals' weekday means against
    ///   their scatter within a weekday. It reads the residuals' scale from the residuals, so
    ///   it holds its level even where the fit's variances err wide;
    /// - weekends' mean residual against weekdays', its standard error widened by the days'
    ///   correlation.
    /// Outlier days (`FitPosterior.Outlier`) are reported on their own and left out of the F test.
    package struct Goodness: Sendable, Equatable {
        package var chiSquare: Double
        package var degreesOfFreedom: Int
        package var pValue: Double
        /// Mean z on weekends minus on weekdays, and that shift over its standard error.
        package var weekendShift: Double
        package var weekendZ: Double
        /// Per figure tested, its weekday pattern's F test.
        package var patterns: [Pattern]

        /// A figure's weekday F test: F on (d1, d2) degrees of freedom and its upper tail.
        package struct Pattern: Sendable, Equatable {
            package var statistic: FitStatistic
            package var f: Double
            package var d1: Int
            package var d2: Int
            package var pValue: Double
        }

        /// The level the weekday patterns are tested at, over all the figures together
        /// (Bonferroni: each at this over their count). The F tests run over their nominal level
        /// on series from the model (a day's offset is fitted): at 2.5% they fired 12 times in 200,
        /// at 1% 5 times; with the chi-square, 15 false alarms in 300 series (tools/fit-goodness.sh,
        /// docs/fit.md, "How often the goodness check cries wolf").
        package static let patternLevel = 0.01

        /// The level the chi-square's nominal p-value is tested at. With the days' dispersion read
        /// from the same days, the statistic is near its degrees of freedom whenever the days look
        /// Gaussian and grows with their tail, so its χ² p-value is not uniform on series from the
        /// model (under 0.5 in 197 of 200): this level is set by simulation, where it fired 7 times
        /// in 300 series (tools/fit-goodness.sh, docs/fit.md); a misfit that moves the days
        /// unevenly reads p under 10⁻⁶.
        package static let chiSquareLevel = 0.001

        /// The least p-value of the weekday patterns times their count (Bonferroni), at most 1.
        package var patternP: Double {
            guard let least = patterns.map(\.pValue).min() else { return 1 }
            return min(1, least * Double(patterns.count))
        }

        /// The figure whose weekday pattern is least likely, if any was tested.
        package var worstPattern: Pattern? { patterns.min { $0.pValue < $1.pValue } }

        /// Why the fit is poor, one word each (`chi-square`, `weekday-pattern`, `weekends`); empty when good.
        package var reasons: [String] {
            var reasons: [String] = []
            if pValue < Self.chiSquareLevel { reasons.append("chi-square") }
            if patternP < Self.patternLevel { reasons.append("weekday-pattern") }
            if abs(weekendZ) >= 3 { reasons.append("weekends") }
            return reasons
        }

        /// p ≥ `chiSquareLevel`, the weekday patterns within their level and |weekendZ| < 3.
        package var isGood: Bool { pValue >= Self.chiSquareLevel && patternP >= Self.patternLevel && !(abs(weekendZ) >= 3) }
    }

    /// - Complexity: O(entries).
    package static func goodness(_ posterior: FitPosterior, entries: [FitEntry]) -> Goodness {
        var weekend: [Double] = [], weekday: [Double] = []
        for (entry, residual) in zip(entries, posterior.residuals) where residual.z.isFinite {
            if entry.isWeekend { weekend.append(residual.z) } else { weekday.append(residual.z) }
        }
        let mean = { (values: [Double]) in values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let shift = mean(weekend) - mean(weekday)
        let error = weekend.isEmpty || weekday.isEmpty ? Double.nan
            : (posterior.dayCorrelation * (1 / Double(weekend.count) + 1 / Double(weekday.count))).squareRoot()
        return Goodness(chiSquare: posterior.chiSquare, degreesOfFreedom: posterior.degreesOfFreedom,
                        pValue: ChiSquare.upperTail(posterior.chiSquare, degreesOfFreedom: posterior.degreesOfFreedom),
                        weekendShift: shift, weekendZ: error.isFinite && error > 0 ? shift / error : .nan,
                        patterns: weekdayPatterns(posterior, entries: entries))
    }

    /// Each figure's one-way analysis of its residuals by weekday (outlier days left out):
    /// F = (between weekdays / (k − 1)) / (within / (n − k)). A figure needs two days of at
    /// least two weekdays, and more days than weekdays.
    /// - Complexity: O(entries).
    static func weekdayPatterns(_ posterior: FitPosterior, entries: [FitEntry]) -> [Goodness.Pattern] {
        let outlierDays = Set(posterior.robustness.outliers.map(\.day))
        var patterns: [Goodness.Pattern] = []
        for statistic in FitStatistic.allCases {
            var groups = [[Double]](repeating: [], count: 7)
            for (entry, residual) in zip(entries, posterior.residuals)
            where entry.statistic == statistic && residual.z.isFinite && !outlierDays.contains(entry.day) {
                groups[entry.weekday].append(residual.z)
            }
            groups.removeAll { $0.isEmpty }
            let n = groups.reduce(0) { $0 + $1.count }, k = groups.count
            guard k >= 2, n > k, groups.contains(where: { $0.count >= 2 }) else { continue }
            let grand = groups.reduce(0.0) { $0 + $1.reduce(0, +) } / Double(n)
            var between = 0.0, within = 0.0
            for group in groups {
                let groupMean = group.reduce(0, +) / Double(group.count)
                between += Double(group.count) * (groupMean - grand) * (groupMean - grand)
                within += group.reduce(0.0) { $0 + ($1 - groupMean) * ($1 - groupMean) }
            }
            let d1 = k - 1, d2 = n - k
            let f = within > 0 ? (between / Double(d1)) / (within / Double(d2)) : (between > 0 ? .infinity : 0)
            patterns.append(.init(statistic: statistic, f: f, d1: d1, d2: d2, pValue: FDistribution.upperTail(f, d1, d2)))
        }
        return patterns
    }
}

/// The F distribution's upper tail, for the weekday test.
package enum FDistribution {
    /// P(X > f) for X ~ F(d1, d2): the regularised incomplete beta I_x(d2/2, d1/2) at
    /// x = d2 / (d2 + d1 f).
    /// - Complexity: O(iterations), at most a few hundred.
    package static func upperTail(_ f: Double, _ d1: Int, _ d2: Int) -> Double {
        guard f > 0 else { return 1 }
        guard f.isFinite else { return 0 }
        return IncompleteBeta.regularised(Double(d2) / (Double(d2) + Double(d1) * f), a: Double(d2) / 2, b: Double(d1) / 2)
    }
}

/// The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz).
package enum IncompleteBeta {
    /// - Complexity: O(iterations), at most a few hundred.
    package static func regularised(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logGammas + logPowers
        // The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
        if x > (a + 1) / (a + b + 2) { return 1 - regularised(1 - x, a: b, b: a) }
        return exp(logFront) * fraction(x, a: a, b: b) / a
    }

    private static func fraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...500 {
            let m = Double(m)
            let twoM: Double = 2 * m
            let evenTop: Double = m * (b - m) * x
            let even: Double = evenTop / ((a + twoM - 1) * (a + twoM))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            let oddTop: Double = -(a + m) * (a + b + m) * x
            let odd: Double = oddTop / ((a + twoM) * (a + twoM + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}
