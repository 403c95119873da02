@testable import Base
@testable import CLI
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Synchronization
import TestSupport
import Testing

/// `report.html` and `result.json` as `run`, `merge` and `report` write them.
@Suite("Report page and result.json")
struct ReportPageTests {
    /// Nine days from a Monday (so one weekend), 40 devices that launch the app (so the
    /// talk's measurement has data), a description that needs escaping.
    static let scenarioText = """
    { "name": "page", "description": "A <b>small</b> run & its \\"page\\"", "seed": 3, "start": "2026-03-02",
      "duration": "9d", "devices": 40, "mail": { "perDay": 30 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1s", "sigma": 1 } },
      "device": { "launches": { "perDay": 6 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }

    """

    func pushsim(_ arguments: [String]) -> (code: ExitCode, err: String) {
        let captured = CapturedConsole()
        let code = PushSimCommand.main(arguments, console: captured.console)
        return (code, captured.err)
    }

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-page-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Runs the scenario into `root/run` and returns the scenario's path.
    func run(in root: String) throws -> String {
        let scenario = root + "/page.json"
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: scenario))
        let result = pushsim(["run", scenario, "--out", root + "/run", "--threads", "2"])
        try #require(result.code == .success, "\(result.err)")
        return scenario
    }

    @Test("run writes result.json: the run's own aggregates as shard 1/1 of every device, with the command line")
    func resultJSONHoldsTheRun() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenarioPath = try run(in: root)
        let bytes = try #require(FileManager.default.contents(atPath: root + "/run/result.json"))
        let decoded = try PartialResult.decode(Array(bytes), file: "result.json")
        #expect(decoded.partial.shard == (1, 1))
        #expect(decoded.partial.commandLine == "pushsim run \(scenarioPath) --out \(root)/run --threads 2")
        #expect(decoded.partial.scenarioText == Self.scenarioText)
        let scenario = try ScenarioDecoder.decode(Array(Self.scenarioText.utf8), file: "page.json")
        let direct = try Simulation.run(scenario, threads: 1)
        #expect(decoded.partial.result == direct)
    }

    @Test("pushsim report draws, from result.json alone, the same report.html bytes the run wrote")
    func reportRedrawsTheSamePage() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try run(in: root)
        let copy = root + "/copy"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/run/result.json", toPath: copy + "/result.json")
        let result = pushsim(["report", copy])
        #expect(result.code == .success)
        #expect(result.err == "wrote \(copy)/report.html\n")
        let original = try #require(contents(root + "/run/report.html"))
        #expect(contents(copy + "/report.html") == original)
        // A file argument with --out writes elsewhere, the same bytes.
        #expect(pushsim(["report", copy + "/result.json", "--out", root + "/elsewhere"]).code == .success)
        #expect(contents(root + "/elsewhere/report.html") == original)
    }

    @Test("merge writes report.html and result.json too; the page names the merge command, the aggregates equal the run's")
    func mergeWritesThePage() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = try run(in: root)
        for shard in 1...2 {
            #expect(pushsim(["run", scenario, "--shard", "\(shard)/2", "--out", root + "/part\(shard)"]).code == .success)
        }
        #expect(pushsim(["merge", root + "/part1", root + "/part2", "--out", root + "/merged"]).code == .success)
        let page = try #require(contents(root + "/merged/report.html"))
        #expect(page.contains("<code>pushsim merge \(root)/part1 \(root)/part2 --out \(root)/merged</code>"))
        let merged = try PartialResult.decode(Array(try #require(FileManager.default.contents(atPath: root + "/merged/result.json"))),
                                              file: "merged")
        let whole = try PartialResult.decode(Array(try #require(FileManager.default.contents(atPath: root + "/run/result.json"))),
                                             file: "whole")
        #expect(merged.partial.result == whole.partial.result)
        // Apart from the command line, the page is the run's.
        let runPage = try #require(contents(root + "/run/report.html"))
        func withoutCommand(_ page: String) -> String {
            page.split(separator: "\n").filter { !$0.hasPrefix("<dt>command</dt>") }.joined(separator: "\n")
        }
        #expect(withoutCommand(page) == withoutCommand(runPage))
    }

    @Test("report refuses a shard's partial, a folder without result.json and a damaged command field, with exit 65 and nothing written")
    func reportRefusesWhatItCannotDraw() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = try run(in: root)
        #expect(pushsim(["run", scenario, "--shard", "1/2", "--out", root + "/part"]).code == .success)
        let shard = pushsim(["report", root + "/part/partial.json", "--out", root + "/out1"])
        #expect(shard.code == .dataError)
        #expect(shard.err.contains("the partial result of shard 1/2; merge the shards first"))
        let empty = pushsim(["report", root + "/part", "--out", root + "/out2"])
        #expect(empty.code == .dataError)
        // A shard's folder: the message says what to do.
        #expect(empty.err == "error: \(root)/part/result.json: cannot read: no such file; the folder holds a shard's "
                + "partial.json: merge the shards first ('pushsim merge')\n")
        let text = try #require(contents(root + "/run/result.json"))
        let damaged = text.replacingOccurrences(of: "\"command\":\"", with: "\"command\":7,\"was\":\"")
        #expect(damaged != text)
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: root + "/damaged.json"))
        let bad = pushsim(["report", root + "/damaged.json", "--out", root + "/out3"])
        #expect(bad.code == .dataError)
        #expect(bad.err.contains("damaged.json: damaged result.json (command)"))
        for out in ["out1", "out2", "out3"] { #expect(!FileManager.default.fileExists(atPath: root + "/" + out)) }
        #expect(pushsim(["report"]).code == .usage)
        #expect(pushsim(["report", "-"]).code == .usage)
    }

    @Test("report on a file that is not a run's result.json says what is wrong with it, naming result.json", arguments: [
        ("{}", #"not a run's result.json: no "format" field (pushsim writes "format": "pushsim-partial" first)"#),
        ("[1, 2]", "not a run's result.json: the file holds an array, not a JSON object"),
        ("{\"format\": ", "not a run's result.json: not JSON ("),
        (#"{"format": "pushsim-run", "version": 1}"#, #"not a run's result.json: its "format" is "pushsim-run" (a run's run.json), not "pushsim-partial""#),
        (#"{"name": "s", "start": "2026-01-05", "strategies": []}"#, "not a run's result.json but a scenario file (run it with 'pushsim run')"),
    ])
    func reportSaysWhatIsWrong(text: String, message: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/result.json"))
        let refused = pushsim(["report", root])
        #expect(refused.code == .dataError)
        #expect(refused.err.hasPrefix("error: \(root)/result.json: " + message), "\(refused.err)")
        #expect(!refused.err.contains("partial result"))
    }

    @Test("merge given a whole run's report folder says what merge takes and where the run's result.json is")
    func mergeOnAReportFolder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try run(in: root)
        let refused = pushsim(["merge", root + "/run", "--out", root + "/merged"])
        #expect(refused.code == .dataError)
        #expect(refused.err == "error: \(root)/run/partial.json: cannot read: no such file; the folder holds a whole run's "
                + "reports (its result is \(root)/run/result.json): merge takes the partial.json of each "
                + "'pushsim run --shard K/N' (its folder or the file); to draw a run's page again, 'pushsim report \(root)/run'\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/merged"))
    }

    /// The page of a run of the scenario, rendered in memory.
    static func page(bands: [[ClosedRange<Double>?]]? = nil) throws -> (html: String, scenario: Scenario, result: SimulationResult) {
        let scenario = try ScenarioDecoder.decode(Array(scenarioText.utf8), file: "page.json")
        let result = try Simulation.run(scenario, threads: 2)
        return (ReportPage.render(scenario: scenario, result: result, commandLine: "pushsim run 'a b.json'", deliverabilityBands: bands),
                scenario, result)
    }

    @Test("the page stands alone: no script, nothing fetched (a CSP forbids it), print styles; the header escapes what it shows")
    func selfContained() throws {
        let html = try Self.page().html
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("url("))
        // The SVG namespace is a name, not a fetch; no other address appears.
        let withoutNamespace = html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!withoutNamespace.contains("http:") && !withoutNamespace.contains("https:") && !withoutNamespace.contains("//"))
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"))
        #expect(html.contains("@media print"))
        #expect(html.contains("<h1>PushSim report: page</h1>"))
        #expect(html.contains("<p class=\"description\">A &lt;b&gt;small&lt;/b&gt; run &amp; its &quot;page&quot;</p>"))
        #expect(html.contains("<dt>seed</dt><dd>3</dd>"))
        #expect(html.contains("<dt>devices</dt><dd>40</dd>"))
        #expect(html.contains("<dt>days</dt><dd>9 (2026-03-02 to 2026-03-10)</dd>"))
        #expect(html.contains("<dt>command</dt><dd><code>pushsim run &#39;a b.json&#39;</code></dd>"))
    }

    @Test("the page has its charts (a latency chart per strategy, a difference chart per strategy after the first); the daily one has a true and a measured line per strategy and shades the weekend")
    func chartsOnThePage() throws {
        let (html, scenario, result) = try Self.page()
        for chart in ["daily", "outcomes", "funnel", "latency-1", "latency-2", "daily-difference-1", "cost"] {
            #expect(count("data-chart=\"\(chart)\"", in: html) == 1, "\(chart)")
        }
        let daily = ReportCharts.dailyDeliverability(scenario: scenario, result: result)
        #expect(daily.series.map(\.label) == ["no-queue", "no-queue (measured)", "queue", "queue (measured)"])
        #expect(daily.series.map(\.dashed) == [false, true, false, true])
        #expect(daily.series.allSatisfy { $0.points.count == 9 })
        // 2026-03-07 and 08 are the weekend: days 5 and 6, shaded as one band.
        #expect(daily.shaded == [4.5...6.5])
        let fortnight = ReportCharts.dailyDeliverability(scenario: { var longer = scenario; longer.duration = 15 * TimeUnit.day; return longer }(),
                                                         result: result)
        #expect(fortnight.shaded == [4.5...6.5, 11.5...13.5])
        #expect(daily.xAxis.ticks.map(\.label) == ["Mar 2", "Mar 9"])
        // The stacked bar's categories: delivered, summarized, the loss reasons some strategy has, pending.
        let outcomes = ReportCharts.outcomes(result: result)
        #expect(outcomes.categories.first?.label == "delivered" && outcomes.categories.last?.label == "pending")
        for (bar, aggregate) in zip(outcomes.bars, result.aggregates) { #expect(bar.values.reduce(0, +) == aggregate[.messages]) }
        #expect(ReportCharts.funnel(result: result).groups.count == Reports.funnelStages.count)
        #expect(ReportCharts.latencyPanels(result: result).allSatisfy { $0.xAxis.logarithmic })
    }

    @Test("latency is drawn over its whole range: every strategy's curves start at the axis's left end, at no more than their share there, and run to its right end at 100%; recovered messages apart, with a note on what the long tail is")
    func latencyOverItsWholeRange() throws {
        let (html, _, result) = try Self.page()
        let panels = ReportCharts.latencyPanels(result: result)
        #expect(panels.count == result.strategies.count)
        #expect(Set(panels.map { "\($0.xAxis.domain)" }).count == 1)
        for (index, panel) in panels.enumerated() {
            let aggregate = result.aggregates[index]
            let delivered = try #require(panel.series.last)
            #expect(delivered.label == result.strategies[index].label)
            #expect(delivered.points.first?.x == panel.xAxis.domain.lowerBound)
            #expect(delivered.points.last?.x == panel.xAxis.domain.upperBound)
            #expect(delivered.points.last?.y == 100)
            #expect(delivered.points.allSatisfy { $0.y != nil })
            // Rising, never falling.
            let shares = delivered.points.compactMap(\.y)
            #expect(zip(shares, shares.dropFirst()).allSatisfy { $0 <= $1 })
            // Recovered messages apart: a dashed first-copies line under the band of the recovered.
            let firstCopies = panel.series.first { $0.label == "first copies" }
            #expect((firstCopies != nil) == (aggregate.recoveredLatency.total > 0), "\(result.strategies[index].label)")
            if let firstCopies {
                #expect(firstCopies.dashed && firstCopies.points.last?.y ?? 100 < 100)
                #expect(delivered.band?.count == delivered.points.count)
            }
            // The first strategy's curve in grey on the others' panels.
            #expect(panel.series.contains { $0.colour == "#9A9A9A" } == (index > 0))
        }
        // This run's queue recovers messages: the note says what its long tail is.
        #expect(result.aggregates[1].recoveredLatency.total > 0)
        let note = try #require(ReportCharts.latencyNote(result: result))
        #expect(note.hasPrefix("A long tail is late delivery, not slow delivery."))
        #expect(note.contains("queue's p95 is ") && note.contains(" recovered messages ("))
        #expect(html.contains("<p class=\"note\">A long tail is late delivery"))
        #expect(html.contains("<th>latency p95</th><th>p95, first copies</th>"))
        #expect(ReportCharts.grouped(63580) == "63,580" && ReportCharts.grouped(-1234567) == "-1,234,567" && ReportCharts.grouped(999) == "999")
        #expect(ReportCharts.readableSeconds(microseconds: 3_690_988_000) == "3,691" && ReportCharts.readableSeconds(microseconds: 516_000) == "0.516")
    }

    @Test("a 95% band is drawn around each strategy's true line: the run's own daily intervals by default, or those given; with none, none is")
    func deliverabilityBands() throws {
        // The daily chart's section only: the difference and latency charts have bands of their own.
        func daily(_ html: String) -> String {
            html.components(separatedBy: "<section id=\"daily\">").last?.components(separatedBy: "</section>").first ?? ""
        }
        let (wholePage, _, run) = try Self.page()
        let byDefault = daily(wholePage)
        #expect(count("class=\"band\"", in: byDefault) == run.strategies.count)
        // The summary table gives each rate with the half-width of its interval.
        let half = Reports.halfWidth(run.estimate(.deliverability, strategy: 1), percent: true)
        #expect(half.hasPrefix(" ± ") && wholePage.contains(half + "</td>"))
        #expect(wholePage.contains("<caption>Rates ± the half-width of their 95% interval, in percentage points</caption>"))
        let noBands = [[ClosedRange<Double>?]](repeating: [nil, nil, nil, nil, nil, nil, nil, nil, nil], count: run.strategies.count)
        #expect(!daily(try Self.page(bands: noBands).html).contains("class=\"band\""))
        // The default band is each day's interval from the run's blocks of users.
        let defaultBands = ReportPage.dailyBands(run)
        let day2 = try #require(defaultBands[0][2])
        let estimate = run.dailyEstimate(.deliverability, strategy: 0, day: 2)
        #expect(estimate.standardError > 0 && day2.contains(estimate.value))
        #expect(abs((day2.upperBound - day2.lowerBound) / 2 - studentTQuantile(0.975, degreesOfFreedom: estimate.degreesOfFreedom!)
                    * estimate.standardError) < 1e-12)
        // As ratios, like Estimate.interval; a day without a standard error has none.
        let interval = try #require(Estimate(value: 0.9, standardError: 0.02).interval(confidence: 0.95))
        let bands = [[ClosedRange<Double>?]](repeating: [nil] + (1..<9).map { _ in interval }, count: 2)
        let html = daily(try Self.page(bands: bands).html)
        #expect(count("class=\"band\"", in: html) == 2)
        let (_, scenario, result) = try Self.page()
        let chart = ReportCharts.dailyDeliverability(scenario: scenario, result: result, bands: bands)
        let band = try #require(chart.series[0].band)
        #expect(band.count == 8 && band[0].x == 1)
        #expect(abs(band[0].lower - 100 * interval.lowerBound) < 1e-9 && abs(band[0].upper - 100 * interval.upperBound) < 1e-9)
        #expect(html.contains("class=\"band\" data-series=\"no-queue\"") && html.contains("class=\"band\" data-series=\"queue\""))
    }

    @Test("the command line is quoted as a shell would need it typed")
    func commandLineQuoting() {
        #expect(RunOutput.commandLine(["run", "scenarios/x.json", "--out=/tmp/q", "--seed", "42"])
                == "pushsim run scenarios/x.json --out=/tmp/q --seed 42")
        #expect(RunOutput.commandLine(["run", "a b.json", "--out", "it's", ""]) == "pushsim run 'a b.json' --out 'it'\\''s' ''")
    }
}
