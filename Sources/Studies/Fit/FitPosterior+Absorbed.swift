import FoundationEssentials

/// What the fitted fields absorb of the simulation's own error (docs/fit.md, "Method", step 7).
///
/// Every point runs with the same seed, and the fit calibrates the fields against the simulated
/// measured figures: simulation noise that moves those figures moves the simulated true
/// deliverability of the same users too, and the fields absorb it, so much of it cancels in the
/// prediction. In the local linear picture the prediction is off by e_f − h, h = Σ d_slot e_slot:
/// e_f the prediction's simulated error, e_slot each measured figure's, and d_slot = ∂E[f]/∂y_slot
/// how the posterior mean follows the measured figure (the posterior covariance of f with the
/// likelihood's score for y_slot). Its honest variance is var(e_f − h) plus the team's part of the
/// fields' spread, the posterior variance less var(h) (the simulation's part of it).
extension FitPosterior.Likelihood {
    /// ∂ log L / ∂ y_slot at the point whose basis is `basis`, per slot: −[V_d⁻¹ (r_d − û)]_slot,
    /// û the figures' shared levels there.
    /// - Complexity: O(entries + statistics³).
    func scores(_ basis: [Double]) -> [Double] {
        let errors = dayErrors(basis)
        let days = overDays(errors.differences, errors.variances)
        let levels = sharedLevels(errors.sums, dispersed: errors.dispersed, basis: basis, b: days.b, w: days.w).levels
        var scores = [Double](repeating: 0, count: usable.count)
        for slots in slotsByDay {
            let statistics = slots.map { entries[usable[$0]].statistic.index }
            let inverse = dayCovariance(slots, variances: errors.variances).inverse
            let size = slots.count
            for row in 0..<size {
                var sum = 0.0
                for column in 0..<size { sum += inverse[row * size + column] * (errors.differences[slots[column]] - levels[statistics[column]]) }
                scores[slots[row]] = -sum
            }
        }
        return scores
    }

    /// A day's covariance V_d = R ∘ √v √vᵀ over its `slots` (`variances` per slot), inverted.
    /// - Complexity: O(figures³).
    func dayCovariance(_ slots: [Int], variances: [Double]) -> (inverse: [Double], logDeterminant: Double) {
        let size = slots.count
        let statistics = slots.map { entries[usable[$0]].statistic.index }
        var covariance = [Double](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                let rho = row == column ? 1 : sameDay[statistics[row] * statisticCount + statistics[column]]
                covariance[row * size + column] = rho * (variances[slots[row]] * variances[slots[column]]).squareRoot()
            }
        }
        return SmallMatrix.inverse(covariance, size: size)
    }

    /// Per slot, the share of a node's simulated variance its day's fitted figure keeps at the
    /// point (`dayErrors`): what the nodes share, and their independent part times the leverage,
    /// times the days' dispersion (as the likelihood counts it).
    /// - Complexity: O(entries × terms).
    func simulatedShares(_ basis: [Double]) -> [Double] {
        usable.indices.map { slot in
            let nodeVariance = max(FitSurrogate.value(variances[slot], basis), 1e-12)
            let independent = min(self.independent[slot], nodeVariance)
            let kept = ((nodeVariance - independent) + independent * dayLeverage[slot]) / nodeVariance
            return min(kept * dispersion[entries[usable[slot]].statistic.index], 1)
        }
    }
}

extension FitPosterior {
    /// A prediction's simulation error against the figures': its covariance with h (the part
    /// the fields absorb) and h's variance, from the blocks of the node nearest the mode.
    struct Absorbed {
        var covariance = 0.0
        var absorbed = 0.0
        /// var(Σ d_slot e_team,slot): the team's own sampling through the fields, the node's block
        /// errors scaled to the team's counts (the sandwich: the estimator's sensitivity to each
        /// figure, against the figures' covariance over users, across days and figures).
        var team = 0.0
        var kept: Bool { team > 0 }
    }

    /// For each sensitivity vector `sensitivities[s]` (d per slot) and each strategy's block
    /// errors `blocks[s]` with the share `predictionShares[s]` of its variance the prediction
    /// keeps: cov(e_f, h) and var(h) over the node's blocks, each error scaled by the square
    /// root of its kept share. Zero where the node kept no blocks.
    /// - Complexity: O(strategies × slots × blocks).
    static func absorbed(sensitivities: [[Double]], blocks: [[Double]], predictionShares: [Double], node: FitNode,
                         usable: [Int], dayShares: [Double], measuredCounts: [Double]) -> [Absorbed] {
        sensitivities.indices.map { s in
            let f = blocks[s]
            guard !f.isEmpty, node.blockErrors.count > (usable.max() ?? -1) else { return Absorbed() }
            var h = [Double](repeating: 0, count: f.count), team = h
            for (slot, entry) in usable.enumerated() {
                let e = node.blockErrors[entry]
                guard e.count == f.count else { continue }
                let weight = sensitivities[s][slot] * dayShares[slot].squareRoot()
                let teamWeight = sensitivities[s][slot] * (node.count[entry] / max(measuredCounts[slot], 1)).squareRoot()
                for block in h.indices {
                    h[block] += weight * e[block]
                    team[block] += teamWeight * e[block]
                }
            }
            let fScale = predictionShares[s].squareRoot()
            var covariance = 0.0, absorbed = 0.0, teamVariance = 0.0
            for block in h.indices {
                covariance += fScale * f[block] * h[block]
                absorbed += h[block] * h[block]
                teamVariance += team[block] * team[block]
            }
            return Absorbed(covariance: node.blockCorrection * covariance, absorbed: node.blockCorrection * absorbed,
                            team: node.blockCorrection * teamVariance)
        }
    }
}
