@testable import Reports
import Testing

/// The SVG charts on their own: escaping, number writing, tick choice, where known
/// points land, and what each chart draws.
@Suite("SVG charts")
struct ChartsTests {
    /// Occurrences of `needle` in `text`.
    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("text and attribute values are escaped: & < > \" ' never reach the document raw")
    func escaping() {
        #expect(SVG.escape("a <b> & \"c\" 'd'") == "a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;")
        #expect(SVG.escape("plain — ünïcode") == "plain — ünïcode")
        let chart = LineChart(id: "x", title: "t <script>alert(1)</script>", xAxis: .linear("x & y", covering: 0...1),
                              yAxis: .linear("\"quoted\"", covering: 0...1),
                              series: [.init(label: "<b>label</b>", colour: "#000000", points: [(0, 0), (1, 1)])])
        let svg = chart.svg()
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("t &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(svg.contains(">x &amp; y</text>"))
        #expect(svg.contains(">&quot;quoted&quot;</text>"))
        #expect(svg.contains("data-series=\"&lt;b&gt;label&lt;/b&gt;\""))
    }

    @Test("numbers are written with at most two decimals, rounded half away from zero, without trailing zeros")
    func numbers() {
        #expect(SVG.number(12) == "12")
        #expect(SVG.number(3.456) == "3.46")
        #expect(SVG.number(0.125) == "0.13")
        #expect(SVG.number(-2.5) == "-2.5")
        #expect(SVG.number(-0.001) == "0")
        #expect(SVG.number(.nan) == "0")
        #expect(SVG.number(.infinity) == "0")
    }

    @Test("linear ticks fall on round steps (1, 2 or 5 × 10^k) and the axis widens to the ticks around the data")
    func linearTicks() {
        #expect(Ticks.step(for: 0...100, count: 5) == 20)
        #expect(Ticks.step(for: 0...1, count: 5) == 0.2)
        #expect(Ticks.step(for: 83.4...100, count: 5) == 5)
        #expect(Ticks.step(for: 0...0.09, count: 5) == 0.02)
        #expect(Ticks.step(for: 0...0.07, count: 5) == 0.01)
        let axis = Axis.linear("deliverability (%)", covering: 83.4...100)
        #expect(axis.domain == 80...100)
        #expect(axis.ticks.map(\.label) == ["80", "85", "90", "95", "100"])
        #expect(Axis.linear("share", covering: 0...0.09).ticks.map(\.label) == ["0.00", "0.02", "0.04", "0.06", "0.08", "0.10"])
        #expect(Ticks.label(0.5, step: 0.5) == "0.5")
        #expect(Ticks.label(96, step: 2) == "96")
    }

    @Test("a log axis spans whole decades around the data, labelled 0.01 … 1000 and as powers of ten beyond")
    func logTicks() {
        #expect(Ticks.decades(covering: 0.03...2000) == [0.01, 0.1, 1, 10, 100, 1000, 10000])
        #expect(Ticks.decades(covering: 1...1) == [1, 10])
        let axis = Axis.logarithmic("s", covering: 0.000002...300)
        #expect(axis.ticks.map(\.label) == ["10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³", "0.01", "0.1", "1", "10", "100", "1000"])
        #expect(axis.logarithmic)
        // 10 is half-way between 1 and 100 on a log axis.
        let decades = Axis.logarithmic("s", covering: 1...100)
        #expect(decades.position(10, from: 0, to: 200) == 100)
        #expect(decades.position(1, from: 0, to: 200) == 0)
    }

    /// One series of two points over 0…10 × 0…100, on the default 880 × 380 chart.
    static func simpleChart(_ series: [LineChart.Series]) -> LineChart {
        LineChart(id: "simple", title: "simple", xAxis: Axis(label: "x", domain: 0...10, ticks: []),
                  yAxis: Axis(label: "y", domain: 0...100, ticks: []), series: series)
    }

    @Test("a known point lands where the plot's geometry puts it: (5, 50) in the middle, (10, 100) at the top right")
    func coordinatesOfKnownPoints() {
        let chart = Self.simpleChart([.init(label: "a", colour: "#0072B2", points: [(5, 50), (10, 100)])])
        // Plot: left 68, right 880 − 28 = 852; top 16 + one legend row (18) + 6 = 40; bottom 380 − 52 = 328.
        #expect(chart.plot.left == 68 && chart.plot.right == 852 && chart.plot.top == 40 && chart.plot.bottom == 328)
        #expect(chart.position(x: 5, y: 50) == (460, 184))
        #expect(chart.svg().contains("d=\"M460 184 L852 40\""))
    }

    @Test("one group per series with its point count; a missing value breaks the line; dashes and markers as asked")
    func seriesAndPoints() {
        let chart = Self.simpleChart([
            .init(label: "solid", colour: "#0072B2", points: [(0, 10), (1, 20), (2, nil), (3, 40)], markers: true),
            .init(label: "dashed", colour: "#E69F00", points: [(0, 5), (1, 6)], dashed: true),
        ])
        let svg = chart.svg()
        #expect(count("class=\"series\"", in: svg) == 2)
        #expect(svg.contains("data-series=\"solid\" data-points=\"3\""))
        #expect(svg.contains("data-series=\"dashed\" data-points=\"2\""))
        // Markers only on the series that asks for them: three present points.
        #expect(count("class=\"point\"", in: svg) == 3)
        // The gap at x = 2 starts a second sub-path.
        let solidPath = svg.components(separatedBy: "data-series=\"solid\"")[1].components(separatedBy: "</g>")[0]
        #expect(count("M", in: solidPath.components(separatedBy: "d=\"")[1].components(separatedBy: "\"")[0]) == 2)
        #expect(count("stroke-dasharray=\"6 4\"", in: svg) == 1)
        #expect(!svg.contains("<script"))
    }

    @Test("a band is drawn behind its series only when given; shaded x-ranges are drawn and named in the legend")
    func bandsAndShading() {
        var series = LineChart.Series(label: "a", colour: "#0072B2", points: [(0, 50), (10, 60)])
        #expect(!Self.simpleChart([series]).svg().contains("class=\"band\""))
        series.band = [(0, 40, 60), (10, 50, 70)]
        var chart = Self.simpleChart([series])
        chart.shaded = [4.5...6.5, 8.5...9.5]
        chart.shadedLabel = "weekend"
        let svg = chart.svg()
        #expect(count("class=\"band\"", in: svg) == 1)
        // Upper edge left to right, lower edge back: (0, 60) → (68, 155.2), (10, 70), (10, 50), (0, 40).
        #expect(svg.contains("d=\"M68 155.2 L852 126.4 L852 184 L68 212.8 Z\""))
        let shaded = svg.components(separatedBy: "<g class=\"shaded\">")[1].components(separatedBy: "</g>")[0]
        #expect(count("<rect", in: shaded) == 2)
        #expect(svg.contains(">weekend</text>"))
    }

    @Test("error bars: one vertical bar with caps per entry, from lower to upper at the point's x, none when not given")
    func errorBars() {
        var series = LineChart.Series(label: "a", colour: "#0072B2", points: [(5, 50), (10, 90)], markers: true)
        #expect(!Self.simpleChart([series]).svg().contains("error-bar"))
        series.errorBars = [(5, 40, 60), (10, 85, 95)]
        let svg = Self.simpleChart([series]).svg()
        #expect(svg.contains("<g class=\"error-bars\" data-bars=\"2\">"))
        #expect(count("class=\"error-bar\"", in: svg) == 2)
        // x 5 → 460 px; y 40 → 328 − 0.4 × 288 = 212.8, y 60 → 155.2; caps 3 px each side.
        #expect(svg.contains("d=\"M460 212.8 L460 155.2 M457 212.8 L463 212.8 M457 155.2 L463 155.2\""))
        // Inside the series' group, before its markers (so the dots sit on top).
        let group = svg.components(separatedBy: "data-series=\"a\"")[1]
        let bars = group.range(of: "error-bars"), marker = group.range(of: "class=\"point\"")
        #expect(bars != nil && marker != nil && bars!.lowerBound < marker!.lowerBound)
    }

    @Test("stacked bars: one bar per item, a segment per non-zero count, shares labelled where they fit and in every tooltip")
    func stackedBars() {
        let chart = StackedBarChart(id: "outcomes", title: "outcomes",
                                    categories: [.init(label: "delivered", colour: Palette.delivered),
                                                 .init(label: "lost", colour: "#D55E00"),
                                                 .init(label: "pending", colour: Palette.pending)],
                                    bars: [.init(label: "a", values: [750, 250, 0]), .init(label: "b", values: [998, 1, 1])])
        let svg = chart.svg()
        #expect(count("<g class=\"bar\"", in: svg) == 2)
        #expect(count("class=\"segment\"", in: svg) == 5)
        #expect(svg.contains(">75.0%</text>") && svg.contains(">25.0%</text>") && svg.contains(">99.8%</text>"))
        // 0.1% of the bar is under a pixel wide: no label inside, but its tooltip has it.
        #expect(!svg.contains(">0.1%</text>"))
        #expect(svg.contains("<title>b: lost 1 (0.1%)</title>"))
        #expect(StackedBarChart.share(1, of: 3) == "33.3%")
        #expect(StackedBarChart.share(2, of: 3) == "66.7%")
        #expect(StackedBarChart.share(0, of: 0) == "–")
    }

    @Test("grouped bars: one bar per series in every group, heights from the y axis, value labels when given")
    func groupedBars() {
        let chart = GroupedBarChart(id: "cost", title: "cost", groups: ["pushes", "re-requests"], xLabel: "",
                                    yAxis: Axis(label: "per message", domain: 0...2, ticks: []),
                                    series: [.init(label: "a", colour: "#0072B2", values: [1, 0.5], valueLabels: ["1.000", "0.500"]),
                                             .init(label: "b", colour: "#E69F00", values: [2, 0], valueLabels: nil)])
        let svg = chart.svg()
        #expect(count("class=\"bar\"", in: svg) == 4)
        #expect(count("class=\"series\"", in: svg) == 2)
        #expect(svg.contains(">1.000</text>") && svg.contains(">0.500</text>"))
        #expect(count("class=\"value\"", in: svg) == 2)
        // Series b's first bar reaches the top of the plot: its height is the plot's.
        let plot = chart.plot
        let first = chart.bar(group: 0, series: 1)
        #expect(svg.contains("x=\"\(SVG.number(first.left))\" y=\"\(SVG.number(plot.top))\" width=\"\(SVG.number(first.width))\" height=\"\(SVG.number(plot.bottom - plot.top))\""))
    }

    @Test("labels on a colour are black or white by its luminance")
    func textOnColour() {
        #expect(Palette.text(on: "#0072B2") == "#FFFFFF")
        #expect(Palette.text(on: "#F0E442") == "#000000")
        #expect(Palette.text(on: "#000000") == "#FFFFFF")
    }
}
