import Base
import Foundation
@testable import Simulator
@testable import Studies
import Testing
import TestThreads

/// The fit's inference against models whose answer is known in closed form: figures made
/// from a known curve with known noise, the simulation's own error shared by every node
/// (common random numbers), as `pushsim fit` sees them.
@Suite("Fit posterior", .ownThread(.computing))
struct FitPosteriorTests {
    /// Seeded standard normal draws: PushSim's own generator and normal quantile.
    struct Normal {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func uniform() -> Double { random.nextUnitInterval() }
        mutating func next() -> Double { standardNormalQuantile(random.nextUnitInterval()) }
    }

    /// Days of a month: Monday first.
    static func entries(days: Int, values: [Double], count: Double, statistic: FitStatistic = .measuredDeliverability) -> [FitEntry] {
        (0..<days).map { FitEntry(statistic: statistic, row: $0, day: $0, value: values[$0], count: count, weekday: $0 % 7) }
    }

    /// One node per grid point of `axes` axes: the curve at the node's fractions plus the
    /// shared simulation error; one strategy whose deliverability is `truth(θ)`.
    static func nodes(axes: Int, nodesPerAxis: Int, days: Int, curve: ([Double], Int) -> Double, simulationError: [Double],
                      variance: Double, count: Double, truth: ([Double]) -> Double) -> [FitNode] {
        var total = 1
        for _ in 0..<axes { total *= nodesPerAxis }
        return (0..<total).map { point in
            var rest = point
            var fractions = [Double](repeating: 0, count: axes)
            for axis in (0..<axes).reversed() { fractions[axis] = Double(rest % nodesPerAxis) / Double(nodesPerAxis - 1); rest /= nodesPerAxis }
            return FitNode(mean: (0..<days).map { curve(fractions, $0) + simulationError[$0] },
                           variance: Array(repeating: variance, count: days), count: Array(repeating: count, count: days),
                           deliverability: [truth(fractions)], deliverabilityVariance: [0.0001 * 0.0001],
                           gain: [0], gainVariance: [0], dayCorrelation: 1)
        }
    }

    @Test("the surface reproduces a polynomial of degree 3 exactly, and its scatter estimates added noise")
    func surrogate() {
        let surface = FitSurrogate(axes: 2, nodesPerAxis: 5)
        #expect(surface.exponents.count == 10)
        func cubic(_ f: [Double]) -> Double {
            let x: Double = f[0], y: Double = f[1]
            let quadratic: Double = 0.3 + 0.2 * x - 0.7 * y * y
            return quadratic + 0.4 * x * x * y + 0.1 * y * y * y
        }
        let nodes: [[Double]] = (0..<25).map { (node: Int) -> [Double] in [Double(node / 5) / 4, Double(node % 5) / 4] }
        let exact = surface.fit(nodes.map(cubic))
        #expect(exact.residualVariance < 1e-20)
        for f in [[0.13, 0.77], [0.5, 0.5], [0.91, 0.02]] {
            #expect(abs(FitSurrogate.value(exact.coefficients, surface.basis(f)) - cubic(f)) < 1e-12)
        }
        // Noise of SD 0.01 about a smooth surface: the scatter's mean square over many draws is its variance.
        var random = Normal(state: 3)
        var total = 0.0
        for _ in 0..<200 { total += surface.fit(nodes.map { cubic($0) + 0.01 * random.next() }).residualVariance }
        #expect(abs(total / 200 / 0.0001 - 1) < 0.1)
        // Two nodes an axis: a plane.
        #expect(FitSurrogate(axes: 3, nodesPerAxis: 2).exponents.count == 4)
    }

    @Test("quantiles of a flat density are the fractions; of a point mass, its place")
    func quantiles() {
        let flat = [Double](repeating: 1, count: 101)
        #expect(abs(FitPosterior.quantile(flat, 0.5) - 0.5) < 1e-12)
        #expect(abs(FitPosterior.quantile(flat, 0.025) - 0.025) < 1e-12)
        var spike = [Double](repeating: 0, count: 11)
        spike[3] = 1
        #expect(abs(FitPosterior.quantile(spike, 0.5) - 0.3) < 1e-12)
    }

    @Test("the chi-square tail matches its closed forms and tables")
    func chiSquare() {
        for x in [0.5, 2.0, 7.3] { #expect(abs(ChiSquare.upperTail(x, degreesOfFreedom: 2) - exp(-x / 2)) < 1e-12) }
        #expect(abs(ChiSquare.upperTail(3.841459, degreesOfFreedom: 1) - 0.05) < 1e-6)
        #expect(abs(ChiSquare.upperTail(18.307038, degreesOfFreedom: 10) - 0.05) < 1e-6)
        #expect(abs(ChiSquare.upperTail(124.342113, degreesOfFreedom: 100) - 0.05) < 1e-6)
        #expect(ChiSquare.upperTail(0, degreesOfFreedom: 5) == 1)
    }

    /// 400 fits of a curved one-parameter model, 30 days, the truth drawn inside the range:
    /// the 95% interval holds the true parameter and the true deliverability in 91–99% of
    /// them (binomial SD at 95% and n = 400 is 1.1 points: the band is ±3.6 SD).
    @Test("95% intervals hold the true parameter and deliverability about 95% of the time")
    func coverage() {
        var random = Normal(state: 2026)
        let days = 30, simulatedCount = 300.0, measuredCount = 3000.0
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.62 + 0.25 * theta[0] - 0.08 * theta[0] * theta[0] - (day % 7 >= 5 ? 0.03 : 0) }
        func truth(_ theta: [Double]) -> Double { 0.7 + 0.2 * theta[0] * theta[0] }
        var parameterCovered = 0, deliverabilityCovered = 0
        let runs = 400
        for _ in 0..<runs {
            let theta = 0.15 + 0.7 * random.uniform()
            let p = curve([theta], 0)
            let variance = p * (1 - p) / simulatedCount
            let simulationError = (0..<days).map { _ in variance.squareRoot() * random.next() }
            let measured = (0..<days).map { curve([theta], $0) + (p * (1 - p) / measuredCount).squareRoot() * random.next() }
            let posterior = FitPosterior(entries: Self.entries(days: days, values: measured, count: measuredCount),
                                         nodes: Self.nodes(axes: 1, nodesPerAxis: 7, days: days, curve: curve, simulationError: simulationError,
                                                           variance: variance, count: simulatedCount, truth: truth),
                                         axes: 1, nodesPerAxis: 7)
            let marginal = posterior.marginals[0]
            if marginal.low <= theta && theta <= marginal.high { parameterCovered += 1 }
            let predicted = posterior.deliverability[0]
            if predicted.low <= truth([theta]) && truth([theta]) <= predicted.high { deliverabilityCovered += 1 }
        }
        #expect((364...396).contains(parameterCovered), "the parameter was covered \(parameterCovered) times of \(runs)")
        #expect((364...396).contains(deliverabilityCovered), "the deliverability was covered \(deliverabilityCovered) times of \(runs)")
    }

    @Test("two parameters that move the figures only through their sum are refused as a trade-off")
    func tradeOff() {
        var random = Normal(state: 7)
        let days = 28
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.5 + 0.2 * (theta[0] + theta[1]) }
        let measured = (0..<days).map { curve([0.5, 0.5], $0) + 0.004 * random.next() }
        let posterior = FitPosterior(entries: Self.entries(days: days, values: measured, count: 5000),
                                     nodes: Self.nodes(axes: 2, nodesPerAxis: 5, days: days, curve: curve,
                                                       simulationError: Array(repeating: 0, count: days), variance: 0.00001, count: 5000,
                                                       truth: { _ in 0.8 }),
                                     axes: 2, nodesPerAxis: 5)
        guard case .tradeOff(0, 1, let rho)? = FitStudy.refusal(posterior) else {
            Issue.record("expected a trade-off, found \(String(describing: FitStudy.refusal(posterior)))")
            return
        }
        #expect(rho < -0.9)
    }

    @Test("a parameter the figures do not depend on is refused as not identified")
    func notIdentified() {
        let days = 14
        let posterior = FitPosterior(entries: Self.entries(days: days, values: Array(repeating: 0.8, count: days), count: 5000),
                                     nodes: Self.nodes(axes: 1, nodesPerAxis: 5, days: days, curve: { _, _ in 0.8 },
                                                       simulationError: Array(repeating: 0, count: days), variance: 0.0001, count: 5000,
                                                       truth: { _ in 0.8 }),
                                     axes: 1, nodesPerAxis: 5)
        #expect(FitStudy.refusal(posterior) == .notIdentified(0))
    }

    @Test("figures beyond what the range gives are refused as past the range, at the end they lie past")
    func pastRange() {
        let days = 14
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.6 + 0.2 * theta[0] }
        for (target, high) in [(1.4, true), (-0.5, false)] {
            let posterior = FitPosterior(entries: Self.entries(days: days, values: Array(repeating: curve([target], 0), count: days), count: 5000),
                                         nodes: Self.nodes(axes: 1, nodesPerAxis: 5, days: days, curve: curve,
                                                           simulationError: Array(repeating: 0, count: days), variance: 0.00002,
                                                           count: 5000, truth: { _ in 0.8 }),
                                         axes: 1, nodesPerAxis: 5)
            #expect(FitStudy.refusal(posterior) == .pastRange(0, high: high))
        }
    }

    @Test("an error every day shares widens the interval as the closed form says: SD = √(v/D + τ²) / slope")
    func sharedError() {
        let days = 30
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.6 + 0.2 * theta[0] }
        // The measured figure's variance equals the simulated one (equal counts, above the binomial 0.7 · 0.3 / 500): v = 2 × 0.0005 a day.
        func width(correlated: Double) -> Double {
            var nodes = Self.nodes(axes: 1, nodesPerAxis: 5, days: days, curve: curve, simulationError: Array(repeating: 0, count: days),
                                   variance: 0.0005, count: 500, truth: { _ in 0.8 })
            for index in nodes.indices { nodes[index].pooledVariance[FitStatistic.measuredDeliverability.index] = 0.0005 / Double(days) + correlated }
            let posterior = FitPosterior(entries: Self.entries(days: days, values: Array(repeating: curve([0.5], 0), count: days), count: 500),
                                         nodes: nodes, axes: 1, nodesPerAxis: 5, finePerAxis: 2001)
            return posterior.marginals[0].high - posterior.marginals[0].low
        }
        for correlated in [0.0, 0.00005, 0.0002] {
            // τ²: the simulation's correlated part and the team's, scaled by the counts (equal here).
            let expected = 2 * 1.959964 * (2 * 0.0005 / Double(days) + 2 * correlated).squareRoot() / 0.2
            #expect(abs(width(correlated: correlated) / expected - 1) < 0.01, "τ² part \(correlated)")
        }
    }

    @Test("a rate's day that moves with the field faster than the pooled figure (little mail) is fitted as a line in it, not an offset")
    func rateDaysScaleWithTheField() {
        let days = 28
        // Launches per mail: weekends carry 60% of a weekday's mail, so their ratio moves 1/0.6 times as fast.
        func curve(_ theta: [Double], _ day: Int) -> Double { (0.05 + 0.3 * theta[0]) / (day % 7 >= 5 ? 0.6 : 1) }
        let theta = 0.1
        let nodes = Self.nodes(axes: 1, nodesPerAxis: 7, days: days, curve: curve, simulationError: Array(repeating: 0, count: days),
                               variance: 1e-6, count: 5_000, truth: { $0[0] })
        let measured = (0..<days).map { curve([theta], $0) }
        let posterior = FitPosterior(entries: Self.entries(days: days, values: measured, count: 50_000, statistic: .launchesPerMail),
                                     nodes: nodes, axes: 1, nodesPerAxis: 7, finePerAxis: 2001)
        // An offset averaged over the nodes would leave weekends 0.04 above their figure at θ = 0.1.
        for (day, residual) in posterior.residuals.enumerated() {
            #expect(abs(residual.fitted - measured[day]) < 1e-9, "day \(day): fitted \(residual.fitted), measured \(measured[day])")
        }
        #expect(abs(posterior.marginals[0].median - theta) < 0.002)
        #expect(posterior.marginals[0].low <= theta && theta <= posterior.marginals[0].high)
    }

    @Test("a rate's sampling variance is Poisson, a share's binomial, each held half a count inside its range")
    func samplingVariances() {
        #expect(FitStatistic.launchesPerMail.samplingVariance(2.5, count: 100) == 0.025)
        #expect(FitStatistic.launchesPerMail.samplingVariance(0, count: 100) == 0.005 / 100)
        #expect(abs(FitStatistic.activeShare.samplingVariance(0.8, count: 100) - 0.0016) < 1e-15)
        #expect(abs(FitStatistic.activeShare.samplingVariance(1, count: 100) - 0.995 * 0.005 / 100) < 1e-15)
        #expect(FitStatistic.launchesPerMail.isAtEnd(0) && !FitStatistic.launchesPerMail.isAtEnd(1))
        #expect(FitStatistic.activeShare.isAtEnd(1))
    }

    /// The 95% interval's width for a field on a straight line (0.6 + 0.2 θ, measured at θ = 0.5)
    /// read from two figures of `days` days each: node variance 0.0005 a day, 500 mails measured
    /// and simulated, each node's pooled variances and correlations as `configure` sets them
    /// (given the two figures' indices in a row-major statistics × statistics matrix).
    static func twoFigureWidth(days: Int, configure: (inout FitNode, _ pair: [Int]) -> Void) -> Double {
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.6 + 0.2 * theta[0] }
        let statistics: [FitStatistic] = [.measuredDeliverability, .activeShare]
        let count = FitStatistic.allCases.count
        let pair = [statistics[0].index * count + statistics[1].index, statistics[1].index * count + statistics[0].index]
        var nodes = Self.nodes(axes: 1, nodesPerAxis: 5, days: 2 * days, curve: { curve($0, $1 % days) },
                               simulationError: Array(repeating: 0, count: 2 * days), variance: 0.0005, count: 500, truth: { _ in 0.8 })
        for index in nodes.indices { configure(&nodes[index], pair) }
        let entries = statistics.flatMap { statistic in
            Self.entries(days: days, values: Array(repeating: curve([0.5], 0), count: days), count: 500, statistic: statistic)
        }
        let posterior = FitPosterior(entries: entries, nodes: nodes, axes: 1, nodesPerAxis: 5, finePerAxis: 2001)
        return posterior.marginals[0].high - posterior.marginals[0].low
    }

    @Test("two figures whose levels share one error count it once: SD = √(τ² + v/2D) / slope when they move together, √((τ² + v/D)/2) when not")
    func correlatedLevels() {
        let days = 30, correlated = 0.0001
        func width(rho: Double) -> Double {
            Self.twoFigureWidth(days: days) { node, pair in
                for statistic in [FitStatistic.measuredDeliverability, .activeShare] {
                    node.pooledVariance[statistic.index] = 0.0005 / Double(days) + correlated
                }
                // The level errors' correlation ρ, relative to the pooled variances.
                for slot in pair { node.levelCorrelation[slot] = rho * correlated / (0.0005 / Double(days) + correlated) }
            }
        }
        // v = 2 × 0.0005 a day (simulated and measured); τ² = 2 × the correlated part (both shares).
        let v = 2 * 0.0005, tau = 2 * correlated
        let together = 2 * 1.959964 * (tau + v / Double(2 * days)).squareRoot() / 0.2
        let apart = 2 * 1.959964 * ((tau + v / Double(days)) / 2).squareRoot() / 0.2
        #expect(abs(width(rho: 1) / together - 1) < 0.01, "\(width(rho: 1)) against \(together)")
        #expect(abs(width(rho: 0) / apart - 1) < 0.01, "\(width(rho: 0)) against \(apart)")
    }

    @Test("two figures whose same-day errors correlate ρ tell a day's story once: SD = √(v(1 + ρ)/2D) / slope")
    func correlatedDays() {
        let days = 30, v = 2 * 0.0005
        for rho in [0.0, 0.5, 0.9] {
            let width = Self.twoFigureWidth(days: days) { node, pair in
                // No level error beyond independent days.
                for statistic in [FitStatistic.measuredDeliverability, .activeShare] { node.pooledVariance[statistic.index] = 0.0005 / Double(days) }
                for slot in pair { node.sameDayCorrelation[slot] = rho }
            }
            let expected = 2 * 1.959964 * (v * (1 + rho) / Double(2 * days)).squareRoot() / 0.2
            #expect(abs(width / expected - 1) < 0.01, "ρ \(rho): \(width) against \(expected)")
        }
    }

    @Test("small systems solve exactly, with their determinant; the inverse times the matrix is the identity")
    func smallMatrices() {
        let matrix = [4.0, 2, 0.6, 2, 5, 1, 0.6, 1, 3]
        let (solution, logDeterminant) = SmallMatrix.solve(matrix, [1, 2, 3])
        for row in 0..<3 {
            #expect(abs((0..<3).reduce(0.0) { $0 + matrix[row * 3 + $1] * solution[$1] } - Double(row + 1)) < 1e-12)
        }
        // det = 4(15 − 1) − 2(6 − 0.6) + 0.6(2 − 3) = 44.6
        #expect(abs(logDeterminant - log(44.6)) < 1e-12)
        let (inverse, _) = SmallMatrix.inverse(matrix, size: 3)
        for row in 0..<3 {
            for column in 0..<3 {
                let product = (0..<3).reduce(0.0) { $0 + matrix[row * 3 + $1] * inverse[$1 * 3 + column] }
                #expect(abs(product - (row == column ? 1 : 0)) < 1e-12)
            }
        }
        // A pivot is needed: the first diagonal element is 0.
        let (swapped, _) = SmallMatrix.solve([0, 1, 1, 0], [3, 5])
        #expect(swapped == [5, 3])
        // Pairwise correlations of 0.9, 0.9 and −0.9 have no covariance matrix: shrunk until they do.
        let indefinite = [1.0, 0.9, 0.9, 0.9, 1, -0.9, 0.9, -0.9, 1]
        #expect(!SmallMatrix.isPositiveSemidefinite(indefinite, size: 3))
        let shrunk = SmallMatrix.shrunkToSemidefinite(indefinite, size: 3)
        #expect(SmallMatrix.isPositiveSemidefinite(shrunk, size: 3) && shrunk[0] == 1 && shrunk[1] < 0.9 && shrunk[1] > 0.3)
        #expect(SmallMatrix.isPositiveSemidefinite([1, 1, 1, 1], size: 2) && SmallMatrix.shrunkToSemidefinite([1, 1, 1, 1], size: 2) == [1, 1, 1, 1])
    }
}

/// The heavy-tailed likelihood (docs/fit.md, "Method", step 4): one bad day is reported, not followed.
@Suite("Fit outlier days")
struct FitOutlierTests {
    typealias Base = FitPosteriorTests

    /// 30 days of a curved one-field model at θ = 0.4, one day (day 17) `shift` off; the posterior.
    static func posterior(shift: Double, seed: UInt64 = 11) -> FitPosterior {
        var random = Base.Normal(state: seed)
        let days = 30, simulatedCount = 300.0, measuredCount = 3000.0
        func curve(_ theta: [Double], _ day: Int) -> Double { 0.62 + 0.25 * theta[0] - 0.08 * theta[0] * theta[0] }
        let p = curve([0.4], 0)
        let variance = p * (1 - p) / simulatedCount
        let simulationError = (0..<days).map { _ in variance.squareRoot() * random.next() }
        var measured = (0..<days).map { curve([0.4], $0) + (p * (1 - p) / measuredCount).squareRoot() * random.next() }
        measured[17] += shift
        return FitPosterior(entries: Base.entries(days: days, values: measured, count: measuredCount),
                            nodes: Base.nodes(axes: 1, nodesPerAxis: 7, days: days, curve: curve, simulationError: simulationError,
                                              variance: variance, count: simulatedCount, truth: { 0.7 + 0.2 * $0[0] }),
                            axes: 1, nodesPerAxis: 7)
    }

    /// Tolerance: the estimate may move by at most one standard error (the 95% interval's
    /// half-width / 1.96) of the clean fit, for each of 5 seeds; a shift of 0.3 is about 10 day SDs.
    @Test("one day far off is reported by its day and neither refuses nor moves the estimate by more than its standard error")
    func outlierDay() {
        for seed: UInt64 in 1...5 {
            let clean = Self.posterior(shift: 0, seed: seed), spoiled = Self.posterior(shift: -0.3, seed: seed)
            #expect(clean.robustness.outliers.isEmpty, "seed \(seed): \(clean.robustness.outliers)")
            #expect(FitStudy.refusal(spoiled) == nil)
            #expect(spoiled.robustness.outliers.map(\.day) == [17], "seed \(seed): \(spoiled.robustness.outliers)")
            #expect(spoiled.robustness.degreesOfFreedom.isFinite)
            let standardError = (clean.marginals[0].high - clean.marginals[0].low) / (2 * 1.959964)
            let moved = abs(spoiled.marginals[0].median - clean.marginals[0].median)
            #expect(moved < standardError, "seed \(seed): moved \(moved), SE \(standardError)")
            let deliverabilityMoved = abs(spoiled.deliverability[0].value - clean.deliverability[0].value)
            #expect(deliverabilityMoved < clean.deliverability[0].standardError)
        }
    }
}
