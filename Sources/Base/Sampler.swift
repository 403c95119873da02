import FoundationEssentials
import Glibc

/// A distribution prepared for the hot path. Log-normal draws are the costly ones
/// (a quantile function and an `exp` per push hop), so they read a 4096-point table
/// of the inverse CDF instead, interpolating linearly between points. The outer
/// 1/64 of probability at each end, where the quantile curve bends too fast for
/// linear interpolation, is computed exactly, so tails keep their shape. The same single uniform is consumed either way, so streams stay aligned.
/// Other distributions are drawn directly, from parameters unpacked once (the same
/// arithmetic as `Distribution.sample`, so the same draws).
public struct Sampler {
    @usableFromInline static let points = 4096
    /// Bins at each end drawn exactly (64 of 4096: probability 1/64 per tail).
    @usableFromInline static let exactBins = 64

    /// How `sample` draws: the distribution's case, unpacked.
    @usableFromInline enum Kind: UInt8 { case constant, exponential, uniform, tabulated }

    public let distribution: Distribution
    @usableFromInline let table: ContiguousArray<Double>
    /// The log-normal's parameters, unpacked once: matching the enum per draw costs more than the draw.
    @usableFromInline let median: Double
    @usableFromInline let sigma: Double
    @usableFromInline let kind: Kind
    /// The constant; the uniform's low end; unused otherwise.
    @usableFromInline let low: SimDuration
    /// The uniform's width (high − low); the exponential's mean.
    @usableFromInline let width: Double

    public init(_ distribution: Distribution) {
        self.distribution = distribution
        switch distribution {
        case .constant(let value):
            (kind, low, width) = (.constant, value, 0)
        case .exponential(let mean):
            (kind, low, width) = (.exponential, 0, Double(mean))
        case .uniform(let low, let high):
            (kind, self.low, width) = (.uniform, low, Double(high - low))
        case .lognormal:
            (kind, low, width) = (.tabulated, 0, 0)
        }
        guard case .lognormal(let median, let sigma) = distribution else {
            table = []
            median = 0
            sigma = 0
            return
        }
        var table = ContiguousArray<Double>(repeating: 0, count: Self.points + 1)
        for index in 1..<Self.points {
            let p = Double(index) / Double(Self.points)
            table[index] = Double(median) * Glibc.exp(sigma * standardNormalQuantile(p))
        }
        self.table = table
        self.median = Double(median)
        self.sigma = sigma
    }

    /// Whether every draw is the same value (a constant: no uniform is consumed).
    @inlinable public var isConstant: Bool { kind == .constant }

    /// One draw, rounded to a whole microsecond, at most `Distribution.longestDraw`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public func sample(_ rng: inout SplitMix64) -> SimDuration {
        switch kind {
        case .constant:
            return low
        case .exponential:
            return Distribution.rounded(-width * Glibc.log(rng.nextUnitInterval()))
        case .uniform:
            return low + SimDuration(width * (1 - rng.nextUnitInterval()) + 0.5)
        case .tabulated:
            return sampleTabulated(&rng)
        }
    }

    /// Bits of a uniform's steps (`nextUnitIntervalSteps`, 2⁻⁵³ each) below its table point:
    /// u × 4096 is steps × 2⁻⁴¹ exactly (53 − 12 bits), so its whole part is `steps >> 41`
    /// and what is past it `steps mod 2⁴¹ × 2⁻⁴¹`, the same doubles as converting u × 4096,
    /// without the conversion's range checks.
    @usableFromInline static let fractionBits: UInt64 = 41

    @inlinable @inline(__always)
    func sampleTabulated(_ rng: inout SplitMix64) -> SimDuration {
        let steps = rng.nextUnitIntervalSteps()
        // At most 2⁵³ >> 41 = 4096 (= points): fits.
        let index = Int(truncatingIfNeeded: steps >> Self.fractionBits)
        guard index >= Self.exactBins, index < Self.points - Self.exactBins else {
            let u = Double(steps) * 0x1.0p-53
            return Distribution.rounded(median * Glibc.exp(sigma * standardNormalQuantile(u)))
        }
        let fraction = Double(steps & ((1 << Self.fractionBits) - 1)) * 0x1.0p-41
        // The guard keeps index + 1 inside the table: no bounds checks needed.
        return table.withUnsafeBufferPointer { points in
            let low = points[index]
            return Distribution.rounded(low + (points[index + 1] - low) * fraction)
        }
    }

    /// `count` draws appended to `draws`, in stream order: `sample` `count` times, with the
    /// distribution's kind looked up and the buffer's room checked once.
    /// - Complexity: O(`count`).
    @inlinable
    public func sample(_ count: Int, into draws: inout OwnedBuffer<SimDuration>, _ rng: inout SplitMix64) {
        switch kind {
        case .tabulated: draws.append(count: count) { sampleTabulated(&rng) }
        case .constant, .exponential, .uniform: draws.append(count: count) { sample(&rng) }
        }
    }
}
