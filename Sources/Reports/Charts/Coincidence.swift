/// Lines that lie on top of each other: at one x, series whose values are within a
/// tolerance of each other form a cluster (linked pairwise: a within tolerance of b, b of
/// c). A chart draws a cluster's members so that each still shows (`LineChart`), and a
/// page can say which coincide.
package enum Coincidence {
    /// One series' value at an x: its index among the chart's series and its value.
    package typealias Value = (series: Int, y: Double)

    /// The clusters of two or more among `values`, each as series indices in ascending
    /// order, clusters ordered by their first member. A series alone is in none.
    /// - Complexity: O(n log n) in the values.
    package static func clusters(_ values: [Value], tolerance: Double) -> [[Int]] {
        // Sorted by value, neighbours within the tolerance link: single linkage in one pass.
        let sorted = values.sorted { $0.y != $1.y ? $0.y < $1.y : $0.series < $1.series }
        var clusters: [[Int]] = []
        var current: [Int] = []
        for (index, value) in sorted.enumerated() {
            if index > 0 && value.y - sorted[index - 1].y > tolerance {
                if current.count > 1 { clusters.append(current.sorted()) }
                current = []
            }
            current.append(value.series)
        }
        if current.count > 1 { clusters.append(current.sorted()) }
        return clusters.sorted { $0[0] < $1[0] }
    }

    /// Each value's place in its cluster: its rank (0 for the first series) and the
    /// cluster's size; (0, 1) for a value alone.
    /// - Complexity: O(n log n) in the values.
    package static func ranks(_ values: [Value], tolerance: Double) -> [Int: (rank: Int, of: Int)] {
        var ranks: [Int: (rank: Int, of: Int)] = [:]
        for value in values { ranks[value.series] = (0, 1) }
        for cluster in clusters(values, tolerance: tolerance) {
            for (rank, series) in cluster.enumerated() { ranks[series] = (rank, cluster.count) }
        }
        return ranks
    }
}
