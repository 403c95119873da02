/// Horizontal bars of 100%, one per item, split into segments by category, each
/// segment labelled with its share where it is wide enough (and in its tooltip always).
package struct StackedBarChart {
    /// A kind of segment, in stacking order.
    package struct Category {
        package var label: String
        package var colour: String
    }

    /// One bar: counts per category, in `categories` order.
    package struct Bar {
        package var label: String
        package var values: [Int64]
    }

    package var id: String
    package var title: String
    package var categories: [Category]
    package var bars: [Bar]
    /// The x axis title.
    package var axisLabel = "share of messages (%)"
    package var width = 880.0

    package static let barHeight = 30.0, barGap = 14.0

    /// `value / total` as a percentage with one decimal ("12.5%"), by integer arithmetic
    /// that cannot overflow (counts read back from a file may be near 2^63 − 1).
    /// - Complexity: O(1).
    package static func share(_ value: Int64, of total: Int64) -> String {
        let percent = FixedPoint.percent(value, total, places: 1)
        return percent.isEmpty ? "–" : (value < 0 ? "-" : "") + percent + "%"
    }

    package var legend: Legend { Legend(entries: categories.map { .init(label: $0.label, swatch: .box(colour: $0.colour)) }) }

    /// The plot area: left, top, right, bottom, in pixels.
    package var plot: (left: Double, top: Double, right: Double, bottom: Double) {
        let left = max(80, (bars.map { Legend.textWidth($0.label) }.max() ?? 0) + 20), right = width - 20
        let top = 16 + Double(legend.rows(width: right - left)) * 18 + 8
        return (left, top, right, top + Double(bars.count) * (Self.barHeight + Self.barGap))
    }

    /// The chart's height in pixels.
    package var height: Double { plot.bottom + 52 }

    /// The chart as an SVG document.
    /// - Complexity: O(bars × categories).
    package func svg() -> String {
        let plot = plot
        var svg = SVG(width: width, height: height, id: id, title: title, kind: "stacked-bar-chart")
        legend.draw(into: &svg, x: plot.left, y: 16, width: plot.right - plot.left)
        let axis = Axis.linear(axisLabel, covering: 0...100, count: 5)
        svg.start("g", [("class", "grid"), ("stroke", Palette.grid)])
        for tick in axis.ticks {
            let at = axis.position(tick.value, from: plot.left, to: plot.right)
            svg.element("line", [("x1", SVG.number(at)), ("y1", SVG.number(plot.top)), ("x2", SVG.number(at)), ("y2", SVG.number(plot.bottom))])
        }
        svg.end()
        for (row, bar) in bars.enumerated() {
            let total = bar.values.reduce(0, +)
            let top = plot.top + Self.barGap / 2 + Double(row) * (Self.barHeight + Self.barGap)
            svg.start("g", [("class", "bar"), ("data-bar", bar.label), ("data-segments", String(bar.values.filter { $0 > 0 }.count))])
            svg.element("text", [("class", "bar-label"), ("x", SVG.number(plot.left - 8)), ("y", SVG.number(top + Self.barHeight / 2 + 4)),
                                 ("text-anchor", "end")], text: bar.label)
            var before: Int64 = 0
            for (category, value) in zip(categories, bar.values) where value > 0 && total > 0 {
                let left = axis.position(100 * Double(before) / Double(total), from: plot.left, to: plot.right)
                before += value
                let right = axis.position(100 * Double(before) / Double(total), from: plot.left, to: plot.right)
                let share = Self.share(value, of: total)
                svg.start("rect", [("class", "segment"), ("data-category", category.label), ("data-value", String(value)),
                                   ("x", SVG.number(left)), ("y", SVG.number(top)), ("width", SVG.number(right - left)),
                                   ("height", SVG.number(Self.barHeight)), ("fill", category.colour),
                                   ("stroke", "#FFFFFF"), ("stroke-width", "0.75")])
                svg.element("title", text: "\(bar.label): \(category.label) \(value) (\(share))")
                svg.end()
                if right - left >= Legend.textWidth(share, size: 11) + 6 {
                    svg.element("text", [("class", "share"), ("x", SVG.number((left + right) / 2)),
                                         ("y", SVG.number(top + Self.barHeight / 2 + 4)), ("text-anchor", "middle"),
                                         ("font-size", "11"), ("fill", Palette.text(on: category.colour))], text: share)
                }
            }
            svg.end()
        }
        ChartAxes.drawX(into: &svg, axis, plot: plot)
        return svg.finished()
    }
}
