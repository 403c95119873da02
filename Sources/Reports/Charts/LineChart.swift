/// Lines over a linear or logarithmic x axis: solid or dashed series, optional markers,
/// an optional shaded band or error bars around a series (a confidence interval), shaded x-ranges
/// (weekends) and labelled reference lines.
package struct LineChart {
    /// One line.
    package struct Series {
        /// Its legend label.
        package var label: String
        /// Its colour (`#RRGGBB`).
        package var colour: String
        /// Its points in data units, in x order; a nil y is a gap (the line breaks there).
        package var points: [(x: Double, y: Double?)]
        /// Dashed instead of solid.
        package var dashed = false
        /// A marker on every point.
        package var markers = false
        /// The markers' shape: filled on a solid line, hollow on a dashed one.
        package var marker = Marker.circle
        /// A shaded band drawn behind the line (e.g. a 95% interval), when given.
        package var band: [(x: Double, lower: Double, upper: Double)]?

        package init(label: String, colour: String, points: [(x: Double, y: Double?)], dashed: Bool = false,
                     markers: Bool = false, marker: Marker = .circle, band: [(x: Double, lower: Double, upper: Double)]? = nil) {
            self.label = label
            self.colour = colour
            self.points = points
            self.dashed = dashed
            self.markers = markers
            self.marker = marker
            self.band = band
        }

        package init(label: String, colour: String, points: [(x: Double, y: Double?)], dashed: Bool = false,
                     markers: Bool = false, band: [(x: Double, lower: Double, upper: Double)]? = nil,
                     errorBars: [(x: Double, lower: Double, upper: Double)]) {
            self.init(label: label, colour: colour, points: points, dashed: dashed, markers: markers, band: band)
            self.errorBars = errorBars
        }

        /// Vertical error bars with caps (e.g. value ± 1.96 SE), one per entry.
        package var errorBars: [(x: Double, lower: Double, upper: Double)] = []
    }

    /// Ids inside the SVG start with it; unique on a page.
    package var id: String
    /// The accessible name.
    package var title: String
    package var xAxis: Axis
    package var yAxis: Axis
    package var series: [Series]
    /// X-ranges shaded behind the data, named once in the legend by `shadedLabel`.
    package var shaded: [ClosedRange<Double>] = []
    package var shadedLabel: String?
    /// Dotted vertical lines with a label at the top (e.g. 1 min, 1 h).
    package var references: [Tick] = []
    /// Overall size in pixels.
    package var width = 880.0
    package var height = 380.0
    /// The legend's entries when the series' own would not say it best (nil: one per series).
    package var legendEntries: [Legend.Entry]?
    /// Values closer than this many pixels are drawn as coinciding (`overlaps`): about a
    /// line's width, where one line would hide the other.
    package var coincidencePixels = 2.0
    /// Draws coinciding lines in alternating dashes and nested markers (`overlaps`); false:
    /// each line as it is, later ones over earlier ones (for a chart whose lines are each
    /// shown apart elsewhere, or whose segments are too short for dashes).
    package var drawsOverlaps = true
    /// The legend's height in rows at least: charts set side by side keep their plots level.
    package var legendRows = 0

    package init(id: String, title: String, xAxis: Axis, yAxis: Axis, series: [Series],
                 shaded: [ClosedRange<Double>] = [], shadedLabel: String? = nil, references: [Tick] = [],
                 width: Double = 880.0, height: Double = 380.0) {
        self.id = id
        self.title = title
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
        self.shaded = shaded
        self.shadedLabel = shadedLabel
        self.references = references
        self.width = width
        self.height = height
    }

    /// The legend: `legendEntries`, or one entry per series; then the shaded ranges' label.
    package var legend: Legend {
        var entries = legendEntries ?? series.map {
            Legend.Entry(label: $0.label, swatch: .line(colour: $0.colour, dashed: $0.dashed, marker: $0.markers ? $0.marker : nil))
        }
        if let shadedLabel, !shaded.isEmpty { entries.append(.init(label: shadedLabel, swatch: .box(colour: Palette.shade))) }
        return Legend(entries: entries)
    }

    /// `charts` with their legends as tall as the tallest one's, so their plots sit level
    /// when set side by side.
    /// - Complexity: O(charts × legend entries).
    package static func levelled(_ charts: [LineChart]) -> [LineChart] {
        let rows = charts.map { $0.legend.rows(width: $0.width - 68 - 28) }.max() ?? 0
        return charts.map { chart in
            var chart = chart
            chart.legendRows = max(chart.legendRows, rows)
            return chart
        }
    }

    /// The plot area: left, top, right, bottom, in pixels.
    package var plot: (left: Double, top: Double, right: Double, bottom: Double) {
        // `levelled` takes the legend's width from these margins.
        let left = 68.0, right = width - 28
        let top = 16 + Double(max(legendRows, legend.rows(width: right - left))) * 18 + 6
        return (left, top, right, height - 52)
    }

    /// A lone marker's size (a circle's radius), in pixels.
    package static let markerRadius = 2.6

    /// The pixel position of a data point.
    /// - Complexity: O(1).
    package func position(x: Double, y: Double) -> (x: Double, y: Double) {
        let plot = plot
        return (xAxis.position(x, from: plot.left, to: plot.right), yAxis.position(y, from: plot.bottom, to: plot.top))
    }

    /// The chart as an SVG document.
    /// - Complexity: O(points + ticks).
    package func svg() -> String {
        let plot = plot
        var svg = SVG(width: width, height: height, id: id, title: title, kind: "line-chart")
        legend.draw(into: &svg, x: plot.left, y: 16, width: plot.right - plot.left)
        drawShaded(into: &svg, plot: plot)
        ChartAxes.draw(into: &svg, x: xAxis, y: yAxis, plot: plot, xGrid: true)
        drawReferences(into: &svg, plot: plot)
        let overlaps = overlaps
        for (index, line) in series.enumerated() { drawBand(of: line, index, into: &svg, overlaps: overlaps) }
        for (index, line) in series.enumerated() {
            let present = line.points.compactMap { point in point.y.map { (point.x, $0) } }
            svg.start("g", [("class", "series"), ("data-series", line.label), ("data-points", String(present.count))])
            drawLine(line, index, into: &svg, overlaps: overlaps)
            drawErrorBars(of: line, into: &svg)
            if line.markers { drawMarkers(of: line, index, into: &svg, overlaps: overlaps) }
            svg.end()
        }
        return svg.finished()
    }

    /// The shaded x-ranges, clipped to the plot.
    private func drawShaded(into svg: inout SVG, plot: (left: Double, top: Double, right: Double, bottom: Double)) {
        svg.start("g", [("class", "shaded")])
        for range in shaded {
            let low = xAxis.position(range.lowerBound, from: plot.left, to: plot.right)
            let high = xAxis.position(range.upperBound, from: plot.left, to: plot.right)
            let left = max(plot.left, min(low, high)), right = min(plot.right, max(low, high))
            guard right > left else { continue }
            svg.element("rect", [("x", SVG.number(left)), ("y", SVG.number(plot.top)), ("width", SVG.number(right - left)),
                                 ("height", SVG.number(plot.bottom - plot.top)), ("fill", Palette.shade)])
        }
        svg.end()
    }

    /// The reference lines within the x axis's domain, each with its label.
    private func drawReferences(into svg: inout SVG, plot: (left: Double, top: Double, right: Double, bottom: Double)) {
        svg.start("g", [("class", "references")])
        for reference in references where xAxis.domain.contains(reference.value) {
            let x = xAxis.position(reference.value, from: plot.left, to: plot.right)
            svg.element("line", [("x1", SVG.number(x)), ("y1", SVG.number(plot.top)), ("x2", SVG.number(x)),
                                 ("y2", SVG.number(plot.bottom)), ("stroke", Palette.axis), ("stroke-dasharray", "1 3")])
            // Labelled at the foot of its line (curves rising to 100% leave it free), on the
            // right, or on the left where it would leave the plot.
            let fits = x + 3 + Legend.textWidth(reference.label) <= plot.right
            svg.element("text", [("x", SVG.number(fits ? x + 3 : x - 3)), ("y", SVG.number(plot.bottom - 6)),
                                 ("text-anchor", fits ? "start" : "end"), ("fill", Palette.axis)], text: reference.label)
        }
        svg.end()
    }

    /// The band behind series `index`, when it has one, broken where the line lies under an
    /// earlier one: there the earlier's band stands for both, for bands of several colours
    /// over each other would mix into a colour of none.
    private func drawBand(of line: Series, _ index: Int, into svg: inout SVG, overlaps: Overlaps) {
        guard let band = line.band, !band.isEmpty else { return }
        var segmentPlace: [Double: Place] = [:]
        for point in line.points.indices.dropLast() where line.points[point].y != nil {
            segmentPlace[line.points[point].x] = overlaps.segments[index][point]
        }
        var runs: [[(x: Double, lower: Double, upper: Double)]] = [[]]
        for (offset, entry) in band.enumerated() {
            runs[runs.count - 1].append(entry)
            if offset + 1 < band.count, (segmentPlace[entry.x]?.rank ?? 0) > 0 { runs.append([]) }
        }
        let outlines = runs.filter { $0.count > 1 }.map { run in
            let upper = run.map { position(x: $0.x, y: $0.upper) }, lower = run.reversed().map { position(x: $0.x, y: $0.lower) }
            return (upper + lower).enumerated().map { ($0.offset == 0 ? "M" : "L") + SVG.number($0.element.x) + " " + SVG.number($0.element.y) }
                .joined(separator: " ") + " Z"
        }
        guard !outlines.isEmpty else { return }
        svg.element("path", [("class", "band"), ("data-series", line.label), ("d", outlines.joined(separator: " ")),
                             ("fill", line.colour), ("fill-opacity", "0.18"), ("stroke", "none")])
    }

    /// Series `index`'s line, less the segments it draws in a coincident member's dashes,
    /// then those segments, one element each: each starts its dashes at the segment's
    /// start, as its fellow members' do, so the slots interleave.
    private func drawLine(_ line: Series, _ index: Int, into svg: inout SVG, overlaps: Overlaps) {
        var path = "", penDown = false
        var shared: [(from: (x: Double, y: Double), to: (x: Double, y: Double), dashes: (array: String, offset: String))] = []
        for (point, value) in line.points.enumerated() {
            guard let y = value.y else { penDown = false; continue }
            let at = position(x: value.x, y: y)
            path += (path.isEmpty ? "" : " ") + (penDown ? "L" : "M") + SVG.number(at.x) + " " + SVG.number(at.y)
            penDown = true
            if point + 1 < line.points.count, let nextY = line.points[point + 1].y,
               let dashes = Self.dashes(overlaps.segments[index][point], dashed: line.dashed) {
                shared.append((at, position(x: line.points[point + 1].x, y: nextY), dashes))
                penDown = false
            }
        }
        let stroke = [("fill", "none"), ("stroke", line.colour), ("stroke-width", "2"), ("stroke-linejoin", "round")]
        if path.contains("L") {
            svg.element("path", [("d", path)] + stroke + [("stroke-linecap", "round")]
                                + (line.dashed ? [("stroke-dasharray", "6 4")] : []))
        }
        for segment in shared {
            svg.element("path", [("class", "overlap"),
                                 ("d", "M" + SVG.number(segment.from.x) + " " + SVG.number(segment.from.y)
                                      + " L" + SVG.number(segment.to.x) + " " + SVG.number(segment.to.y))]
                                + stroke + [("stroke-linecap", "butt"), ("stroke-dasharray", segment.dashes.array),
                                            ("stroke-dashoffset", segment.dashes.offset)])
        }
    }

    /// The series' error bars, when it has any: under the markers; a cap 3 px each side, so
    /// neighbouring points stay apart.
    private func drawErrorBars(of line: Series, into svg: inout SVG) {
        guard !line.errorBars.isEmpty else { return }
        svg.start("g", [("class", "error-bars"), ("data-bars", String(line.errorBars.count))])
        for bar in line.errorBars {
            let low = position(x: bar.x, y: bar.lower), high = position(x: bar.x, y: bar.upper)
            let x = SVG.number(low.x), left = SVG.number(low.x - 3), right = SVG.number(low.x + 3)
            let path = "M\(x) \(SVG.number(low.y)) L\(x) \(SVG.number(high.y)) M\(left) \(SVG.number(low.y)) L\(right) "
                + "\(SVG.number(low.y)) M\(left) \(SVG.number(high.y)) L\(right) \(SVG.number(high.y))"
            svg.element("path", [("class", "error-bar"), ("d", path), ("fill", "none"), ("stroke", line.colour),
                                 ("stroke-width", "1.2")])
        }
        svg.end()
    }

    /// Series `index`'s markers, nested where markers coincide: the first series' largest,
    /// under the others.
    private func drawMarkers(of line: Series, _ index: Int, into svg: inout SVG, overlaps: Overlaps) {
        for (point, value) in line.points.enumerated() {
            guard let y = value.y else { continue }
            let at = position(x: value.x, y: y)
            let place = overlaps.markers[index][point]
            line.marker.draw(into: &svg, x: at.x, y: at.y, radius: Self.markerRadius + 1.2 * Double(place.of - 1 - place.rank),
                             fill: line.dashed ? "#FFFFFF" : line.colour, stroke: line.colour)
        }
    }
}
