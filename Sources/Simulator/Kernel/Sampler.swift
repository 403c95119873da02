import FakeAPNs
import Foundation

/// A distribution prepared for the hot path. Log-normal draws are the costly ones
/// (a quantile function and an `exp` per push hop), so they read a 4096-point table
/// of the inverse CDF instead, interpolating linearly between points. The outer
/// 1/64 of probability at each end, where the quantile curve bends too fast for
/// linear interpolation, is computed exactly, so tails keep their shape. The same single uniform is consumed either way, so streams stay aligned.
/// Other distributions are drawn directly.
struct Sampler {
    static let points = 4096
    /// Bins at each end drawn exactly (64 of 4096: probability 1/64 per tail).
    static let exactBins = 64

    let distribution: Distribution
    private let table: ContiguousArray<Double>

    init(_ distribution: Distribution) {
        self.distribution = distribution
        guard case .lognormal(let median, let sigma) = distribution else {
            table = []
            return
        }
        var table = ContiguousArray<Double>(repeating: 0, count: Self.points + 1)
        for index in 1..<Self.points {
            let p = Double(index) / Double(Self.points)
            table[index] = Double(median) * Foundation.exp(sigma * standardNormalQuantile(p))
        }
        self.table = table
    }

    /// One draw, rounded to a whole microsecond.
    /// - Complexity: O(1).
    func sample(_ rng: inout SplitMix64) -> SimDuration {
        guard !table.isEmpty, case .lognormal(let median, let sigma) = distribution else {
            return distribution.sample(&rng)
        }
        let u = rng.nextUnitInterval()
        let x = u * Double(Self.points)
        let index = Int(x)
        guard index >= Self.exactBins, index < Self.points - Self.exactBins else {
            return SimDuration(Double(median) * Foundation.exp(sigma * standardNormalQuantile(u)) + 0.5)
        }
        let low = table[index]
        return SimDuration(low + (table[index + 1] - low) * (x - Double(index)) + 0.5)
    }
}
