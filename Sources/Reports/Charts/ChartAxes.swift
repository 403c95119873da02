/// Axis lines, ticks, tick labels, grid lines and axis titles, shared by the charts.
package enum ChartAxes {
    /// Draws both axes of a plot area; `xGrid` adds vertical grid lines at the x ticks;
    /// the x title sits `xLabelOffset` under the plot.
    /// - Complexity: O(ticks).
    package static func draw(into svg: inout SVG, x: Axis, y: Axis, plot: (left: Double, top: Double, right: Double, bottom: Double),
                     xGrid: Bool, xLabelOffset: Double = 40) {
        svg.start("g", [("class", "grid"), ("stroke", Palette.grid), ("stroke-width", "1")])
        for tick in y.ticks {
            let at = y.position(tick.value, from: plot.bottom, to: plot.top)
            svg.element("line", [("x1", SVG.number(plot.left)), ("y1", SVG.number(at)), ("x2", SVG.number(plot.right)), ("y2", SVG.number(at))])
        }
        if xGrid {
            for tick in x.ticks {
                let at = x.position(tick.value, from: plot.left, to: plot.right)
                svg.element("line", [("x1", SVG.number(at)), ("y1", SVG.number(plot.top)), ("x2", SVG.number(at)), ("y2", SVG.number(plot.bottom))])
            }
        }
        svg.end()
        drawX(into: &svg, x, plot: plot, labelOffset: xLabelOffset)
        svg.start("g", [("class", "axis y-axis"), ("fill", Palette.axis)])
        svg.element("line", [("x1", SVG.number(plot.left)), ("y1", SVG.number(plot.top)), ("x2", SVG.number(plot.left)),
                             ("y2", SVG.number(plot.bottom)), ("stroke", Palette.axis)])
        for tick in y.ticks {
            let at = y.position(tick.value, from: plot.bottom, to: plot.top)
            svg.element("line", [("x1", SVG.number(plot.left - 5)), ("y1", SVG.number(at)), ("x2", SVG.number(plot.left)),
                                 ("y2", SVG.number(at)), ("stroke", Palette.axis)])
            svg.element("text", [("class", "tick"), ("x", SVG.number(plot.left - 8)), ("y", SVG.number(at + 4)), ("text-anchor", "end")],
                        text: tick.label)
        }
        let middle = (plot.top + plot.bottom) / 2
        svg.element("text", [("class", "axis-label"), ("x", "16"), ("y", SVG.number(middle)), ("text-anchor", "middle"),
                             ("transform", "rotate(-90 16 \(SVG.number(middle)))"), ("fill", "#222")], text: y.label)
        svg.end()
    }

    /// The x axis alone: line, ticks, labels and title (`labelOffset` under the plot).
    /// - Complexity: O(ticks).
    package static func drawX(into svg: inout SVG, _ x: Axis, plot: (left: Double, top: Double, right: Double, bottom: Double),
                      labelOffset: Double = 40) {
        svg.start("g", [("class", "axis x-axis"), ("fill", Palette.axis)])
        svg.element("line", [("x1", SVG.number(plot.left)), ("y1", SVG.number(plot.bottom)), ("x2", SVG.number(plot.right)),
                             ("y2", SVG.number(plot.bottom)), ("stroke", Palette.axis)])
        for tick in x.ticks {
            let at = x.position(tick.value, from: plot.left, to: plot.right)
            svg.element("line", [("x1", SVG.number(at)), ("y1", SVG.number(plot.bottom)), ("x2", SVG.number(at)),
                                 ("y2", SVG.number(plot.bottom + 5)), ("stroke", Palette.axis)])
            svg.element("text", [("class", "tick"), ("x", SVG.number(at)), ("y", SVG.number(plot.bottom + 18)), ("text-anchor", "middle")],
                        text: tick.label)
        }
        if !x.label.isEmpty {
            svg.element("text", [("class", "axis-label"), ("x", SVG.number((plot.left + plot.right) / 2)),
                                 ("y", SVG.number(plot.bottom + labelOffset)), ("text-anchor", "middle"), ("fill", "#222")], text: x.label)
        }
        svg.end()
    }
}
