/// Vertical bars in groups: one group per x category, one bar per series in each,
/// with optional value labels above the bars.
package struct GroupedBarChart {
    /// One series: a bar in every group.
    package struct Series {
        package var label: String
        package var colour: String
        /// One value per group, in data units of the y axis.
        package var values: [Double]
        /// Text above each bar (nil: none).
        package var valueLabels: [String]?
        package init(label: String, colour: String, values: [Double], valueLabels: [String]? = nil) {
            self.label = label
            self.colour = colour
            self.values = values
            self.valueLabels = valueLabels
        }
    }

    package var id: String
    package var title: String
    /// The groups' names, left to right.
    package var groups: [String]
    package var xLabel: String
    package var yAxis: Axis
    package var series: [Series]
    package var width = 880.0
    package var height = 340.0

    package var legend: Legend { Legend(entries: series.map { .init(label: $0.label, swatch: .box(colour: $0.colour)) }) }

    /// The plot area: left, top, right, bottom, in pixels.
    package var plot: (left: Double, top: Double, right: Double, bottom: Double) {
        let left = 68.0, right = width - 20
        let top = 16 + Double(legend.rows(width: right - left)) * 18 + 14
        return (left, top, right, height - 64)
    }

    /// The left edge and width of the bar of `series` in `group`, in pixels.
    /// - Complexity: O(1).
    package func bar(group: Int, series index: Int) -> (left: Double, width: Double) {
        let plot = plot
        let groupWidth = (plot.right - plot.left) / Double(max(1, groups.count))
        let barWidth = groupWidth * 0.8 / Double(max(1, series.count))
        return (plot.left + Double(group) * groupWidth + groupWidth * 0.1 + Double(index) * barWidth, barWidth)
    }

    /// The chart as an SVG document.
    /// - Complexity: O(groups × series).
    package func svg() -> String {
        let plot = plot
        var svg = SVG(width: width, height: height, id: id, title: title, kind: "grouped-bar-chart")
        legend.draw(into: &svg, x: plot.left, y: 16, width: plot.right - plot.left)
        let groupWidth = (plot.right - plot.left) / Double(max(1, groups.count))
        let categories = Axis(label: xLabel, domain: 0...Double(max(1, groups.count)), ticks: [])
        ChartAxes.draw(into: &svg, x: categories, y: yAxis, plot: plot, xGrid: false, xLabelOffset: 52)
        svg.start("g", [("class", "group-labels"), ("fill", Palette.axis)])
        for (index, group) in groups.enumerated() {
            let centre = plot.left + (Double(index) + 0.5) * groupWidth
            // Two lines when a name is wider than its group.
            let words = group.split(separator: " ").map(String.init)
            let lines = Legend.textWidth(group) > groupWidth - 4 && words.count > 1
                ? [words.dropLast().joined(separator: " "), words.last!] : [group]
            svg.start("text", [("class", "tick"), ("x", SVG.number(centre)), ("y", SVG.number(plot.bottom + 16)), ("text-anchor", "middle")])
            for (number, line) in lines.enumerated() {
                svg.element("tspan", [("x", SVG.number(centre)), ("dy", number == 0 ? "0" : "14")], text: line)
            }
            svg.end()
        }
        svg.end()
        let zero = yAxis.position(max(0, yAxis.domain.lowerBound), from: plot.bottom, to: plot.top)
        for (index, line) in series.enumerated() {
            svg.start("g", [("class", "series"), ("data-series", line.label), ("data-points", String(line.values.count))])
            for (group, value) in line.values.enumerated() where group < groups.count {
                let at = bar(group: group, series: index)
                let top = yAxis.position(value, from: plot.bottom, to: plot.top)
                svg.start("rect", [("class", "bar"), ("data-group", groups[group]), ("x", SVG.number(at.left)),
                                   ("y", SVG.number(min(top, zero))), ("width", SVG.number(at.width)),
                                   ("height", SVG.number(abs(zero - top))), ("fill", line.colour)])
                svg.element("title", text: "\(line.label), \(groups[group]): " + (line.valueLabels?[group] ?? SVG.number(value)))
                svg.end()
                if let label = line.valueLabels?[group] {
                    svg.element("text", [("class", "value"), ("x", SVG.number(at.left + at.width / 2)), ("y", SVG.number(min(top, zero) - 4)),
                                         ("text-anchor", "middle"), ("font-size", "11")], text: label)
                }
            }
            svg.end()
        }
        return svg.finished()
    }
}
