@testable import Reports
import Testing

/// Lines on top of each other stay visible: coincident values cluster, a coincident
/// segment is drawn in alternating dashes of its members' colours, coincident markers
/// nest, and one band stands for coincident lines.
@Suite("Coinciding lines")
struct LineChartOverlapTests {
    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// x 0…10, y 0…100 over 288 px: 2 px is 0.69 units.
    static func chart(_ series: [LineChart.Series]) -> LineChart {
        LineChart(id: "overlap", title: "overlap", xAxis: Axis(label: "x", domain: 0...10, ticks: []),
                  yAxis: Axis(label: "y", domain: 0...100, ticks: []), series: series)
    }

    /// The markup of series `label` up to its group's end.
    func group(_ label: String, in svg: String) -> String {
        svg.components(separatedBy: "data-series=\"\(label)\" data-points")[1].components(separatedBy: "</g>")[0]
    }

    @Test("values within the tolerance cluster by single linkage, in series order; a value alone is in none")
    func clusters() {
        #expect(Coincidence.clusters([(0, 50), (1, 50.5), (2, 51), (3, 60), (4, 50.2)], tolerance: 0.6) == [[0, 1, 2, 4]])
        #expect(Coincidence.clusters([(2, 10), (0, 10), (1, 30), (3, 30)], tolerance: 0) == [[0, 2], [1, 3]])
        #expect(Coincidence.clusters([(0, 10), (1, 20)], tolerance: 1).isEmpty)
        let ranks = Coincidence.ranks([(0, 5), (1, 5), (2, 9)], tolerance: 0.1)
        #expect(ranks[0]! == (0, 2) && ranks[1]! == (1, 2) && ranks[2]! == (0, 1))
    }

    @Test("three coinciding solid lines: the first drawn whole, the others each in their own slot of the dashes; markers nest, the first's largest")
    func coincidentSolidLines() throws {
        let points: [(x: Double, y: Double?)] = [(0, 50), (5, 60), (10, 55)]
        let chart = Self.chart([
            .init(label: "a", colour: "#0072B2", points: points, markers: true, marker: .square),
            .init(label: "b", colour: "#E69F00", points: points.map { ($0.x, $0.y.map { $0 + 0.3 }) }, markers: true, marker: .diamond),
            .init(label: "c", colour: "#009E73", points: points, markers: true, marker: .triangle),
            .init(label: "apart", colour: "#CC79A7", points: [(0, 10), (5, 20), (10, 30)], markers: true),
        ])
        #expect(abs(chart.coincidenceTolerance - 200.0 / 288) < 1e-9)
        let overlaps = chart.overlaps
        #expect(overlaps.segments[0].map(\.rank) == [0, 0, 0] && overlaps.segments[0][0].of == 3)
        #expect(overlaps.segments[2][0] == (2, 3))
        #expect(overlaps.segments[3][0] == (0, 1))
        #expect(overlaps.markers[1][1] == (1, 3))
        let svg = chart.svg()
        // The first line is one path; b and c draw each segment in their slot of an 18 px cycle.
        #expect(count("class=\"overlap\"", in: group("a", in: svg)) == 0)
        #expect(count("class=\"overlap\"", in: group("b", in: svg)) == 2)
        #expect(group("b", in: svg).contains("stroke-dasharray=\"6 12\" stroke-dashoffset=\"12\""))
        #expect(group("c", in: svg).contains("stroke-dasharray=\"6 12\" stroke-dashoffset=\"6\""))
        #expect(count("class=\"overlap\"", in: group("apart", in: svg)) == 0)
        // Each series its own shape; nested sizes: a square of radius 2.6 + 2 × 1.2 under b's and c's.
        #expect(group("a", in: svg).contains("<path class=\"point\""))
        #expect(count("class=\"point\"", in: group("apart", in: svg)) == 3 && group("apart", in: svg).contains("<circle class=\"point\""))
        let square = Marker.square.vertices(radius: LineChart.markerRadius + 2.4)
        #expect(abs(square[0].x + 0.89 * 5) < 1e-9)
        #expect(svg.contains("d=\"M63.55 179.55 L72.45 179.55"))
    }

    @Test("coinciding dashed lines keep their 6-on, 4-off rhythm, each dash in one member's colour")
    func coincidentDashedLines() {
        let points: [(x: Double, y: Double?)] = [(0, 50), (10, 50)]
        let svg = Self.chart([.init(label: "a", colour: "#0072B2", points: points, dashed: true),
                              .init(label: "b", colour: "#E69F00", points: points, dashed: true)]).svg()
        #expect(group("a", in: svg).contains("stroke-dasharray=\"6 14\" stroke-dashoffset=\"0\""))
        #expect(group("b", in: svg).contains("stroke-dasharray=\"6 14\" stroke-dashoffset=\"10\""))
        #expect(LineChart.dashes((0, 1), dashed: true) == nil && LineChart.dashes((0, 2), dashed: false) == nil)
    }

    @Test("one band stands for coinciding lines: the later line's band is left out where its line lies on the earlier one")
    func oneBandForCoincidentLines() {
        var first = LineChart.Series(label: "a", colour: "#0072B2", points: [(0, 50), (5, 50), (10, 70)])
        first.band = [(0, 45, 55), (5, 45, 55), (10, 65, 75)]
        var second = LineChart.Series(label: "b", colour: "#E69F00", points: [(0, 50), (5, 50), (10, 40)])
        second.band = first.band!.enumerated().map { $0.offset == 2 ? (10, 35, 45) : $0.element }
        let svg = Self.chart([first, second]).svg()
        // b lies on a from 0 to 5: its band is only the segment from 5 to 10.
        let band = svg.components(separatedBy: "class=\"band\" data-series=\"b\" d=\"")[1].components(separatedBy: "\"")[0]
        #expect(band == "M460 169.6 L852 198.4 L852 227.2 L460 198.4 Z")
        #expect(count("class=\"band\"", in: svg) == 2)
    }

    @Test("every marker shape draws one element of class point, centred on its point; the legend shows it beside the line")
    func markerShapes() {
        for marker in Marker.allCases {
            var svg = SVG(width: 10, height: 10, id: "m", title: "m", kind: "test")
            marker.draw(into: &svg, x: 5, y: 5, radius: 3, fill: "#000000", stroke: "#000000")
            #expect(count("class=\"point\"", in: svg.finished()) == 1, "\(marker)")
            let corners = marker.vertices(radius: 3)
            let centre = (corners.map(\.x).reduce(0, +) / Double(corners.count), corners.map(\.y).reduce(0, +) / Double(corners.count))
            #expect(abs(centre.0) < 0.7 && abs(centre.1) < 0.7, "\(marker)")
        }
        #expect(Set((0..<8).map { "\(Marker.series($0))" }).count == 8 && Marker.series(8) == .circle)
        let svg = Self.chart([.init(label: "a", colour: "#0072B2", points: [(0, 1)], markers: true, marker: .star)]).svg()
        #expect(count("class=\"legend-marker\"", in: svg) == 1 && count("class=\"point\"", in: svg) == 1)
    }
}
