/// A smooth surface through the design's simulated values: a polynomial of total degree
/// at most 3 in the varied fields (each scaled to −1 … 1 over its range), fitted by least
/// squares over the nodes. Smoothing, not interpolating: a simulated figure is noisy, and a
/// field that changes how many random draws a device takes (its launches, say) moves the
/// noise from node to node, so a curve through every node would wiggle with it. What the
/// surface leaves over at the nodes estimates that noise plus any misfit
/// (`residualVariance`), which the likelihood adds to the simulation's own variance.
package struct FitSurrogate: Sendable {
    package let axes: Int
    /// Each basis term's exponent per axis, constant term first.
    package let exponents: [[Int]]
    /// (XᵀX)⁻¹Xᵀ: coefficients = projection · values.
    private let projection: [[Double]]
    private let design: [[Double]]

    /// The surface's terms for `nodesPerAxis` nodes on each of `axes` axes: total degree up
    /// to 3, but at most `nodesPerAxis − 1` in any one axis (a line through 2 nodes).
    /// - Complexity: O(nodes × terms²).
    package init(axes: Int, nodesPerAxis: Int) {
        self.axes = axes
        let degree = min(3, nodesPerAxis - 1)
        var exponents: [[Int]] = [[]]
        for _ in 0..<axes { exponents = exponents.flatMap { prefix in (0...degree).map { prefix + [$0] } } }
        // Lowest degree first, the constant term at 0 (the order is otherwise the grid's).
        exponents = exponents.filter { $0.reduce(0, +) <= degree }.enumerated()
            .sorted { ($0.element.reduce(0, +), $0.offset) < ($1.element.reduce(0, +), $1.offset) }.map(\.element)
        self.exponents = exponents
        var total = 1
        for _ in 0..<axes { total *= nodesPerAxis }
        var design: [[Double]] = []
        for point in 0..<total {
            var rest = point
            var fractions = [Double](repeating: 0, count: axes)
            for axis in (0..<axes).reversed() { fractions[axis] = Double(rest % nodesPerAxis) / Double(nodesPerAxis - 1); rest /= nodesPerAxis }
            design.append(Self.basis(fractions, exponents))
        }
        self.design = design
        let terms = exponents.count
        // Normal equations, solved for every node's unit vector at once by Gauss–Jordan.
        var normal = [[Double]](repeating: [Double](repeating: 0, count: terms + total), count: terms)
        for i in 0..<terms {
            for j in 0..<terms { normal[i][j] = design.reduce(0) { $0 + $1[i] * $1[j] } }
            for node in 0..<total { normal[i][terms + node] = design[node][i] }
        }
        for column in 0..<terms {
            let pivot = (column..<terms).max { abs(normal[$0][column]) < abs(normal[$1][column]) }!
            normal.swapAt(column, pivot)
            let scale = normal[column][column]
            precondition(abs(scale) > 1e-12, "the design determines the surface's terms")
            for k in 0..<(terms + total) { normal[column][k] /= scale }
            for row in 0..<terms where row != column {
                let factor = normal[row][column]
                if factor != 0 { for k in 0..<(terms + total) { normal[row][k] -= factor * normal[column][k] } }
            }
        }
        projection = normal.map { Array($0[terms...]) }
    }

    /// Per axis, the index of its linear term (z_axis alone).
    package var linearTerms: [Int] {
        (0..<axes).map { axis in exponents.firstIndex { powers in powers.enumerated().allSatisfy { $0.element == ($0.offset == axis ? 1 : 0) } }! }
    }

    /// The basis terms at every node, in grid order.
    package var nodeBases: [[Double]] { design }

    /// The basis terms at `fractions` (0 … 1 per axis).
    /// - Complexity: O(terms × axes).
    package func basis(_ fractions: [Double]) -> [Double] { Self.basis(fractions, exponents) }

    private static func basis(_ fractions: [Double], _ exponents: [[Int]]) -> [Double] {
        let z = fractions.map { 2 * $0 - 1 }
        return exponents.map { powers in
            var term = 1.0
            for (axis, power) in powers.enumerated() { for _ in 0..<power { term *= z[axis] } }
            return term
        }
    }

    /// The least-squares coefficients for `values` (one per node, grid order) and the
    /// residuals' mean square over the nodes' degrees of freedom (0 when none are left).
    /// - Complexity: O(nodes × terms).
    package func fit(_ values: [Double]) -> (coefficients: [Double], residualVariance: Double) {
        let coefficients = projection.map { row in zip(row, values).reduce(0) { $0 + $1.0 * $1.1 } }
        let freedom = values.count - exponents.count
        guard freedom > 0 else { return (coefficients, 0) }
        var squares = 0.0
        for (row, value) in zip(design, values) {
            let fitted = zip(row, coefficients).reduce(0) { $0 + $1.0 * $1.1 }
            squares += (value - fitted) * (value - fitted)
        }
        return (coefficients, squares / Double(freedom))
    }

    /// The surface with `coefficients` at every node, in grid order.
    /// - Complexity: O(nodes × terms).
    package func fitted(_ coefficients: [Double]) -> [Double] {
        design.map { row in zip(row, coefficients).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    /// The leverage at basis terms `basis`: the share of independent node noise the
    /// surface keeps there, bᵀ(XᵀX)⁻¹b (the terms over the nodes on average).
    /// - Complexity: O(terms × nodes).
    package func leverage(_ basis: [Double]) -> Double {
        // (XᵀX)⁻¹b = projection · (X (XᵀX)⁻¹ b)…: computed as Σ_n (projectionᵀ b)_n², since
        // the rows of the projection are (XᵀX)⁻¹Xᵀ.
        var sum = 0.0
        for node in design.indices {
            var weight = 0.0
            for term in basis.indices { weight += projection[term][node] * basis[term] }
            sum += weight * weight
        }
        return sum
    }

    /// The variance of the surface's value at `basis` as an estimate of the simulated
    /// figure there, from the nodes' own variance `nodeVariance` and the scatter about the
    /// surface `residualVariance`: node noise the nodes share (common random numbers) stays
    /// whole; noise that differs from node to node (the scatter, up to the node variance)
    /// is averaged by the fit (× leverage); scatter beyond the node variance is misfit, kept
    /// whole.
    /// - Complexity: O(terms × nodes).
    package func variance(nodeVariance: Double, residualVariance: Double, basis: [Double]) -> Double {
        let independent = min(residualVariance, nodeVariance)
        return (nodeVariance - independent) + leverage(basis) * independent + (residualVariance - independent)
    }

    /// The surface with `coefficients` at basis terms `basis`.
    /// - Complexity: O(terms).
    @inline(__always)
    package static func value(_ coefficients: [Double], _ basis: [Double]) -> Double {
        var sum = 0.0
        for index in basis.indices { sum += coefficients[index] * basis[index] }
        return sum
    }
}
