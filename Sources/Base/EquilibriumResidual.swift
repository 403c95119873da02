import FoundationEssentials
import Glibc

extension Distribution {
    /// What is left, at a time chosen independently of the process, of the period
    /// of a stationary renewal process with these period lengths: the equilibrium
    /// residual, density P(L > x) / E[L].
    ///
    /// It is drawn as the length of the period holding that time (length-biased,
    /// density x·f(x) / E[L]: long periods cover more time) times an independent
    /// uniform fraction of it still to come. The length-biased laws:
    /// - constant c: c;
    /// - uniform(a, b): density ∝ x on [a, b], inverse CDF √(a² + u(b² − a²));
    /// - log-normal(μ, σ): log-normal(μ + σ², σ);
    /// - exponential: the residual is the same exponential (memorylessness), drawn
    ///   exactly as `sample` draws it, one uniform, so exponential streams are unchanged.
    ///
    /// Exact math, not `Sampler`'s table: it is drawn once per user. The result is
    /// rounded up to a whole microsecond (the residual of a period of n µs on the
    /// microsecond grid is uniform on 1…n, never 0) and capped at `longestDraw`.
    /// - Complexity: O(1).
    package func equilibriumResidual(_ rng: inout SplitMix64) -> SimDuration {
        let covering: Double
        switch self {
        case .exponential:
            return sample(&rng)
        case .constant(let value):
            covering = Double(value)
        case .uniform(let low, let high):
            let a = Double(low), b = Double(high)
            covering = (a * a + rng.nextUnitInterval() * (b * b - a * a)).squareRoot()
        case .lognormal(let median, let sigma):
            let normal = standardNormalQuantile(rng.nextUnitInterval())
            covering = Double(median) * Glibc.exp(sigma * sigma + sigma * normal)
        }
        // nextUnitInterval is in (0, 1]: a positive fraction of the covering period.
        let remaining = (rng.nextUnitInterval() * covering).rounded(.up)
        return SimDuration(Swift.min(remaining, Double(Self.longestDraw)))
    }
}
