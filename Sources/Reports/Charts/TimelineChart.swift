/// Labelled rows over a time axis, each with bars (something that lasts) and marks
/// (something that happens: a marker, or an upright tick), over shaded x-ranges that
/// run through every row (a device offline). Rows may start groups, which a little
/// space sets apart.
package struct TimelineChart {
    /// Something that lasts, from `from` to `to` in x units.
    package struct Bar {
        package var from: Double
        package var to: Double
        package var colour: String
        /// Its tooltip.
        package var note: String
        /// A thinner bar, for a second kind on the same row.
        package var thin = false

        package init(from: Double, to: Double, colour: String, note: String, thin: Bool = false) {
            self.from = from
            self.to = to
            self.colour = colour
            self.note = note
            self.thin = thin
        }
    }

    /// Something that happens at `at` in x units.
    package struct Mark {
        package var at: Double
        /// Its shape; nil: an upright tick.
        package var marker: Marker?
        package var colour: String
        /// Filled, or white inside its outline.
        package var filled: Bool
        /// Its tooltip.
        package var note: String

        package init(at: Double, marker: Marker?, colour: String, filled: Bool, note: String) {
            self.at = at
            self.marker = marker
            self.colour = colour
            self.filled = filled
            self.note = note
        }
    }

    /// One row.
    package struct Row {
        package var label: String
        package var bars: [Bar] = []
        package var marks: [Mark] = []
        /// Space above it: the first row of a group.
        package var startsGroup = false

        package init(label: String, bars: [Bar] = [], marks: [Mark] = [], startsGroup: Bool = false) {
            self.label = label
            self.bars = bars
            self.marks = marks
            self.startsGroup = startsGroup
        }
    }

    package var id: String
    /// The accessible name.
    package var title: String
    package var xAxis: Axis
    package var rows: [Row]
    /// X-ranges shaded through every row, named once in the legend by `shadedLabel`.
    package var shaded: [ClosedRange<Double>] = []
    package var shadedLabel: String?
    /// The legend's entries, before the shaded ranges' label.
    package var legendEntries: [Legend.Entry] = []
    package var width = 880.0

    package static let rowHeight = 22.0, groupGap = 12.0
    /// A mark's size (a circle's radius), in pixels.
    package static let markRadius = 3.6

    package init(id: String, title: String, xAxis: Axis, rows: [Row]) {
        self.id = id
        self.title = title
        self.xAxis = xAxis
        self.rows = rows
    }

    /// The legend: the entries given, then the shaded ranges' label.
    package var legend: Legend {
        var entries = legendEntries
        if let shadedLabel, !shaded.isEmpty { entries.append(.init(label: shadedLabel, swatch: .box(colour: Palette.shade))) }
        return Legend(entries: entries)
    }

    /// Each row's centre line, in pixels from the top.
    private func rowCentres(top: Double) -> [Double] {
        var y = top
        return rows.enumerated().map { index, row in
            if row.startsGroup && index > 0 { y += Self.groupGap }
            defer { y += Self.rowHeight }
            return y + Self.rowHeight / 2
        }
    }

    /// The plot area: left, top, right, bottom, in pixels.
    package var plot: (left: Double, top: Double, right: Double, bottom: Double) {
        let left = max(90, (rows.map { Legend.textWidth($0.label) }.max() ?? 0) + 18), right = width - 20
        let top = 16 + Double(legend.rows(width: right - left)) * 18 + 10
        let groups = rows.dropFirst().filter(\.startsGroup).count
        return (left, top, right, top + Double(rows.count) * Self.rowHeight + Double(groups) * Self.groupGap)
    }

    /// The chart's height in pixels.
    package var height: Double { plot.bottom + 52 }

    /// The chart as an SVG document.
    /// - Complexity: O(bars + marks + ticks).
    package func svg() -> String {
        let plot = plot
        func x(_ value: Double) -> Double { min(plot.right, max(plot.left, xAxis.position(value, from: plot.left, to: plot.right))) }
        var svg = SVG(width: width, height: height, id: id, title: title, kind: "timeline-chart")
        legend.draw(into: &svg, x: plot.left, y: 16, width: plot.right - plot.left)
        svg.start("g", [("class", "shaded")])
        for range in shaded where x(range.upperBound) > x(range.lowerBound) {
            svg.start("rect", [("x", SVG.number(x(range.lowerBound))), ("y", SVG.number(plot.top)),
                               ("width", SVG.number(x(range.upperBound) - x(range.lowerBound))),
                               ("height", SVG.number(plot.bottom - plot.top)), ("fill", Palette.shade)])
            if let shadedLabel { svg.element("title", text: shadedLabel) }
            svg.end()
        }
        svg.end()
        svg.start("g", [("class", "grid"), ("stroke", Palette.grid)])
        for tick in xAxis.ticks {
            let at = x(tick.value)
            svg.element("line", [("x1", SVG.number(at)), ("y1", SVG.number(plot.top)), ("x2", SVG.number(at)), ("y2", SVG.number(plot.bottom))])
        }
        svg.end()
        for (row, centre) in zip(rows, rowCentres(top: plot.top)) {
            svg.start("g", [("class", "row"), ("data-row", row.label), ("data-bars", String(row.bars.count)),
                            ("data-marks", String(row.marks.count))])
            svg.element("text", [("class", "row-label"), ("x", SVG.number(plot.left - 8)), ("y", SVG.number(centre + 4)),
                                 ("text-anchor", "end")], text: row.label)
            svg.element("line", [("x1", SVG.number(plot.left)), ("y1", SVG.number(centre)), ("x2", SVG.number(plot.right)),
                                 ("y2", SVG.number(centre)), ("stroke", Palette.grid)])
            for bar in row.bars {
                // At least a pixel wide: a notification stored for a moment still shows.
                let left = x(bar.from), width = max(1, x(bar.to) - left), half = bar.thin ? 2.5 : 5.0
                svg.start("rect", [("class", "bar"), ("x", SVG.number(left)), ("y", SVG.number(centre - half)),
                                   ("width", SVG.number(width)), ("height", SVG.number(2 * half)), ("fill", bar.colour),
                                   ("fill-opacity", "0.45"), ("stroke", bar.colour), ("stroke-width", "0.75")])
                svg.element("title", text: bar.note)
                svg.end()
            }
            for mark in row.marks {
                let at = x(mark.at)
                svg.start("g", [("class", "mark")])
                svg.element("title", text: mark.note)
                if let marker = mark.marker {
                    marker.draw(into: &svg, x: at, y: centre, radius: Self.markRadius, fill: mark.filled ? mark.colour : "#FFFFFF",
                                stroke: mark.colour)
                } else {
                    svg.element("line", [("class", "point"), ("x1", SVG.number(at)), ("y1", SVG.number(centre - 7)),
                                         ("x2", SVG.number(at)), ("y2", SVG.number(centre + 7)), ("stroke", mark.colour),
                                         ("stroke-width", "1.5")])
                }
                svg.end()
            }
            svg.end()
        }
        ChartAxes.drawX(into: &svg, xAxis, plot: plot)
        return svg.finished()
    }
}
