import FoundationEssentials

extension FitPosterior {
    /// A fitted figure's level at the mode (docs/fit.md, "Method", step 8): how far its measured
    /// days sit from the fitted ones on average, against how far the fit allows. Each figure's
    /// days share an error of their level (the same users, in the simulation and in the team),
    /// which the likelihood integrates out, so an offset every day shares is expected up to that
    /// error; the residuals are drawn with it taken out.
    package struct Level: Sendable, Equatable {
        package var statistic: FitStatistic
        /// The days' mean of measured − fitted, each day weighted by its precision, in the figure's units.
        package var shift: Double
        /// Its standard deviation under the fit: the level error's and the days' own, averaged,
        /// √(τ² + 1 / Σ 1/v_d).
        package var allowed: Double
        /// `shift` over `allowed`; NaN when nothing is allowed.
        package var z: Double { allowed > 0 ? shift / allowed : .nan }
    }
}

extension FitPosterior.Likelihood {
    /// Each measured figure's level at the point whose basis is `basis`, and every slot's
    /// residual with its figure's level taken out, (y − m − shift) / √v.
    /// - Complexity: O(entries + statistics³).
    func levels(_ basis: [Double]) -> (levels: [FitPosterior.Level], withinLevel: [Double]) {
        let errors = dayErrors(basis)
        let active = errors.sums.indices.filter { errors.sums[$0].days > 0 }
        let covariance = levelCovariance(active, sums: errors.sums, basis: basis, dispersed: errors.dispersed)
        // Per statistic: Σ r/v and Σ 1/v over its days (an outlier day at its weight).
        var weighted = [Double](repeating: 0, count: statisticCount), precision = weighted
        for slot in usable.indices {
            let statistic = entries[usable[slot]].statistic.index
            weighted[statistic] += errors.differences[slot] / errors.variances[slot]
            precision[statistic] += 1 / errors.variances[slot]
        }
        let shifts = (0..<statisticCount).map { precision[$0] > 0 ? weighted[$0] / precision[$0] : 0 }
        let levels = active.enumerated().map { slot, index in
            FitPosterior.Level(statistic: FitStatistic.allCases[index], shift: shifts[index],
                               allowed: (max(covariance[slot * active.count + slot], 0) + 1 / precision[index]).squareRoot())
        }
        let withinLevel = usable.indices.map { slot in
            // A day's variance unweighted, as its residual z is read.
            let v = errors.variances[slot] * slotWeights[slot]
            return (errors.differences[slot] - shifts[entries[usable[slot]].statistic.index]) / v.squareRoot()
        }
        return (levels, withinLevel)
    }
}
