import FoundationEssentials
import Glibc

/// Linear algebra on the fit's small square matrices (one row per measured figure, four
/// at most): no library for sizes this small.
package enum SmallMatrix {
    /// Solves `matrix` · x = `right` (row-major, `right.count` rows) by elimination with
    /// partial pivoting; returns x and log |det matrix|. A singular matrix gives non-finite values.
    /// - Complexity: O(n³).
    package static func solve(_ matrix: [Double], _ right: [Double]) -> (solution: [Double], logDeterminant: Double) {
        let size = right.count
        precondition(matrix.count == size * size, "a square matrix of the right's size")
        var matrix = matrix, right = right
        var logDeterminant = 0.0
        for pivot in 0..<size {
            var best = pivot
            for row in pivot..<size where abs(matrix[row * size + pivot]) > abs(matrix[best * size + pivot]) { best = row }
            if best != pivot {
                for column in 0..<size { matrix.swapAt(pivot * size + column, best * size + column) }
                right.swapAt(pivot, best)
            }
            let diagonal = matrix[pivot * size + pivot]
            logDeterminant += log(abs(diagonal))
            for row in (pivot + 1)..<Swift.max(size, pivot + 1) {
                let factor = matrix[row * size + pivot] / diagonal
                for column in pivot..<size { matrix[row * size + column] -= factor * matrix[pivot * size + column] }
                right[row] -= factor * right[pivot]
            }
        }
        var solution = [Double](repeating: 0, count: size)
        for row in (0..<size).reversed() {
            var value = right[row]
            for column in (row + 1)..<Swift.max(size, row + 1) { value -= matrix[row * size + column] * solution[column] }
            solution[row] = value / matrix[row * size + row]
        }
        return (solution, logDeterminant)
    }

    /// The inverse of `matrix` (row-major, `size` × `size`) and log |det matrix|.
    /// - Complexity: O(n⁴) (n solves): for n ≤ 4.
    package static func inverse(_ matrix: [Double], size: Int) -> (inverse: [Double], logDeterminant: Double) {
        var inverse = [Double](repeating: 0, count: size * size)
        var logDeterminant = 0.0
        for column in 0..<size {
            let (solution, determinant) = solve(matrix, (0..<size).map { $0 == column ? 1 : 0 })
            for row in 0..<size { inverse[row * size + column] = solution[row] }
            logDeterminant = determinant
        }
        return (inverse, logDeterminant)
    }

    /// Whether the symmetric `matrix` (`size` × `size`) is positive semidefinite: its Cholesky
    /// factorisation goes through, pivots down to −`tolerance` × the largest diagonal taken as 0.
    /// - Complexity: O(n³).
    package static func isPositiveSemidefinite(_ matrix: [Double], size: Int, tolerance: Double = 1e-12) -> Bool {
        let scale = (0..<size).map { matrix[$0 * size + $0] }.max() ?? 0
        var factor = [Double](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0...row {
                var value = matrix[row * size + column]
                for k in 0..<column { value -= factor[row * size + k] * factor[column * size + k] }
                if row == column {
                    guard value >= -tolerance * scale else { return false }
                    factor[row * size + row] = Swift.max(value, 0).squareRoot()
                } else {
                    let pivot = factor[column * size + column]
                    // A zero pivot: the column is 0 in a semidefinite matrix, so must this be.
                    if pivot == 0 {
                        guard abs(value) <= tolerance * scale else { return false }
                        factor[row * size + column] = 0
                    } else {
                        factor[row * size + column] = value / pivot
                    }
                }
            }
        }
        return true
    }

    /// `matrix` (symmetric, `size` × `size`) with its off-diagonal elements shrunk toward 0 by
    /// steps of 10% until it is positive semidefinite (its diagonal alone is, when non-negative).
    /// - Complexity: O(n³) per step, 22 steps at most.
    package static func shrunkToSemidefinite(_ matrix: [Double], size: Int) -> [Double] {
        var shrunk = matrix
        for _ in 0..<22 where !isPositiveSemidefinite(shrunk, size: size) {
            for row in 0..<size {
                for column in 0..<size where row != column { shrunk[row * size + column] *= 0.9 }
            }
        }
        if !isPositiveSemidefinite(shrunk, size: size) {
            for row in 0..<size {
                for column in 0..<size where row != column { shrunk[row * size + column] = 0 }
            }
        }
        return shrunk
    }
}
