import FoundationEssentials
import Glibc

/// The fit's inference over a design of simulated points (docs/fit.md, "Method"): each
/// statistic's pooled simulated figure is smoothed over the design's nodes by a low-degree
/// polynomial surface (`FitSurrogate`), each day its offset from it (a share) or a line in
/// it (a rate), and a Gaussian likelihood of the measured figures is evaluated on a fine
/// grid over the ranges. The posterior under a flat prior gives each parameter's median and
/// 95% interval, and carries the parameters' uncertainty into the predicted deliverability,
/// to which the simulation's own variance is added. A day's figures are one correlated
/// vector, and the statistics' levels share correlated errors (the same users, simulated and
/// measured), integrated out in closed form.
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
        /// The guessed fields' part (`--guess`, docs/fit.md "Guessed fields"): 0 without guesses.
        package var guessError: Double = 0
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
        /// The same with its figure's level taken out (`Level`): (measured − fitted − level) / √(both variances).
        package var withinLevel: Double = .nan
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
    /// (Widened by the guessed fields' effects: `widen(by:)`.)
    package internal(set) var deliverability: [Prediction]
    package internal(set) var gain: [Prediction]
    /// The residuals' chi-square at the mode (each figure's shared error counted once) and its
    /// degrees of freedom.
    package let chiSquare: Double
    package let degreesOfFreedom: Int
    /// The day errors' tail, the days' weights and the outlier days (`FitRobustness`).
    package let robustness: Robustness
    /// Each measured figure's level at the mode (`Level`), in `FitStatistic` order.
    package let levels: [Level]

    /// The grid the posterior is read on: `finePerAxis` points per axis, spanning
    /// `windows[axis]` (fractions of the range), the last axis varying fastest.
    struct Grid {
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

    /// A statistic's days, summed for its shared error: the days' simulated variance, their
    /// count, and the simulated and measured mail.
    struct Sums {
        /// The days' node variances, and the parts of them their fitted figures keep (`dayErrors`).
        var simulated = 0.0, kept = 0.0, simulatedCount = 0.0, measuredCount = 0.0
        var days = 0

        mutating func add(simulated nodeVariance: Double, kept: Double, simulatedCount: Double, measuredCount: Double) {
            simulated += nodeVariance
            self.kept += kept
            self.simulatedCount += simulatedCount
            self.measuredCount += measuredCount
            days += 1
        }
    }

    /// Whether entry `entry` can tell points apart: not when the measured figure and every
    /// node's are all exactly 0 or all exactly 1 (a share's ends: e.g. every user launched, so sent = mail),
    /// nor when a node has no value for it.
    /// - Complexity: O(nodes).
    package static func informative(_ entry: Int, entries: [FitEntry], nodes: [FitNode]) -> Bool {
        guard nodes.allSatisfy({ $0.mean[entry].isFinite }) else { return false }
        let value = entries[entry].value
        return !(entries[entry].statistic.isAtEnd(value) && nodes.allSatisfy { $0.mean[entry] == value })
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
        var likelihood = Likelihood(entries: entries, nodes: nodes, surrogate: surrogate)
        // Heavy-tailed days: one bad day is discounted, not followed (`FitRobustness`).
        robustness = likelihood.usable.isEmpty ? Robustness(degreesOfFreedom: .infinity, outliers: [], weights: [:])
            : likelihood.weighDays(axes: axes)
        let grid = Grid(windows: likelihood.windowsOfMass(axes: axes, fine: fine), fine: fine)
        let (logLikelihood, best) = likelihood.logLikelihoods(grid)
        let modeFractions = grid.fractions(best)
        // The days' correlation is in the likelihood (the shared error); reported, not used.
        dayCorrelation = max(1, nodes[Self.nearestNode(modeFractions, nodesPerAxis: nodesPerAxis)].dayCorrelation)
        let posterior = Self.normalised(logLikelihood, best: best)

        let moments = Moments(posterior, grid: grid, axes: axes)
        correlation = moments.correlation
        marginals = moments.marginals(mode: modeFractions)
        (deliverability, gain) = Self.predictions(nodes: nodes, posterior: posterior, grid: grid, surrogate: surrogate,
                                                  likelihood: likelihood, mode: modeFractions, nodesPerAxis: nodesPerAxis)

        // Residuals at the mode, aligned with `entries` (NaN where not informative).
        let mode = likelihood.terms(surrogate.basis(grid.fractions(best)))
        let atLevels = likelihood.usable.isEmpty ? (levels: [], withinLevel: []) : likelihood.levels(surrogate.basis(modeFractions))
        levels = atLevels.levels
        var modeResiduals = mode.residuals
        for slot in modeResiduals.indices where slot < atLevels.withinLevel.count { modeResiduals[slot].withinLevel = atLevels.withinLevel[slot] }
        residuals = Self.aligned(modeResiduals, usable: likelihood.usable, entries: entries.count)
        // The goodness's chi-square reads the days as Gaussian ones (every weight 1): a misfit that
        // spreads over many days is what the heavy tail would discount and this check must see.
        // A few outlier days (reported on their own) are left out; many are the model's misfit.
        var gaussian = likelihood
        let fewOutliers = robustness.outliers.count <= Self.fewOutlierDays(likelihood.slotsByDay.count)
        let outlierDays = fewOutliers ? Set(robustness.outliers.map(\.day)) : []
        var outlierSlots = 0
        for slot in gaussian.slotWeights.indices {
            let outlier = outlierDays.contains(entries[likelihood.usable[slot]].day)
            gaussian.slotWeights[slot] = outlier ? 1e-12 : 1
            if outlier { outlierSlots += 1 }
        }
        chiSquare = gaussian.terms(surrogate.basis(modeFractions)).chiSquare
        degreesOfFreedom = max(likelihood.usable.count - outlierSlots - axes, 1)
    }

    /// How many outlier days of `days` the goodness's chi-square leaves out: at most 2, or a
    /// tenth of the days. More are counted: so many days that far off are a misfit, not bad days.
    package static func fewOutlierDays(_ days: Int) -> Int { max(2, days / 10) }

    /// The node nearest a point of the grid.
    private static func nearestNode(_ fractions: [Double], nodesPerAxis: Int) -> Int {
        fractions.reduce(0) { $0 * nodesPerAxis + Int(($1 * Double(nodesPerAxis - 1)).rounded()) }
    }

    /// The posterior over the grid from its log-likelihoods (`best` the highest), summing to 1.
    private static func normalised(_ logLikelihood: [Double], best: Int) -> [Double] {
        let top = logLikelihood[best]
        var posterior = logLikelihood.map { exp($0 - top) }
        let mass = posterior.reduce(0, +)
        for index in posterior.indices { posterior[index] /= mass }
        return posterior
    }

    /// The residuals of the informative entries (`usable`, by slot) placed at their entries,
    /// NaN at the others.
    private static func aligned(_ atMode: [Residual], usable: [Int], entries: Int) -> [Residual] {
        var residuals = [Residual](repeating: Residual(fitted: .nan, fittedError: .nan, measuredError: .nan, z: .nan), count: entries)
        for (slot, entry) in usable.enumerated() { residuals[entry] = atMode[slot] }
        return residuals
    }

    /// Predictions: the posterior's mean and spread of each strategy's interpolated figure,
    /// plus the simulation's variance there, less what the fields absorb of it
    /// (`FitPosterior+Absorbed`): SE² = (posterior variance − var h) + var(e_f − h), the first
    /// held at 0 or more.
    /// - Complexity: O(grid points × (entries + strategies × slots)).
    private static func predictions(nodes: [FitNode], posterior: [Double], grid: Grid, surrogate: FitSurrogate,
                                    likelihood: Likelihood, mode: [Double], nodesPerAxis: Int) -> (deliverability: [Prediction], gain: [Prediction]) {
        let strategies = nodes[0].deliverability.count
        let figures = (0..<strategies).map { s in
            (deliverability: surrogate.fit(nodes.map { $0.deliverability[s] }),
             deliverabilityVariance: surrogate.fit(nodes.map { $0.deliverabilityVariance[s] }).coefficients,
             gain: surrogate.fit(nodes.map { $0.gain[s] }),
             gainVariance: surrogate.fit(nodes.map { $0.gainVariance[s] }).coefficients)
        }
        // Per strategy: Σp f, Σp f², Σp (simulation variance), for deliverability then gain.
        var sums = [Double](repeating: 0, count: strategies * 6)
        // Σp f·score per slot (deliverability, then gain, per strategy) and Σp score.
        let slots = likelihood.usable.count
        let keepsBlocks = !nodes[0].blockErrors.isEmpty && slots > 0
        var products = [[Double]](repeating: [Double](repeating: 0, count: keepsBlocks ? slots : 0), count: 2 * strategies)
        var scoreSums = [Double](repeating: 0, count: keepsBlocks ? slots : 0)
        for point in 0..<grid.count where posterior[point] > 1e-300 {
            let basis = surrogate.basis(grid.fractions(point))
            let p = posterior[point]
            let scores = keepsBlocks && p > 1e-12 ? likelihood.scores(basis) : []
            for slot in scores.indices { scoreSums[slot] += p * scores[slot] }
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
                for slot in scores.indices {
                    products[2 * s][slot] += p * d * scores[slot]
                    products[2 * s + 1][slot] += p * g * scores[slot]
                }
            }
        }
        // d_slot = Cov_post(f, score_slot); against the blocks of the node nearest the mode.
        let sensitivities = products.enumerated().map { index, row in
            let mean = sums[(index / 2) * 6 + (index % 2) * 3]
            return row.indices.map { row[$0] - mean * scoreSums[$0] }
        }
        let modeBasis = surrogate.basis(mode)
        let node = nodes[nearestNode(mode, nodesPerAxis: nodesPerAxis)]
        let shares = (0..<(2 * strategies)).map { index -> Double in
            let s = index / 2
            let (surface, variance) = index % 2 == 0 ? (figures[s].deliverability, figures[s].deliverabilityVariance)
                : (figures[s].gain, figures[s].gainVariance)
            let nodeVariance = max(FitSurrogate.value(variance, modeBasis), 1e-300)
            let independent = min(surface.residualVariance, nodeVariance)
            return min(((nodeVariance - independent) + surrogate.leverage(modeBasis) * independent) / nodeVariance, 1)
        }
        let blocks = (0..<(2 * strategies)).map { index in
            index % 2 == 0 ? (node.deliverabilityBlocks.count > index / 2 ? node.deliverabilityBlocks[index / 2] : [])
                : (node.gainBlocks.count > index / 2 ? node.gainBlocks[index / 2] : [])
        }
        let absorbed = keepsBlocks ? Self.absorbed(sensitivities: sensitivities, blocks: blocks, predictionShares: shares, node: node,
                                                   usable: likelihood.usable, dayShares: likelihood.simulatedShares(modeBasis),
                                                   measuredCounts: likelihood.usable.map { likelihood.entries[$0].count })
            : Array(repeating: Absorbed(), count: 2 * strategies)
        func prediction(_ offset: Int, _ index: Int) -> Prediction {
            let mean = sums[offset], spread = max(sums[offset + 1] - mean * mean, 0), simulation = sums[offset + 2]
            let part = absorbed[index]
            // The fields' part from the team alone (over users, when the node kept its blocks), and
            // the simulation's after the fields absorb it.
            let fields = part.kept ? part.team : max(spread - part.absorbed, 0)
            let remaining = max(simulation - 2 * part.covariance + part.absorbed, 0)
            return Prediction(value: mean, standardError: (fields + remaining).squareRoot(), parameterError: fields.squareRoot(),
                              simulationError: remaining.squareRoot())
        }
        return ((0..<strategies).map { prediction($0 * 6, 2 * $0) }, (0..<strategies).map { prediction($0 * 6 + 3, 2 * $0 + 1) })
    }

    /// The posterior's marginals, means and second moments over a grid, in fractions of
    /// each range: the parameters' answers and their correlation.
    private struct Moments {
        var marginalDensity: [[Double]]
        var meanFraction: [Double]
        var second: [Double]
        let axes: Int
        let windows: [ClosedRange<Double>]

        init(_ posterior: [Double], grid: Grid, axes: Int) {
            self.axes = axes
            windows = grid.windows
            marginalDensity = [[Double]](repeating: [Double](repeating: 0, count: grid.fine), count: axes)
            meanFraction = [Double](repeating: 0, count: axes)
            second = [Double](repeating: 0, count: axes * axes)
            for point in 0..<grid.count where posterior[point] > 0 {
                let coordinates = grid.coordinates(point)
                let fractions = grid.fractions(point)
                for a in 0..<axes {
                    marginalDensity[a][coordinates[a]] += posterior[point]
                    meanFraction[a] += posterior[point] * fractions[a]
                    for b in 0..<axes { second[a * axes + b] += posterior[point] * fractions[a] * fractions[b] }
                }
            }
        }

        /// Each pair of parameters' correlation, row-major axes × axes.
        var correlation: [Double] {
            var correlation = [Double](repeating: 0, count: axes * axes)
            for a in 0..<axes {
                for b in 0..<axes {
                    let covariance = second[a * axes + b] - meanFraction[a] * meanFraction[b]
                    let va = second[a * axes + a] - meanFraction[a] * meanFraction[a]
                    let vb = second[b * axes + b] - meanFraction[b] * meanFraction[b]
                    correlation[a * axes + b] = va > 1e-300 && vb > 1e-300 ? covariance / (va * vb).squareRoot() : (a == b ? 1 : 0)
                }
            }
            return correlation
        }

        /// Each parameter's median, 95% interval and density over its window; `mode` the joint
        /// mode's fractions.
        func marginals(mode: [Double]) -> [Marginal] {
            var marginals: [Marginal] = []
            for axis in 0..<axes {
                let density = marginalDensity[axis]
                let peak = density.max() ?? 1
                let window = windows[axis]
                let at = { (q: Double) in window.lowerBound + (window.upperBound - window.lowerBound) * FitPosterior.quantile(density, q) }
                marginals.append(Marginal(median: at(0.5), low: at(0.025), high: at(0.975), mode: mode[axis],
                                          density: density.map { peak > 0 ? $0 / peak : 0 }, window: window))
            }
            return marginals
        }
    }

    /// A statistic's pooled surface over the nodes (`FitSurrogate.fit`).
    typealias Surface = (coefficients: [Double], residualVariance: Double)

    /// The Gaussian likelihood of the measured figures at a point of the ranges, from what
    /// the nodes say, read once: each statistic's pooled surface and each day's place
    /// against it, the surfaces of the variances and counts, and how the statistics' errors
    /// move together.
    struct Likelihood {
        let entries: [FitEntry]
        let surrogate: FitSurrogate
        /// The informative entries (`FitPosterior.informative`), by slot.
        let usable: [Int]
        let pooledSurfaces: [FitStatistic: Surface]
        /// Per slot: the day's offset from its pooled surface, its slope in it, its scatter about it.
        let offsets: [Double], slopes: [Double], scatter: [Double]
        /// Per slot: the day's tilt against its pooled surface, per field (its linear basis term).
        let tilts: [[Double]]
        /// Per slot: the node noise that differs from node to node (the scatter about the day's own
        /// surface), and the share of it the day's offset, slope and tilts keep on average (their
        /// terms over the nodes).
        let independent: [Double], dayLeverage: [Double]
        /// Per slot, the surface of its simulated variance and of its count.
        let variances: [[Double]], counts: [[Double]]
        /// Per statistic, the surface of its pooled figure's variance.
        let sharedVariances: [[Double]]
        /// How the statistics' levels move together beyond their same days, and their same
        /// days' figures together (row-major, `FitStatistic.index`), averaged over the nodes.
        let levelCorrelation: [Double], sameDay: [Double]
        /// The slots of each measured day, the days in order.
        let slotsByDay: [[Int]]
        let statisticCount = FitStatistic.allCases.count
        /// Per slot: its day's weight, 1 for a Gaussian day, below 1 for a day the heavy tail
        /// discounts (its variance divided by it: `FitRobustness`).
        var slotWeights: [Double]
        /// Per statistic (`FitStatistic.index`): the days' dispersion, what their variances are
        /// multiplied by, read from their residuals at the mode (`FitRobustness`); 1 until read.
        var dispersion = [Double](repeating: 1, count: FitStatistic.allCases.count)

        init(entries: [FitEntry], nodes: [FitNode], surrogate: FitSurrogate) {
            self.entries = entries
            self.surrogate = surrogate
            let usable = entries.indices.filter { FitPosterior.informative($0, entries: entries, nodes: nodes) }
            self.usable = usable
            (pooledSurfaces, offsets, scatter, slopes, tilts, independent, dayLeverage) = Self.daysOnPooledSurfaces(entries: entries, nodes: nodes, usable: usable,
                                                                                   surrogate: surrogate)
            let nodeCount = Double(nodes.count)
            variances = usable.map { entry in surrogate.fit(nodes.map { $0.variance[entry] }).coefficients }
            sharedVariances = FitStatistic.allCases.indices.map { index in surrogate.fit(nodes.map { $0.pooledVariance[index] }).coefficients }
            // How the statistics' levels move together beyond their same days, relative to their pooled
            // variances: a property of the population more than of the point, so averaged over the nodes.
            let statisticCount = FitStatistic.allCases.count
            levelCorrelation = (0..<(statisticCount * statisticCount)).map { slot in
                nodes.reduce(0.0) { $0 + $1.levelCorrelation[slot] } / nodeCount
            }
            counts = usable.map { entry in surrogate.fit(nodes.map { $0.count[entry] }).coefficients }
            // The same day's figures move together too (its users launch, receive and log that day):
            // each day's errors are one vector, correlated as the nodes' blocks say.
            sameDay = (0..<(statisticCount * statisticCount)).map { slot in
                // Held inside ±0.99 so a day's covariance stays invertible.
                min(max(nodes.reduce(0.0) { $0 + $1.sameDayCorrelation[slot] } / nodeCount, -0.99), 0.99)
            }
            slotsByDay = Dictionary(grouping: usable.indices, by: { entries[usable[$0]].day }).sorted { $0.key < $1.key }.map(\.value)
            slotWeights = Array(repeating: 1, count: usable.count)
        }

        /// Each statistic's pooled surface, and each informative day's place against it: its
        /// offset, slope and scatter.
        ///
        /// The fields move a statistic on every day alike, while each day's simulated figure
        /// carries its own noise: so a statistic's value is a surface of its pooled figure (all
        /// its days' mail together, far less noisy than one day's) plus each day's offset from
        /// it, the offset averaged over the nodes. One surface a day would wiggle
        /// with each day's noise, and those wiggles would add up to a posterior peak where
        /// there is none.
        ///
        /// A share's day moves with its pooled figure one for one (an offset). A rate's does not:
        /// launches per mail on a day of little mail rise with the launch rate faster than on a
        /// busy day, so its day is a line in the pooled figure, a_d + b_d · P(θ), fitted over the nodes.
        private static func daysOnPooledSurfaces(entries: [FitEntry], nodes: [FitNode], usable: [Int], surrogate: FitSurrogate)
            -> (pooledSurfaces: [FitStatistic: Surface], offsets: [Double], scatter: [Double], slopes: [Double], tilts: [[Double]],
                independent: [Double], leverage: [Double]) {
            let nodeCount = Double(nodes.count)
            let axes = surrogate.axes
            let linearTerms = surrogate.linearTerms
            let design = surrogate.nodeBases
            var tilts = [[Double]](repeating: [Double](repeating: 0, count: axes), count: usable.count)
            var independent = [Double](repeating: 0, count: usable.count), leverage = independent
            var pooledSurfaces: [FitStatistic: Surface] = [:]
            var offsets = [Double](repeating: 0, count: usable.count), scatter = [Double](repeating: 0, count: usable.count)
            var slopes = [Double](repeating: 1, count: usable.count)
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
                let fittedMean = fitted.reduce(0, +) / nodeCount
                let fittedSpread = fitted.reduce(0.0) { $0 + ($1 - fittedMean) * ($1 - fittedMean) }
                // A slope needs the pooled figure to move over the nodes, and a third node to leave scatter.
                let sloped = !statistic.isShare && nodes.count > 2 && fittedSpread > 1e-12 * max(fittedMean * fittedMean, 1e-12)
                for slot in slots {
                    let values = nodes.indices.map { nodes[$0].mean[usable[slot]] }
                    if sloped {
                        let valueMean = values.reduce(0, +) / nodeCount
                        slopes[slot] = zip(values, fitted).reduce(0.0) { $0 + ($1.0 - valueMean) * ($1.1 - fittedMean) } / fittedSpread
                    }
                    var deviations = nodes.indices.map { values[$0] - slopes[slot] * fitted[$0] }
                    let offset = deviations.reduce(0, +) / nodeCount
                    offsets[slot] = offset
                    for index in deviations.indices { deviations[index] -= offset }
                    // The day's tilt against its pooled figure, a line in each field (the grid's
                    // fields are orthogonal to each other and to the offset): a weekend's share moves
                    // with the launch rate otherwise than a weekday's.
                    var terms = sloped ? 2.0 : 1.0
                    if nodes.count > 2 * (axes + 2) {
                        for (axis, term) in linearTerms.enumerated() {
                            let z = nodes.indices.map { design[$0][term] }
                            let tilt = zip(deviations, z).reduce(0.0) { $0 + $1.0 * $1.1 } / z.reduce(0.0) { $0 + $1 * $1 }
                            tilts[slot][axis] = tilt
                            for index in deviations.indices { deviations[index] -= tilt * z[index] }
                            terms += 1
                        }
                    }
                    let freedom = nodeCount - terms
                    scatter[slot] = freedom > 0 ? deviations.reduce(0.0) { $0 + $1 * $1 } / freedom : 0
                    // The noise that differs from node to node: the scatter about the day's own surface.
                    independent[slot] = surrogate.fit(values).residualVariance
                    leverage[slot] = min(terms / nodeCount, 1)
                }
            }
            return (pooledSurfaces, offsets, scatter, slopes, tilts, independent, leverage)
        }

        /// The log-likelihood at each point of `grid`, and the point where it is highest.
        func logLikelihoods(_ grid: Grid) -> (values: [Double], best: Int) {
            var values = [Double](repeating: 0, count: grid.count)
            var best = 0
            for point in 0..<grid.count {
                values[point] = terms(surrogate.basis(grid.fractions(point))).logLikelihood
                if values[point] > values[best] { best = point }
            }
            return (values, best)
        }

        /// The first pass, over the whole ranges: the box where the posterior is above 1e-9
        /// of its peak, one step wider each way, as each axis's window.
        func windowsOfMass(axes: Int, fine: Int) -> [ClosedRange<Double>] {
            let whole = Grid(windows: Array(repeating: 0...1, count: axes), fine: fine)
            let first = logLikelihoods(whole)
            var lows = [Int](repeating: fine - 1, count: axes), highs = [Int](repeating: 0, count: axes)
            for point in 0..<whole.count where first.values[point] - first.values[first.best] > log(1e-9) {
                for (axis, coordinate) in whole.coordinates(point).enumerated() {
                    lows[axis] = min(lows[axis], coordinate)
                    highs[axis] = max(highs[axis], coordinate)
                }
            }
            return (0..<axes).map { axis in
                Grid.fraction(max(0, lows[axis] - 1), 0...1, fine)...Grid.fraction(min(fine - 1, highs[axis] + 1), 0...1, fine)
            }
        }

        /// The log-likelihood at the point whose basis is `basis`, each informative entry's
        /// residual there, and the residuals' chi-square.
        func terms(_ basis: [Double]) -> (logLikelihood: Double, residuals: [Residual], chiSquare: Double) {
            let errors = dayErrors(basis)
            let days = overDays(errors.differences, errors.variances)
            let levels = sharedLevels(errors.sums, dispersed: errors.dispersed, basis: basis, b: days.b, w: days.w)
            let chiSquare = days.quadratic - levels.form
            let sum = -0.5 * (chiSquare + days.logDeterminants + levels.logDeterminant)
            return (sum, errors.residuals, chiSquare)
        }

        /// Each informative entry's error at the point: the measured figure's difference from
        /// the fitted one and its variance, its residual, and its statistic's sums for the
        /// shared error.
        func dayErrors(_ basis: [Double]) -> (residuals: [Residual], differences: [Double], variances: [Double], sums: [Sums],
                                              dispersed: [Double]) {
            var residuals: [Residual] = []
            var pooledValues: [FitStatistic: Double] = [:]
            for (statistic, surface) in pooledSurfaces { pooledValues[statistic] = FitSurrogate.value(surface.coefficients, basis) }
            var sums = [Sums](repeating: Sums(), count: FitStatistic.allCases.count)
            var differences = [Double](repeating: 0, count: usable.count), dayVariances = differences
            for (slot, entry) in usable.enumerated() {
                let statistic = entries[entry].statistic
                var tilted = slopes[slot] * pooledValues[statistic]! + offsets[slot]
                for (axis, term) in surrogate.linearTerms.enumerated() { tilted += tilts[slot][axis] * basis[term] }
                let m = min(max(tilted, statistic.range.lowerBound), statistic.range.upperBound)
                // The day's own simulated error: the part of a node's variance the nodes share
                // (common random numbers) whole; the part that differs from node to node (the
                // scatter about the day's own surface) as much as the day's offset, slope and tilts
                // keep of it; and the day's scatter about its line beyond that noise (its shape
                // differs from the pooled figure's: misfit) whole.
                let nodeVariance = max(FitSurrogate.value(variances[slot], basis), 1e-12)
                let independent = min(self.independent[slot], nodeVariance)
                let simulated = (nodeVariance - independent) + independent * dayLeverage[slot] + max(scatter[slot] - independent, 0)
                let count = max(FitSurrogate.value(counts[slot], basis), 1)
                // The measured ratio's own sampling variance: the simulation's, scaled by the counts,
                // and at least its binomial (or Poisson) variance at its own value (a figure the
                // simulation has at 0 still varies in the team).
                let measured = max(nodeVariance * count / entries[entry].count,
                                   statistic.samplingVariance(entries[entry].value, count: entries[entry].count))
                let v = (simulated + measured) * dispersion[statistic.index]
                let difference = entries[entry].value - m
                differences[slot] = difference
                dayVariances[slot] = v / slotWeights[slot]
                sums[statistic.index].add(simulated: nodeVariance, kept: simulated, simulatedCount: count, measuredCount: entries[entry].count)
                residuals.append(Residual(fitted: m, fittedError: simulated.squareRoot(), measuredError: measured.squareRoot(),
                                          z: difference / v.squareRoot()))
            }
            // Σ_d (1 − φ) V_d per pair of statistics (the days' covariance the dispersion took away).
            var dispersed = [Double](repeating: 0, count: statisticCount * statisticCount)
            for slots in slotsByDay {
                for first in slots {
                    let s = entries[usable[first]].statistic.index
                    for second in slots {
                        let t = entries[usable[second]].statistic.index
                        let rho = first == second ? 1 : sameDay[s * statisticCount + t]
                        let taken = (max(1 - dispersion[s], 0) / dispersion[s] * dayVariances[first]
                                     * max(1 - dispersion[t], 0) / dispersion[t] * dayVariances[second]).squareRoot()
                        dispersed[s * statisticCount + t] += rho * taken
                    }
                }
            }
            return (residuals, differences, dayVariances, sums, dispersed)
        }

        /// Each day: its figures' errors r_d ~ N(0, V_d), V_d = R ∘ √v √vᵀ (R: `sameDay`).
        /// Over days: Q = Σ r_dᵀ V_d⁻¹ r_d, b = Σ V_d⁻¹ r_d and W = Σ V_d⁻¹ (per statistic),
        /// with Σ log det V_d.
        func overDays(_ differences: [Double], _ dayVariances: [Double])
            -> (quadratic: Double, logDeterminants: Double, b: [Double], w: [Double]) {
            var quadratic = 0.0, logDeterminants = 0.0
            var b = [Double](repeating: 0, count: statisticCount), w = [Double](repeating: 0, count: statisticCount * statisticCount)
            for slots in slotsByDay {
                let size = slots.count
                let statisticsOfDay = slots.map { entries[usable[$0]].statistic.index }
                if size == 1 {
                    let (slot, s) = (slots[0], statisticsOfDay[0])
                    quadratic += differences[slot] * differences[slot] / dayVariances[slot]
                    logDeterminants += log(dayVariances[slot])
                    b[s] += differences[slot] / dayVariances[slot]
                    w[s * statisticCount + s] += 1 / dayVariances[slot]
                    continue
                }
                var covariance = [Double](repeating: 0, count: size * size)
                for row in 0..<size {
                    for column in 0..<size {
                        let rho = row == column ? 1 : sameDay[statisticsOfDay[row] * statisticCount + statisticsOfDay[column]]
                        covariance[row * size + column] = rho * (dayVariances[slots[row]] * dayVariances[slots[column]]).squareRoot()
                    }
                }
                let (inverse, logDeterminant) = SmallMatrix.inverse(covariance, size: size)
                logDeterminants += logDeterminant
                for row in 0..<size {
                    for column in 0..<size {
                        let element = inverse[row * size + column]
                        quadratic += differences[slots[row]] * element * differences[slots[column]]
                        b[statisticsOfDay[row]] += element * differences[slots[column]]
                        w[statisticsOfDay[row] * statisticCount + statisticsOfDay[column]] += element
                    }
                }
            }
            return (quadratic, logDeterminants, b, w)
        }

        /// The statistics' shared level errors integrated out: bᵀ T (I + W T)⁻¹ b and
        /// log det(I + W T), over the statistics measured (`sums`).
        ///
        /// A statistic's days move together (the same users, in the simulation and in the
        /// team): beyond what independent days would give, the variance of its pooled figure
        /// is an error of its level that every day shares, τ² (the simulation's, plus the
        /// team's scaled by the mail counted). The statistics' levels move together too (a
        /// team that launches more has both more launches and more of its mail counted), so
        /// the shared errors are one normal vector u ~ N(0, T), T_st = ρ_st τ_s τ_t. Integrated
        /// out: −½ [Q − bᵀ T (I + W T)⁻¹ b + Σ log det V_d + log det(I + W T)]; for one
        /// statistic and independent days, −½ [Σ w r² − (Σ w r)² / (1/τ² + Σ w) + Σ log v + log(1 + τ² Σ w)].
        func sharedLevels(_ sums: [Sums], dispersed: [Double], basis: [Double], b: [Double], w: [Double])
            -> (form: Double, logDeterminant: Double, levels: [Double]) {
            let active = sums.indices.filter { sums[$0].days > 0 }
            let covariance = levelCovariance(active, sums: sums, basis: basis, dispersed: dispersed)
            let size = active.count
            var matrix = [Double](repeating: 0, count: size * size)
            for row in 0..<size {
                for column in 0..<size {
                    var product = 0.0
                    for k in 0..<size { product += w[active[row] * statisticCount + active[k]] * covariance[k * size + column] }
                    matrix[row * size + column] = (row == column ? 1 : 0) + product
                }
            }
            let bActive = active.map { b[$0] }
            let (solution, logDeterminant) = SmallMatrix.solve(matrix, bActive)
            var sharedForm = 0.0
            // The levels' conditional mean, T (I + W T)⁻¹ b: what the days say every day shares.
            var levels = [Double](repeating: 0, count: statisticCount)
            for row in 0..<size {
                for column in 0..<size {
                    sharedForm += bActive[row] * covariance[row * size + column] * solution[column]
                    levels[active[row]] += covariance[row * size + column] * solution[column]
                }
            }
            return (sharedForm, logDeterminant, levels)
        }

        /// T: the covariance of the `active` statistics' level errors at the point, each level's
        /// variance beyond its days' (the team's share scaled by the mail counted) and each pair's
        /// beyond their same days.
        func levelCovariance(_ active: [Int], sums: [Sums], basis: [Double], dispersed: [Double]) -> [Double] {
            let pooled = active.map { max(FitSurrogate.value(sharedVariances[$0], basis), 0) }
            // The simulation's share of each pooled figure's variance its surface keeps: what the
            // nodes share (common random numbers), and their independent scatter times the leverage.
            let leverage = surrogate.leverage(basis)
            let kept = active.indices.map { slot -> Double in
                guard pooled[slot] > 0 else { return 1 }
                let independent = min(pooledSurfaces[FitStatistic.allCases[active[slot]]]?.residualVariance ?? 0, pooled[slot])
                return min(((pooled[slot] - independent) + leverage * independent) / pooled[slot], 1)
            }
            // The team's share of each, scaled by the mail counted: n_sim / n_measured.
            let team = active.map { sums[$0].simulatedCount / sums[$0].measuredCount }
            let scale = active.indices.map { kept[$0] + team[$0] }
            // The simulation's level error: what its pooled figure keeps beyond what its days'
            // fitted figures keep (a day's noise the nodes reshuffle can leave a level they share);
            // the team's: its pooled variance beyond its days'.
            let shared = active.indices.map { slot in
                let total = sums[active[slot]], days = Double(total.days)
                let simulation = max(pooled[slot] * kept[slot] - total.kept / (days * days), 0)
                return max(simulation + max(pooled[slot] - total.simulated / (days * days), 0) * team[slot], 1e-15)
            }
            let size = active.count
            var covariance = [Double](repeating: 0, count: size * size)
            // The pairs' covariance beyond their same days (a user's habits move every day of
            // every figure). A figure's own level error can be small where its days' variances
            // already count its pooled variance whole; the pair's must still be carried, so a
            // level's variance is raised until it holds each pair at a correlation of 0.99 at
            // most, each figure in proportion to its pooled variance (which errs wide).
            var variances = shared
            for row in 0..<size {
                for column in 0..<size where row != column {
                    let beyond = levelCorrelation[active[row] * statisticCount + active[column]]
                        * (pooled[row] * pooled[column] * scale[row] * scale[column]).squareRoot()
                    covariance[row * size + column] = beyond
                    let proportion = (pooled[row] * scale[row] / max(pooled[column] * scale[column], 1e-300)).squareRoot()
                    variances[row] = max(variances[row], abs(beyond) * proportion / 0.99)
                }
            }
            for row in 0..<size { covariance[row * size + row] = variances[row] }
            // Pairwise bounds leave three or more figures possibly indefinite: not a covariance.
            if size > 2 { covariance = SmallMatrix.shrunkToSemidefinite(covariance, size: size) }
            // What the days' dispersion took from their variances stays in their levels, with the
            // same days' correlation: the days scatter less than their variances say, not their
            // level (which the residuals cannot read, and which tools/fit-coverage.sh shows would
            // be understated otherwise). Σ_d of the days' (1 − φ) V_d, over the days counted.
            for row in 0..<size {
                for column in 0..<size {
                    let days = Double(sums[active[row]].days * sums[active[column]].days)
                    covariance[row * size + column] += dispersed[active[row] * statisticCount + active[column]] / days
                }
            }
            return covariance
        }
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
