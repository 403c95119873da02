/// A chart's key: one swatch and label per entry, in rows that wrap at the chart's width.
package struct Legend {
    /// How an entry's swatch is drawn.
    package enum Swatch {
        /// A line, solid or dashed, as the series it names, with its marker in the middle
        /// (filled on a solid line, hollow on a dashed one; nil: none).
        case line(colour: String, dashed: Bool, marker: Marker? = nil)
        /// A filled box, as a bar segment or a shaded range.
        case box(colour: String)
        /// A box shaded as a line's band is (its colour, faint), for the band it names.
        case band(colour: String)
        /// A lone mark as a timeline draws it: a marker, filled or hollow, or a short
        /// upright tick where the marker is nil.
        case mark(Marker?, colour: String, filled: Bool)
    }

    /// One entry.
    package struct Entry {
        package var label: String
        package var swatch: Swatch
        /// Starts a row of its own: keys of another kind (line styles after the strategies) read apart.
        package var newRow = false
    }

    /// The entries, in reading order.
    package var entries: [Entry]

    /// Approximate width of `text` at 12 px in a sans-serif face (0.6 em a character),
    /// enough to lay out labels without measuring them.
    /// - Complexity: O(n).
    package static func textWidth(_ text: String, size: Double = 12) -> Double { Double(text.count) * size * 0.6 }

    /// The rows the entries take within `width`.
    /// - Complexity: O(entries).
    package func rows(width: Double) -> Int { layout(width: width).last.map { $0.row + 1 } ?? 0 }

    private func layout(width: Double) -> [(entry: Entry, x: Double, row: Int)] {
        var placed: [(Entry, Double, Int)] = []
        var x = 0.0, row = 0
        for entry in entries {
            let size = 26 + Self.textWidth(entry.label) + 16
            if x > 0 && (x + size > width || entry.newRow) { x = 0; row += 1 }
            placed.append((entry, x, row))
            x += size
        }
        return placed
    }

    /// Draws the legend with its first row's centre line at `y`, from `x`, within `width`.
    /// - Complexity: O(entries).
    package func draw(into svg: inout SVG, x: Double, y: Double, width: Double) {
        svg.start("g", [("class", "legend")])
        for (entry, offset, row) in layout(width: width) {
            let left = x + offset, middle = y + Double(row) * 18
            svg.start("g", [("class", "legend-entry")])
            switch entry.swatch {
            case .line(let colour, let dashed, let marker):
                svg.element("line", [("x1", SVG.number(left)), ("y1", SVG.number(middle)),
                                     ("x2", SVG.number(left + 20)), ("y2", SVG.number(middle)),
                                     ("stroke", colour), ("stroke-width", "2.5")]
                                    + (dashed ? [("stroke-dasharray", "5 3")] : []))
                marker?.draw(into: &svg, x: left + 10, y: middle, radius: LineChart.markerRadius + 0.4,
                             fill: dashed ? "#FFFFFF" : colour, stroke: colour, role: "legend-marker")
            case .box(let colour):
                svg.element("rect", [("x", SVG.number(left + 4)), ("y", SVG.number(middle - 6)), ("width", "12"),
                                     ("height", "12"), ("fill", colour), ("stroke", Palette.axis), ("stroke-width", "0.5")])
            case .band(let colour):
                svg.element("rect", [("x", SVG.number(left + 2)), ("y", SVG.number(middle - 6)), ("width", "16"),
                                     ("height", "12"), ("fill", colour), ("fill-opacity", "0.3"), ("stroke", "none")])
            case .mark(let marker, let colour, let filled):
                if let marker {
                    marker.draw(into: &svg, x: left + 10, y: middle, radius: TimelineChart.markRadius,
                                fill: filled ? colour : "#FFFFFF", stroke: colour, role: "legend-marker")
                } else {
                    svg.element("line", [("x1", SVG.number(left + 10)), ("y1", SVG.number(middle - 6)), ("x2", SVG.number(left + 10)),
                                         ("y2", SVG.number(middle + 6)), ("stroke", colour), ("stroke-width", "1.5")])
                }
            }
            svg.element("text", [("x", SVG.number(left + 26)), ("y", SVG.number(middle + 4))], text: entry.label)
            svg.end()
        }
        svg.end()
    }
}
