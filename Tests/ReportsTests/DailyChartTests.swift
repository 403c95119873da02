@testable import Base
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// The daily chart a person can read: strategies whose lines coincide stay visible and
/// are named under the chart, the truncated last day's measured figure neither draws nor
/// stretches the axis, and a long description is folded.
@Suite("Daily chart and page header")
struct DailyChartTests {
    /// Nine days from a Monday, 40 devices that launch the app; `queue-again` is `queue`
    /// under another label, so its lines coincide with queue's on every day.
    static func scenario(description: String = "A small run") throws -> Scenario {
        try ScenarioDecoder.decode(Array("""
        { "name": "daily", "description": "\(description)", "seed": 3, "start": "2026-03-02",
          "duration": "9d", "devices": 40, "mail": { "perDay": 30 },
          "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                            "offline": { "distribution": "exponential", "mean": "40m" } },
          "device": { "launches": { "perDay": 6 } },
          "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 },
                         { "name": "queue", "repeatMaxCount": 4, "label": "queue-again" }] }
        """.utf8), file: "daily.json")
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("coinciding strategies stay distinct: each its own marker, the later drawn in dashes over the earlier, one band, and each its own difference chart instead of a paragraph naming them")
    func coincidingStrategiesAreDistinct() throws {
        let scenario = try Self.scenario()
        let result = try Simulation.run(scenario, threads: 2)
        #expect(result.aggregates[1] == result.aggregates[2])
        let chart = ReportCharts.dailyDeliverability(scenario: scenario, result: result, bands: ReportPage.dailyBands(result))
        let trueLines = stride(from: 0, to: chart.series.count, by: 2).map { chart.series[$0] }
        #expect(Set(trueLines.map { "\($0.marker)" }).count == 3)
        #expect(chart.series[5].marker == chart.series[4].marker && chart.series[5].dashed)
        let svg = chart.svg()
        let again = svg.components(separatedBy: "data-series=\"queue-again\" data-points")[1].components(separatedBy: "</g>")[0]
        #expect(count("class=\"overlap\"", in: again) == scenario.dayCount - 1)
        // One band for queue and queue-again, none mixed.
        #expect(count("class=\"band\"", in: svg) == 2)
        #expect(!svg.contains("class=\"band\" data-series=\"queue-again\""))
        // No paragraph says which line hides which: each strategy after the first has its own chart.
        let html = ReportPage.render(scenario: scenario, result: result, commandLine: nil)
        #expect(!html.contains("Lines within ") && !html.contains(" lies on "))
        #expect(html.contains("<section id=\"daily-difference\">"))
        for (panel, label) in ["queue", "queue-again"].enumerated() {
            #expect(html.contains("data-chart=\"daily-difference-\(panel + 1)\""))
            #expect(html.contains("data-series=\"\(label) − no-queue\" data-points=\"\(scenario.dayCount)\""), "\(label)")
        }
        // The legend names each strategy with its marker, and what solid and dashed mean.
        #expect(count("class=\"legend-marker\"", in: svg) == 3 + 2)
        #expect(svg.contains(">measured (the talk&#39;s method)</text>"))
        // Strategies on the first row, what the line styles mean on their own.
        #expect(chart.legend.rows(width: chart.plot.right - chart.plot.left) == 2)
    }

    @Test("the difference charts: each strategy after the first minus it, day by day, in percentage points with the paired 95% interval, narrower than the two days' own; one y axis for all")
    func dailyDifferencesArePaired() throws {
        let scenario = try Self.scenario()
        let result = try Simulation.run(scenario, threads: 2)
        let panels = ReportCharts.dailyDifferences(scenario: scenario, result: result)
        #expect(panels.count == 2)
        #expect(panels.map(\.id) == ["daily-difference-1", "daily-difference-2"])
        #expect(panels[0].yAxis.domain == panels[1].yAxis.domain)
        let line = panels[0].series[1]
        #expect(line.label == "queue − no-queue" && panels[0].series[0].dashed)
        for day in 0..<scenario.dayCount {
            let delivered = { (index: Int) in
                Double(result.aggregates[index].daily[day][.delivered]) / Double(result.aggregates[index].daily[day][.messages])
            }
            let y = try #require(line.points[day].y)
            #expect(abs(y - 100 * (delivered(1) - delivered(0))) < 1e-9)
            let band = try #require(line.band?.first { $0.x == Double(day) })
            #expect(band.lower <= y && y <= band.upper)
            // Paired: narrower than the two strategies' own intervals put together.
            let own = [0, 1].map { result.dailyEstimate(.deliverability, strategy: $0, day: day).standardError }
            #expect((band.upper - band.lower) / 100 < 2 * 1.96 * (own[0] * own[0] + own[1] * own[1]).squareRoot() * 1.2)
        }
        // The same strategy under another label: its own chart, the same line.
        #expect(panels[1].series[1].points.map(\.y) == line.points.map(\.y))
        // One strategy alone has nothing to differ from.
        var single = scenario
        single.strategies = [scenario.strategies[0]]
        let alone = SimulationResult(strategies: single.strategies, aggregates: [result.aggregates[0]],
                                     users: result.users, events: result.events)
        #expect(ReportCharts.dailyDifferences(scenario: single, result: alone).isEmpty)
    }

    @Test("the truncated last day's measured figure is left out: no point, no stretch of the y axis, a mark and a note saying why")
    func truncatedDayIsLeftOut() throws {
        let scenario = try Self.scenario()
        var result = try Simulation.run(scenario, threads: 2)
        let last = scenario.dayCount - 1
        #expect(scenario.measurementTruncated(day: last) && !scenario.measurementTruncated(day: last - 1))
        let chart = ReportCharts.dailyDeliverability(scenario: scenario, result: result)
        for measured in stride(from: 1, to: chart.series.count, by: 2).map({ chart.series[$0] }) {
            #expect(measured.points[last].y == nil, "\(measured.label)")
            #expect(measured.points[last - 1].y != nil, "\(measured.label)")
        }
        #expect(chart.references.map(\.value) == [Double(last)])
        // However low the truncated day reads, the axis stays where the other days put it.
        for index in result.aggregates.indices { result.aggregates[index].daily[last][.measuredReceived] = 0 }
        let lowered = ReportCharts.dailyDeliverability(scenario: scenario, result: result)
        #expect(lowered.yAxis.domain == chart.yAxis.domain)
        #expect(lowered.yAxis.domain.lowerBound > 20)
        let note = try #require(ReportCharts.truncationNote(scenario: scenario, result: result))
        #expect(note.hasPrefix("The measured figures of Mar 10 are left out"))
        #expect(note.contains("so they would read low (0.0%, against a true "))
        // A run measuring nothing has nothing to leave out.
        for index in result.aggregates.indices {
            for day in 0...last { result.aggregates[index].daily[day][.measuredSent] = 0 }
        }
        #expect(ReportCharts.truncationNote(scenario: scenario, result: result) == nil)
    }

    @Test("a long description is folded under a one-line summary of its first words; a short one stays a paragraph")
    func longDescriptionIsFolded() throws {
        let long = String(repeating: "Mail arrives at a rate from a survey; ", count: 12) + "the end."
        let folded = ReportPage.description(long)
        #expect(folded.hasPrefix("<details class=\"description\">\n<summary><span class=\"label\">Description</span> Mail arrives"))
        let summary = try #require(folded.components(separatedBy: "</span> ").dropFirst().first?.components(separatedBy: "</summary>").first)
        #expect(summary.count <= ReportPage.foldedDescription / 2 + 2 && summary.hasSuffix(" …"))
        #expect(folded.contains("<p>" + SVG.escape(long) + "</p>\n</details>"))
        #expect(ReportPage.description("A short one. Two sentences.") == "<p class=\"description\">A short one. Two sentences.</p>\n")
        #expect(ReportPage.description("").isEmpty)
        let sentence = "First sentence, short. " + String(repeating: "then more words ", count: 20)
        #expect(ReportPage.description(sentence).contains("</span> First sentence, short.</summary>"))
        let scenario = try Self.scenario(description: long)
        let html = ReportPage.render(scenario: scenario, result: try Simulation.run(scenario, threads: 2), commandLine: nil)
        #expect(count("<details class=\"description\">", in: html) == 1 && !html.contains("<p class=\"description\">"))
    }
}
