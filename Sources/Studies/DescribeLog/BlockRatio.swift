import Simulator

/// A ratio R = ΣY / ΣX over blocks of users, with the delta method's standard error over
/// the blocks as units, as a run's reports make theirs (docs/reports.md, "Standard errors"):
/// e_b = (Y_b − R·X_b) / ΣX, SE² = K / (K − 1) · Σ e_b², K the blocks that hold anything.
struct BlockRatio {
    var numerators: [Double]
    var denominators: [Double]
    var scale = 1.0

    init(_ numerators: [Double], _ denominators: [Double]) {
        self.numerators = numerators
        self.denominators = denominators
    }

    /// The same ratio times `factor` (its standard error too).
    func scaled(by factor: Double) -> BlockRatio {
        var scaled = self
        scaled.scale *= factor
        return scaled
    }

    /// The estimate, its standard error and K − 1 degrees of freedom; NaN when ΣX is 0,
    /// an unknown standard error with fewer than two blocks.
    /// - Complexity: O(K).
    var estimate: Estimate {
        let totalY = numerators.reduce(0, +), totalX = denominators.reduce(0, +)
        guard totalX > 0 else { return Estimate(value: .nan, standardError: .nan) }
        let ratio = totalY / totalX
        let used = zip(numerators, denominators).filter { $0.0 != 0 || $0.1 != 0 }
        guard used.count >= 2 else { return Estimate(value: ratio * scale, standardError: .nan) }
        let squares = used.reduce(0.0) { sum, block in
            let e = (block.0 - ratio * block.1) / totalX
            return sum + e * e
        }
        let k = Double(used.count)
        return Estimate(value: ratio * scale, standardError: (k / (k - 1) * squares).squareRoot() * abs(scale),
                        degreesOfFreedom: used.count - 1)
    }
}
