/// Where a line chart's series lie on top of each other (`Coincidence`), point by point and
/// segment by segment, so that each can be drawn to show: a coincident segment in
/// alternating dashes of the members' colours, coincident markers nested (the first
/// series' largest), one shaded band for coincident lines.
extension LineChart {
    /// A place in a cluster of coincident points or segments: `rank` 0 for the first
    /// series, `of` the cluster's size (1: alone).
    package typealias Place = (rank: Int, of: Int)

    /// What the chart draws of each series where it coincides with others.
    package struct Overlaps {
        /// Per series and point (index into `points`): the marker's place among the markers
        /// of its kind (solid or dashed) at that x (present points only; an absent point is alone).
        package var markers: [[Place]]
        /// Per series and point: the place of the segment from that point to the next (when
        /// both are present) among the segments over the same x-range that coincide at
        /// both ends, solid and dashed lines apart.
        package var segments: [[Place]]
    }

    /// Values closer than this, in the y axis's data units, are drawn on top of each other:
    /// `coincidencePixels` at the chart's scale.
    /// - Complexity: O(1).
    package var coincidenceTolerance: Double {
        let plot = plot
        let height = plot.bottom - plot.top
        guard height > 0, !yAxis.logarithmic else { return 0 }
        return coincidencePixels * (yAxis.domain.upperBound - yAxis.domain.lowerBound) / height
    }

    /// The places of every series' markers and segments.
    /// - Complexity: O(series × points × log(series)).
    package var overlaps: Overlaps {
        let tolerance = coincidenceTolerance
        var markers = series.map { [Place](repeating: (0, 1), count: $0.points.count) }
        var segments = markers
        guard drawsOverlaps else { return Overlaps(markers: markers, segments: segments) }
        // The values at each x, in order of first appearance: (series, point index, y).
        var atX: [Double: [(series: Int, point: Int, y: Double)]] = [:]
        for (index, line) in series.enumerated() {
            for (point, value) in line.points.enumerated() {
                guard let y = value.y else { continue }
                atX[value.x, default: []].append((index, point, y))
            }
        }
        // Markers: among the series with markers of one kind (filled on solid lines, hollow
        // on dashed ones); a hollow marker on a filled one shows either way.
        for values in atX.values {
            for dashed in [false, true] {
                let marked = values.filter { series[$0.series].markers && series[$0.series].dashed == dashed }
                let ranks = Coincidence.ranks(marked.map { ($0.series, $0.y) }, tolerance: tolerance)
                for value in marked { markers[value.series][value.point] = ranks[value.series] ?? (0, 1) }
            }
        }
        // Each point's cluster among the lines of its kind (solid or dashed) at its x.
        var cluster = series.map { [Int](repeating: -1, count: $0.points.count) }
        var next = 0
        for values in atX.values {
            for dashed in [false, true] {
                let kind = values.filter { series[$0.series].dashed == dashed }
                let clusters = Coincidence.clusters(kind.map { ($0.series, $0.y) }, tolerance: tolerance)
                for value in kind {
                    if let found = clusters.firstIndex(where: { $0.contains(value.series) }) {
                        cluster[value.series][value.point] = next + found
                    } else {
                        cluster[value.series][value.point] = next + clusters.count + value.series
                    }
                }
                next += clusters.count + series.count
            }
        }
        // Segments coincide when they span the same x-range and share both ends' clusters.
        struct Key: Hashable { var from: Double, to: Double, start: Int, end: Int }
        var members: [Key: [(series: Int, point: Int)]] = [:]
        for (index, line) in series.enumerated() {
            for point in line.points.indices.dropLast() where line.points[point].y != nil && line.points[point + 1].y != nil {
                let key = Key(from: line.points[point].x, to: line.points[point + 1].x,
                              start: cluster[index][point], end: cluster[index][point + 1])
                members[key, default: []].append((index, point))
            }
        }
        for group in members.values where group.count > 1 {
            for (rank, member) in group.sorted(by: { $0.series < $1.series }).enumerated() {
                segments[member.series][member.point] = (rank, group.count)
            }
        }
        return Overlaps(markers: markers, segments: segments)
    }

    /// A series lying on an earlier one (the first of its cluster, drawn under it) at some
    /// x values, among the series of its kind (solid or dashed).
    package struct Coincident: Equatable {
        /// The series, and the one it lies on (indices into `series`).
        package var series: Int, under: Int
        /// The x values where it does, ascending.
        package var xs: [Double]
        /// The x values where both have a value, ascending: `xs` equal to it is "everywhere".
        package var shared: [Double]
    }

    /// Every series lying on an earlier one somewhere, in order of the series, then of the
    /// one under it.
    /// - Complexity: O(series × points × log(series)).
    package var coincidences: [Coincident] {
        let tolerance = coincidenceTolerance
        var atX: [Double: [(series: Int, y: Double)]] = [:]
        for (index, line) in series.enumerated() {
            for point in line.points { if let y = point.y { atX[point.x, default: []].append((index, y)) } }
        }
        var found: [[Int]: [Double]] = [:]
        for x in atX.keys.sorted() {
            for dashed in [false, true] {
                let values = (atX[x] ?? []).filter { series[$0.series].dashed == dashed }
                for cluster in Coincidence.clusters(values, tolerance: tolerance) {
                    for member in cluster.dropFirst() { found[[member, cluster[0]], default: []].append(x) }
                }
            }
        }
        return found.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { key in
            let present = { (index: Int) in Set(self.series[index].points.compactMap { $0.y == nil ? nil : $0.x }) }
            return Coincident(series: key[0], under: key[1], xs: found[key] ?? [],
                              shared: present(key[0]).intersection(present(key[1])).sorted())
        }
    }

    /// The dashes of a coincident segment drawn by the `place.rank`-th of `place.of`
    /// lines: each member draws one slot of a repeating cycle, so the members' colours
    /// alternate along it. A solid line's slot is 6 px (the first member draws it whole,
    /// underneath); a dashed line keeps its 6-on, 4-off rhythm, each dash in one member's
    /// colour. nil: drawn as the line itself is.
    /// - Complexity: O(1).
    package static func dashes(_ place: Place, dashed: Bool) -> (array: String, offset: String)? {
        guard place.of > 1 else { return nil }
        let (rank, count) = place
        if dashed {
            return ("6 \(10 * count - 6)", String(((count - rank) % count) * 10))
        }
        guard rank > 0 else { return nil }
        return ("6 \(6 * (count - 1))", String(((count - rank) % count) * 6))
    }
}
