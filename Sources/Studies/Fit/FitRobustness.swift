import FoundationEssentials
import Glibc

extension FitPosterior {
    /// A measured day the heavy-tailed likelihood discounts: its figures sit so far from the
    /// fit that Gaussian day errors would see one such day in the series less than 1% of the time.
    package struct Outlier: Sendable, Equatable {
        /// The simulation's day (0 at the first measured date).
        package var day: Int
        /// The entries of that day (indices into the fit's entries).
        package var entries: [Int]
        /// The day's squared distance from the fit, r_dᵀ V_d⁻¹ r_d (its shared level taken out).
        package var distance: Double
        /// Its weight in the likelihood: its variance is divided by it.
        package var weight: Double
        /// P(χ²(figures) > distance): how often Gaussian errors would put a day this far.
        package var tail: Double
    }

    /// How the day errors' tail was read (docs/fit.md, "Method", step 4): a day's figures are
    /// a Student-t vector, a normal one whose variance is divided by a weight, with degrees of
    /// freedom ν estimated from the days (∞: Gaussian) and the days' weights fixed at their
    /// conditional expectation, (ν + p) / (ν + q_d) but at most 1 (EM for the t).
    package struct Robustness: Sendable, Equatable {
        /// ν, `.infinity` when the days are Gaussian.
        package var degreesOfFreedom: Double
        /// The days so far off that Gaussian errors would rarely give one (`Outlier`).
        package var outliers: [Outlier]
        /// Every day's weight, by simulation day (1: counted whole).
        package var weights: [Int: Double]
    }
}

extension FitPosterior.Likelihood {
    /// The degrees of freedom the t's tail is chosen from (by likelihood).
    static let tailDegrees: [Double] = [1, 1.5, 2, 3, 4, 6, 10, 20, 50, .infinity]
    /// A day is an outlier when Gaussian errors would give one as far in the whole series less
    /// often than this.
    static let outlierLevel = 0.01
    /// The days' dispersion is read within this range (`readDispersion`).
    static let dispersionRange = 0.02...4.0

    /// Reads the days' dispersion and tail and weights the days (EM for a multivariate t, at most 8 rounds):
    /// the mode over a coarse grid of the whole ranges, each day's distance there, ν by
    /// likelihood, the weights; until the weights settle.
    /// - Complexity: O(rounds × coarse points × entries).
    mutating func weighDays(axes: Int) -> FitPosterior.Robustness {
        let coarse = FitPosterior.Grid(windows: Array(repeating: 0...1, count: axes), fine: [0, 101, 31, 13, 9][min(axes, 4)])
        var nu = Double.infinity
        var distances: [(q: Double, size: Int)] = []
        for _ in 0..<8 {
            let mode = surrogate.basis(coarse.fractions(logLikelihoods(coarse).best))
            let before = dispersion
            readDispersion(mode)
            distances = dayDistances(mode)
            nu = Self.tailDegrees.max { Self.logDensity(distances, $0) < Self.logDensity(distances, $1) } ?? .infinity
            var changed = zip(before, dispersion).contains { abs($1 / $0 - 1) > 0.01 }
            for (day, slots) in slotsByDay.enumerated() {
                // A Gaussian day keeps its whole weight; only days further out than ν allows lose some.
                let weight = nu.isFinite ? min(1, (nu + Double(distances[day].size)) / (nu + distances[day].q)) : 1
                for slot in slots where abs(slotWeights[slot] - weight) > 1e-3 {
                    changed = true
                    slotWeights[slot] = weight
                }
            }
            if !changed { break }
        }
        var outliers: [FitPosterior.Outlier] = []
        var weights: [Int: Double] = [:]
        for (day, slots) in slotsByDay.enumerated() {
            let simulationDay = entries[usable[slots[0]]].day
            weights[simulationDay] = slotWeights[slots[0]]
            let tail = ChiSquare.upperTail(distances[day].q, degreesOfFreedom: distances[day].size)
            if tail < Self.outlierLevel / Double(slotsByDay.count) {
                outliers.append(.init(day: simulationDay, entries: slots.map { usable[$0] }, distance: distances[day].q,
                                      weight: slotWeights[slots[0]], tail: tail))
            }
        }
        return .init(degreesOfFreedom: nu, outliers: outliers, weights: weights)
    }

    /// The days' dispersion per statistic at the point whose basis is `basis`: the mean square of
    /// its days' standardised residuals, their shared level taken out, over its days less one,
    /// times the dispersion read before; held within `dispersionRange`. The days' variances count
    /// what the nodes may share whole, which errs wide: read from the days, a statistic's
    /// residuals weigh as much as they scatter (quasi-likelihood), and a chi-square of honest
    /// residuals can fire. Above 1 where the days scatter more than their variances say (a
    /// team's day error that does not shrink with its size: outages drawn per block of users).
    /// - Complexity: O(entries + statistics³).
    mutating func readDispersion(_ basis: [Double]) {
        let errors = dayErrors(basis)
        let days = overDays(errors.differences, errors.variances)
        let levels = sharedLevels(errors.sums, dispersed: errors.dispersed, basis: basis, b: days.b, w: days.w).levels
        var squares = [Double](repeating: 0, count: statisticCount), counts = squares
        for (slot, entry) in usable.enumerated() {
            let statistic = entries[entry].statistic.index
            let r = errors.differences[slot] - levels[statistic]
            // Each day at its weight, w r² / (v φ) (its variance is v φ / w): as EM reads a t's scale.
            squares[statistic] += r * r / errors.variances[slot]
            counts[statistic] += 1
        }
        for statistic in 0..<statisticCount where counts[statistic] > 1 {
            let ratio = squares[statistic] / (counts[statistic] - 1)
            dispersion[statistic] = min(max(dispersion[statistic] * ratio, Self.dispersionRange.lowerBound), Self.dispersionRange.upperBound)
        }
        // Then one factor for all, so the days' distances with their same-day correlation, each at
        // its weight, average their figures' count (as EM reads a t's scale): the correlation's
        // part of the scatter, which each figure's own residuals do not see.
        let distances = dayDistances(basis)
        let weighted = zip(slotsByDay, distances).reduce(0.0) { $0 + slotWeights[$1.0[0]] * $1.1.q }
        let figures = distances.reduce(0.0) { $0 + Double($1.size) }
        guard weighted > 0, figures > 0 else { return }
        let factor = weighted / figures
        for statistic in 0..<statisticCount where counts[statistic] > 1 {
            dispersion[statistic] = min(max(dispersion[statistic] * factor, Self.dispersionRange.lowerBound), Self.dispersionRange.upperBound)
        }
    }

    /// Each day's squared distance from the fit at the point whose basis is `basis`, with its
    /// figures' shared levels (their conditional mean) taken out and its variance unweighted,
    /// and how many figures it has.
    /// - Complexity: O(entries + statistics³).
    func dayDistances(_ basis: [Double]) -> [(q: Double, size: Int)] {
        let errors = dayErrors(basis)
        let days = overDays(errors.differences, errors.variances)
        let levels = sharedLevels(errors.sums, dispersed: errors.dispersed, basis: basis, b: days.b, w: days.w).levels
        return slotsByDay.map { slots in
            let size = slots.count
            let statistics = slots.map { entries[usable[$0]].statistic.index }
            let r = slots.indices.map { errors.differences[slots[$0]] - levels[statistics[$0]] }
            let v = slots.map { errors.variances[$0] * slotWeights[$0] }
            var covariance = [Double](repeating: 0, count: size * size)
            for row in 0..<size {
                for column in 0..<size {
                    let rho = row == column ? 1 : sameDay[statistics[row] * statisticCount + statistics[column]]
                    covariance[row * size + column] = rho * (v[row] * v[column]).squareRoot()
                }
            }
            let inverse = SmallMatrix.inverse(covariance, size: size).inverse
            var q = 0.0
            for row in 0..<size { for column in 0..<size { q += r[row] * inverse[row * size + column] * r[column] } }
            return (max(q, 0), size)
        }
    }

    /// Σ_d log density of the days' distances under a p-variate t with ν degrees of freedom
    /// and the days' own scales (ν = ∞: normal); the terms that do not depend on ν left out.
    static func logDensity(_ distances: [(q: Double, size: Int)], _ nu: Double) -> Double {
        distances.reduce(0.0) { sum, day in
            let p = Double(day.size)
            guard nu.isFinite else { return sum - p / 2 * log(2 * Double.pi) - day.q / 2 }
            return sum + lgamma((nu + p) / 2) - lgamma(nu / 2) - p / 2 * log(nu * Double.pi) - (nu + p) / 2 * log(1 + day.q / nu)
        }
    }
}
