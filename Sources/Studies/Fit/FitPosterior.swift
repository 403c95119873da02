import Foundation

/// The fit's inference over a design of simulated points (docs/fit.md, "Method"): each
/// statistic's pooled simulated figure is smoothed over the design's nodes by a low-degree
/// polynomial surface (`FitSurrogate`), each day its offset from it, and a Gaussian
/// likelihood of the measured figures is evaluated
/// on a fine grid over the ranges. The posterior under a flat prior gives each
/// parameter's median and 95% interval, and carries the parameters' uncertainty into the
/// predicted deliverability, to which the simulation's own variance is added. A
/// statistic's days share an error of its level (the same users, simulated and measured),
/// integrated out in closed form.
package struct FitPosterior: Sendable {
    /// One parameter's answer, in fractions of its range (0 at LOW, 1 at HIGH).
    package struct Marginal: Sendable, Equatable {
        package var median: Double
        package var low: Double
        package var high: Double
        /// The joint mode's coordinate on this axis.
        package var mode: Double
        /// The density at `density.count` equally spaced points over `window` (normalised to
        /// a peak of 1), for the page and the checks.
        package var density: [Double]
        /// The part of the range the posterior was read on: where it is not negligible.
        package var window: ClosedRange<Double>
    }

    /// A predicted figure: its posterior mean and standard error (parameters' spread and
    /// the simulation's variance).
    package struct Prediction: Sendable, Equatable {
        package var value: Double
        package var standardError: Double
        package var parameterError: Double
        package var simulationError: Double
        /// value ± 1.96 SE.
        package var low: Double { value - 1.959964 * standardError }
        package var high: Double { value + 1.959964 * standardError }
        /// The interval within `bounds` (a share's 0…1).
        package func interval(within bounds: ClosedRange<Double>) -> ClosedRange<Double> {
            min(max(low, bounds.lowerBound), bounds.upperBound)...max(min(high, bounds.upperBound), bounds.lowerBound)
        }
    }

    /// How well the mode fits, day by day.
    package struct Residual: Sendable, Equatable {
        package var fitted: Double
        /// The simulation's standard error of `fitted`.
        package var fittedError: Double
        /// The measured figure's own standard error (its count's sampling).
        package var measuredError: Double
        /// (measured − fitted) / √(both variances).
        package var z: Double
    }

    package let nodesPerAxis: Int
    package let finePerAxis: Int
    package let axes: Int
    package let marginals: [Marginal]
    /// Correlation of each pair of parameters' posteriors, row-major axes × axes.
    package let correlation: [Double]
    /// How much the days' errors add up beyond independent days (the variance of their sum
    /// over the sum of their variances, over blocks at the node nearest the mode): reported;
    /// the likelihood counts it through each statistic's shared error.
    package let dayCorrelation: Double
    /// Per entry, at the mode (NaN for an entry that says nothing: see `informative`).
    package let residuals: [Residual]
    /// Per strategy.
    package let deliverability: [Prediction]
    package let gain: [Prediction]
    /// The residuals' chi-square at the mode (each figure's shared error counted once) and its
    /// degrees of freedom.
    package let chiSquare: Double
    package let degreesOfFreedom: Int

    /// The grid the posterior is read on: `finePerAxis` points per axis, spanning
    /// `windows[axis]` (fractions of the range), the last axis varying fastest.
    private struct Grid {
        var windows: [ClosedRange<Double>]
        var fine: Int
        var count: Int

        init(windows: [ClosedRange<Double>], fine: Int) {
            self.windows = windows
            self.fine = fine
            count = windows.reduce(1) { count, _ in count * fine }
        }

        static func fraction(_ index: Int, _ window: ClosedRange<Double>, _ fine: Int) -> Double {
            window.lowerBound + (window.upperBound - window.lowerBound) * Double(index) / Double(fine - 1)
        }

        func coordinates(_ point: Int) -> [Int] {
            var rest = point
            var coordinates = [Int](repeating: 0, count: windows.count)
            for axis in windows.indices.reversed() { coordinates[axis] = rest % fine; rest /= fine }
            return coordinates
        }

        func fractions(_ point: Int) -> [Double] {
            let coordinates = coordinates(point)
            return windows.indices.map { Self.fraction(coordinates[$0], windows[$0], fine) }
        }
    }

    /// A statistic's days, summed for its likelihood.
    private struct Sums {
        var weightedResidual = 0.0, weightedSquare = 0.0, weight = 0.0, logs = 0.0
        var simulated = 0.0, simulatedCount = 0.0, measuredCount = 0.0
        var days = 0

        mutating func add(difference: Double, variance: Double, simulated nodeVariance: Double, simulatedCount: Double,
                          measuredCount: Double) {
            weightedResidual += difference / variance
            weightedSquare += difference * difference / variance
            weight += 1 / variance
            logs += log(variance)
            simulated += nodeVariance
            self.simulatedCount += simulatedCount
            self.measuredCount += measuredCount
            days += 1
        }
    }

    /// Whether entry `entry` can tell points apart: not when the measured figure and every
    /// node's are all exactly 0 or all exactly 1 (e.g. every user launched, so sent = mail),
    /// nor when a node has no value for it.
    /// - Complexity: O(nodes).
    package static func informative(_ entry: Int, entries: [FitEntry], nodes: [FitNode]) -> Bool {
        guard nodes.allSatisfy({ $0.mean[entry].isFinite }) else { return false }
        let value = entries[entry].value
        return !((value == 0 || value == 1) && nodes.allSatisfy { $0.mean[entry] == value })
    }

    /// Fits `entries` with the design `nodes` (a grid of `nodesPerAxis` values on each of
    /// `axes` axes, the last axis varying fastest). The posterior is read twice: over the
    /// whole ranges, then over the box where it is not negligible (so a narrow posterior
    /// is read as finely as a wide one).
    /// - Complexity: O(fine points × terms × (entries + nodes + strategies)).
    package init(entries: [FitEntry], nodes: [FitNode], axes: Int, nodesPerAxis: Int, finePerAxis: Int? = nil) {
        precondition(axes >= 1 && nodesPerAxis >= 2)
        precondition(nodes.count == (0..<axes).reduce(1) { count, _ in count * nodesPerAxis }, "a node per grid point")
        self.axes = axes
        self.nodesPerAxis = nodesPerAxis
        let fine = finePerAxis ?? [0, 201, 61, 25, 13][min(axes, 4)]
        self.finePerAxis = fine

        let surrogate = FitSurrogate(axes: axes, nodesPerAxis: nodesPerAxis)
        let usable = entries.indices.filter { Self.informative($0, entries: entries, nodes: nodes) }
        // The fields move a statistic on every day alike, while each day's simulated figure
        // carries its own noise: so a statistic's value is a surface of its pooled figure (all
        // its days' mail together, far less noisy than one day's) plus each day's offset from
        // it, the offset averaged over the nodes. One surface a day would wiggle
        // with each day's noise, and those wiggles would add up to a posterior peak where
        // there is none.
        let nodeCount = Double(nodes.count)
        var pooledSurfaces: [FitStatistic: (coefficients: [Double], residualVariance: Double)] = [:]
        var offsets = [Double](repeating: 0, count: usable.count), scatter = [Double](repeating: 0, count: usable.count)
        for statistic in FitStatistic.allCases {
            let slots = usable.indices.filter { entries[usable[$0]].statistic == statistic }
            guard !slots.isEmpty else { continue }
            let pooled = nodes.map { node in
                let total = slots.reduce(0.0) { $0 + node.count[usable[$1]] }
                return slots.reduce(0.0) { $0 + node.mean[usable[$1]] * node.count[usable[$1]] } / max(total, 1)
            }
            let surface = surrogate.fit(pooled)
            pooledSurfaces[statistic] = surface
            let fitted = surrogate.fitted(surface.coefficients)
            for slot in slots {
                let deviations = nodes.indices.map { nodes[$0].mean[usable[slot]] - fitted[$0] }
                let offset = deviations.reduce(0, +) / nodeCount
                offsets[slot] = offset
                scatter[slot] = nodes.count > 1 ? deviations.reduce(0.0) { $0 + ($1 - offset) * ($1 - offset) } / (nodeCount - 1) : 0
            }
        }
        let variances = usable.map { entry in surrogate.fit(nodes.map { $0.variance[entry] }).coefficients }
        let sharedVariances = FitStatistic.allCases.indices.map { index in surrogate.fit(nodes.map { $0.pooledVariance[index] }).coefficients }
        let counts = usable.map { entry in surrogate.fit(nodes.map { $0.count[entry] }).coefficients }
        func terms(_ basis: [Double]) -> (logLikelihood: Double, residuals: [Residual], chiSquare: Double) {
            var residuals: [Residual] = []
            var pooledValues: [FitStatistic: Double] = [:]
            for (statistic, surface) in pooledSurfaces { pooledValues[statistic] = FitSurrogate.value(surface.coefficients, basis) }
            // Per statistic, over its days: Σ w r, Σ w r², Σ w, Σ log v, and for its shared error
            // the days' summed simulated variance, their count and the simulated and measured mail.
            var sums = [Sums](repeating: Sums(), count: FitStatistic.allCases.count)
            for (slot, entry) in usable.enumerated() {
                let statistic = entries[entry].statistic
                let m = min(max(pooledValues[statistic]! + offsets[slot], 0), 1)
                // The day's own error: a node's whole variance (how much of it the nodes share
                // cannot be told apart from a surface that bends: counted whole, which errs wide),
                // plus the day's scatter about the pooled surface beyond it (misfit).
                let nodeVariance = max(FitSurrogate.value(variances[slot], basis), 1e-12)
                let simulated = nodeVariance + max(scatter[slot] - nodeVariance, 0)
                let count = max(FitSurrogate.value(counts[slot], basis), 1)
                // The measured ratio's own sampling variance: the simulation's, scaled by the counts.
                let measured = nodeVariance * count / entries[entry].count
                let v = simulated + measured
                let difference = entries[entry].value - m
                sums[statistic.index].add(difference: difference, variance: v, simulated: nodeVariance, simulatedCount: count,
                                          measuredCount: entries[entry].count)
                residuals.append(Residual(fitted: m, fittedError: simulated.squareRoot(), measuredError: measured.squareRoot(),
                                          z: difference / v.squareRoot()))
            }
            // A statistic's days move together (the same users, in the simulation and in the
            // team): beyond what independent days would give, the variance of its pooled figure
            // is an error of its level that every day shares, τ² (the simulation's, plus the
            // team's scaled by the mail counted). Integrated out, a normal shared error leaves
            // −½ [Σ w r² − (Σ w r)² / (1/τ² + Σ w) + Σ log v + log(1 + τ² Σ w)].
            var sum = 0.0, chiSquare = 0.0
            for (index, total) in sums.enumerated() where total.weight > 0 {
                let days = Double(total.days)
                let pooled = max(FitSurrogate.value(sharedVariances[index], basis), 0)
                let correlated = max(pooled - total.simulated / (days * days), 0)
                let shared = max(correlated * (1 + total.simulatedCount / total.measuredCount), 1e-15)
                let form = total.weightedSquare - total.weightedResidual * total.weightedResidual / (1 / shared + total.weight)
                sum -= 0.5 * (form + total.logs + log(1 + shared * total.weight))
                chiSquare += form
            }
            return (sum, residuals, chiSquare)
        }
        func logLikelihoods(_ grid: Grid) -> (values: [Double], best: Int) {
            var values = [Double](repeating: 0, count: grid.count)
            var best = 0
            for point in 0..<grid.count {
                values[point] = terms(surrogate.basis(grid.fractions(point))).logLikelihood
                if values[point] > values[best] { best = point }
            }
            return (values, best)
        }
        // The node nearest a point of the grid.
        func nearestNode(_ fractions: [Double]) -> Int {
            fractions.reduce(0) { $0 * nodesPerAxis + Int(($1 * Double(nodesPerAxis - 1)).rounded()) }
        }

        // First pass over the whole ranges; then the box where the posterior is
        // above 1e-9 of its peak, one step wider each way.
        let whole = Grid(windows: Array(repeating: 0...1, count: axes), fine: fine)
        let first = logLikelihoods(whole)
        var lows = [Int](repeating: fine - 1, count: axes), highs = [Int](repeating: 0, count: axes)
        for point in 0..<whole.count where first.values[point] - first.values[first.best] > log(1e-9) {
            for (axis, coordinate) in whole.coordinates(point).enumerated() {
                lows[axis] = min(lows[axis], coordinate)
                highs[axis] = max(highs[axis], coordinate)
            }
        }
        let windows = (0..<axes).map { axis in
            Grid.fraction(max(0, lows[axis] - 1), 0...1, fine)...Grid.fraction(min(fine - 1, highs[axis] + 1), 0...1, fine)
        }
        let grid = Grid(windows: windows, fine: fine)
        let (logLikelihood, best) = logLikelihoods(grid)
        let modeFractions = grid.fractions(best)
        // The days' correlation is in the likelihood (the shared error); reported, not used.
        dayCorrelation = max(1, nodes[nearestNode(modeFractions)].dayCorrelation)
        let top = logLikelihood[best]
        var posterior = logLikelihood.map { exp($0 - top) }
        let mass = posterior.reduce(0, +)
        for index in posterior.indices { posterior[index] /= mass }

        // Marginals, moments and correlation, in fractions of each range.
        var marginalDensity = [[Double]](repeating: [Double](repeating: 0, count: fine), count: axes)
        var meanFraction = [Double](repeating: 0, count: axes)
        var second = [Double](repeating: 0, count: axes * axes)
        for point in 0..<grid.count where posterior[point] > 0 {
            let coordinates = grid.coordinates(point)
            let fractions = grid.fractions(point)
            for a in 0..<axes {
                marginalDensity[a][coordinates[a]] += posterior[point]
                meanFraction[a] += posterior[point] * fractions[a]
                for b in 0..<axes { second[a * axes + b] += posterior[point] * fractions[a] * fractions[b] }
            }
        }
        var correlation = [Double](repeating: 0, count: axes * axes)
        for a in 0..<axes {
            for b in 0..<axes {
                let covariance = second[a * axes + b] - meanFraction[a] * meanFraction[b]
                let va = second[a * axes + a] - meanFraction[a] * meanFraction[a]
                let vb = second[b * axes + b] - meanFraction[b] * meanFraction[b]
                correlation[a * axes + b] = va > 1e-300 && vb > 1e-300 ? covariance / (va * vb).squareRoot() : (a == b ? 1 : 0)
            }
        }
        self.correlation = correlation
        var marginals: [Marginal] = []
        for axis in 0..<axes {
            let density = marginalDensity[axis]
            let peak = density.max() ?? 1
            let window = windows[axis]
            let at = { (q: Double) in window.lowerBound + (window.upperBound - window.lowerBound) * Self.quantile(density, q) }
            marginals.append(Marginal(median: at(0.5), low: at(0.025), high: at(0.975), mode: modeFractions[axis],
                                      density: density.map { peak > 0 ? $0 / peak : 0 }, window: window))
        }
        self.marginals = marginals

        // Predictions: the posterior's mean and spread of each strategy's interpolated
        // figure, plus the simulation's variance there.
        let strategies = nodes[0].deliverability.count
        let figures = (0..<strategies).map { s in
            (deliverability: surrogate.fit(nodes.map { $0.deliverability[s] }),
             deliverabilityVariance: surrogate.fit(nodes.map { $0.deliverabilityVariance[s] }).coefficients,
             gain: surrogate.fit(nodes.map { $0.gain[s] }),
             gainVariance: surrogate.fit(nodes.map { $0.gainVariance[s] }).coefficients)
        }
        var sums = [Double](repeating: 0, count: strategies * 6)
        for point in 0..<grid.count where posterior[point] > 1e-300 {
            let basis = surrogate.basis(grid.fractions(point))
            let p = posterior[point]
            for (s, figure) in figures.enumerated() {
                // A surface near 1 may overshoot it: a share stays within 0…1, a gain within −1…1.
                let d = min(max(FitSurrogate.value(figure.deliverability.coefficients, basis), 0), 1)
                let g = min(max(FitSurrogate.value(figure.gain.coefficients, basis), -1), 1)
                sums[s * 6] += p * d
                sums[s * 6 + 1] += p * d * d
                sums[s * 6 + 2] += p * surrogate.variance(nodeVariance: max(FitSurrogate.value(figure.deliverabilityVariance, basis), 0),
                                                          residualVariance: figure.deliverability.residualVariance, basis: basis)
                sums[s * 6 + 3] += p * g
                sums[s * 6 + 4] += p * g * g
                sums[s * 6 + 5] += p * surrogate.variance(nodeVariance: max(FitSurrogate.value(figure.gainVariance, basis), 0),
                                                          residualVariance: figure.gain.residualVariance, basis: basis)
            }
        }
        func prediction(_ offset: Int) -> Prediction {
            let mean = sums[offset], spread = max(sums[offset + 1] - mean * mean, 0), simulation = sums[offset + 2]
            return Prediction(value: mean, standardError: (spread + simulation).squareRoot(), parameterError: spread.squareRoot(),
                              simulationError: simulation.squareRoot())
        }
        deliverability = (0..<strategies).map { prediction($0 * 6) }
        gain = (0..<strategies).map { prediction($0 * 6 + 3) }

        // Residuals at the mode, aligned with `entries` (NaN where not informative).
        let mode = terms(surrogate.basis(grid.fractions(best)))
        let atMode = mode.residuals
        var residuals = [Residual](repeating: Residual(fitted: .nan, fittedError: .nan, measuredError: .nan, z: .nan), count: entries.count)
        for (slot, entry) in usable.enumerated() { residuals[entry] = atMode[slot] }
        self.residuals = residuals
        chiSquare = mode.chiSquare
        degreesOfFreedom = max(usable.count - axes, 1)
    }

    /// The `q` quantile of a density given at equally spaced points over [0, 1]
    /// (trapezoids between the points), as a fraction.
    /// - Complexity: O(points).
    package static func quantile(_ density: [Double], _ q: Double) -> Double {
        let n = density.count
        guard n >= 2 else { return 0.5 }
        var cumulative = [0.0]
        for index in 1..<n { cumulative.append(cumulative[index - 1] + (density[index - 1] + density[index]) / 2) }
        let total = cumulative[n - 1]
        guard total > 0 else { return 0.5 }
        let target = q * total
        for index in 1..<n where cumulative[index] >= target {
            let step = cumulative[index] - cumulative[index - 1]
            let within = step > 0 ? (target - cumulative[index - 1]) / step : 0
            return (Double(index - 1) + within) / Double(n - 1)
        }
        return 1
    }
}

/// The chi-square distribution's upper tail, for the goodness of fit.
package enum ChiSquare {
    /// P(X > x) for X ~ χ²(k): the regularised upper incomplete gamma Q(k/2, x/2).
    /// - Complexity: O(iterations), at most a few hundred.
    package static func upperTail(_ x: Double, degreesOfFreedom k: Int) -> Double {
        guard x > 0 else { return 1 }
        let a = Double(k) / 2, z = x / 2
        let logPrefix = a * log(z) - z - lgamma(a)
        if z < a + 1 {
            // The series for P, then Q = 1 − P.
            var term = 1 / a, sum = term, n = a
            for _ in 0..<1000 {
                n += 1
                term *= z / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * exp(logPrefix))
        }
        // Lentz's continued fraction for Q.
        var b = z + 1 - a, c = 1 / 1e-300, d = 1 / b, h = d
        for i in 1...1000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < 1e-300 { d = 1e-300 }
            c = b + an / c
            if abs(c) < 1e-300 { c = 1e-300 }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return min(1, exp(logPrefix) * h)
    }
}
