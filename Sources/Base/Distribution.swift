import FoundationEssentials
import Glibc

/// A random length of time, as scenario files describe one.
public enum Distribution: Sendable, Equatable {
    /// Always `value`.
    case constant(SimDuration)
    /// Exponential with this mean (memoryless on/off periods, Poisson gaps).
    case exponential(mean: SimDuration)
    /// Uniform between `min` and `max`.
    case uniform(min: SimDuration, max: SimDuration)
    /// Log-normal: `median` = e^μ, `sigma` = σ of the underlying normal.
    case lognormal(median: SimDuration, sigma: Double)

    /// The distribution's mean, in microseconds.
    /// - Complexity: O(1).
    public var mean: Double {
        switch self {
        case .constant(let value): Double(value)
        case .exponential(let mean): Double(mean)
        case .uniform(let low, let high): (Double(low) + Double(high)) / 2
        case .lognormal(let median, let sigma): Double(median) * Glibc.exp(sigma * sigma / 2)
        }
    }

    /// The longest draw: 1,000 years. A heavy tail (a log-normal with a large
    /// median and σ near 5 reaches 10^27 µs) would overflow the clock; anything
    /// this long falls past every run's horizon (at most 100 years) anyway, so
    /// capping it changes no outcome.
    public static let longestDraw: SimDuration = 1000 * 365 * TimeUnit.day

    /// A drawn length in microseconds, rounded to a whole microsecond and capped
    /// at `longestDraw`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func rounded(_ microseconds: Double) -> SimDuration {
        SimDuration(Swift.min(microseconds + 0.5, Double(longestDraw)))
    }

    /// The longest draw `sample` (or `Sampler.sample`) can return: uniform draws
    /// lie in (0, 1] in steps of 2⁻⁵³, so every distribution has one (capped at
    /// `longestDraw`). What bounds a copy's time on the way (`CopyBounds`) is built from it.
    /// - Complexity: O(1).
    package var longestPossibleDraw: SimDuration {
        switch self {
        case .constant(let value):
            return value
        case .exponential(let mean):
            return Self.rounded(-Double(mean) * Glibc.log(0x1.0p-53))
        case .uniform(_, let high):
            return high
        case .lognormal(let median, let sigma):
            // The quantile is monotone: its extremes are at the ends of (0, 1].
            let extreme = max(sigma * standardNormalQuantile(1), sigma * standardNormalQuantile(0x1.0p-53))
            // One microsecond over: the table's interpolation and rounding stay below it.
            return Self.rounded(Double(median) * Glibc.exp(extreme) + 1)
        }
    }

    /// One draw, rounded to a whole microsecond, at most `longestDraw`.
    /// - Complexity: O(1).
    @inlinable
    public func sample(_ rng: inout SplitMix64) -> SimDuration {
        switch self {
        case .constant(let value):
            return value
        case .exponential(let mean):
            return Self.rounded(-Double(mean) * Glibc.log(rng.nextUnitInterval()))
        case .uniform(let low, let high):
            return low + SimDuration(Double(high - low) * (1 - rng.nextUnitInterval()) + 0.5)
        case .lognormal(let median, let sigma):
            // Inversion needs one uniform and, away from the tails, no log or cos: the
            // latency hops draw this per push, so it is the simulator's hottest math.
            let normal = standardNormalQuantile(rng.nextUnitInterval())
            return Self.rounded(Double(median) * Glibc.exp(sigma * normal))
        }
    }
}

/// Φ⁻¹(p), the standard normal quantile, by Acklam's rational approximation
/// (relative error below 1.15e-9 over (0, 1)); p = 1 is clamped to 1 − 2⁻⁵³ (≈ 8.2).
/// - Complexity: O(1).
@inlinable
public func standardNormalQuantile(_ p: Double) -> Double {
    let a = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
    let b = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
    let c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
    let d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00)
    let low = 0.02425
    if p < low {
        let q = (-2 * Glibc.log(p)).squareRoot()
        return (((((c.0 * q + c.1) * q + c.2) * q + c.3) * q + c.4) * q + c.5)
            / ((((d.0 * q + d.1) * q + d.2) * q + d.3) * q + 1)
    }
    if p > 1 - low {
        // p = 1 exactly (the uniform's top) would be +∞: clamp to the next double below 1.
        let q = (-2 * Glibc.log(max(1 - p, 0x1.0p-53))).squareRoot()
        return -(((((c.0 * q + c.1) * q + c.2) * q + c.3) * q + c.4) * q + c.5)
            / ((((d.0 * q + d.1) * q + d.2) * q + d.3) * q + 1)
    }
    let q = p - 0.5
    let r = q * q
    return (((((a.0 * r + a.1) * r + a.2) * r + a.3) * r + a.4) * r + a.5) * q
        / (((((b.0 * r + b.1) * r + b.2) * r + b.3) * r + b.4) * r + 1)
}

