import Foundation

/// A distribution prepared for the hot path. Log-normal draws are the costly ones
/// (a quantile function and an `exp` per push hop), so they read a 4096-point table
/// of the inverse CDF instead, interpolating linearly between points. The outer
/// 1/64 of probability at each end, where the quantile curve bends too fast for
/// linear interpolation, is computed exactly, so tails keep their shape. The same single uniform is consumed either way, so streams stay aligned.
/// Other distributions are drawn directly.
package struct Sampler {
    @usableFromInline package static let points = 4096
    /// Bins at each end drawn exactly (64 of 4096: probability 1/64 per tail).
    @usableFromInline package static let exactBins = 64

    package let distribution: Distribution
    @usableFromInline let table: ContiguousArray<Double>
    /// The log-normal's parameters, unpacked once: matching the enum per draw costs more than the draw.
    @usableFromInline let median: Double
    @usableFromInline let sigma: Double
    @usableFromInline let tabulated: Bool

    package init(_ distribution: Distribution) {
        self.distribution = distribution
        guard case .lognormal(let median, let sigma) = distribution else {
            table = []
            median = 0
            sigma = 0
            tabulated = false
            return
        }
        var table = ContiguousArray<Double>(repeating: 0, count: Self.points + 1)
        for index in 1..<Self.points {
            let p = Double(index) / Double(Self.points)
            table[index] = Double(median) * Foundation.exp(sigma * standardNormalQuantile(p))
        }
        self.table = table
        self.median = Double(median)
        self.sigma = sigma
        tabulated = true
    }

    /// One draw, rounded to a whole microsecond, at most `Distribution.longestDraw`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func sample(_ rng: inout SplitMix64) -> SimDuration {
        guard tabulated else { return distribution.sample(&rng) }
        let u = rng.nextUnitInterval()
        let x = u * Double(Self.points)
        let index = Int(x)
        guard index >= Self.exactBins, index < Self.points - Self.exactBins else {
            return Distribution.rounded(median * Foundation.exp(sigma * standardNormalQuantile(u)))
        }
        // The guard keeps index + 1 inside the table: no bounds checks needed.
        return table.withUnsafeBufferPointer { points in
            let low = points[index]
            return Distribution.rounded(low + (points[index + 1] - low) * (x - Double(index)))
        }
    }
}
