@testable import CLI
import ChildProcesses
import Foundation
@testable import Reports
@testable import Simulator
@testable import Studies
import Synchronization
import TestSupport
import Testing
import TestThreads

/// Headless Chromium, found on PATH (Debian's `chromium` package).
enum HeadlessChromium {
    /// The executable, or nil when none is installed.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for folder in path.split(separator: ":") where access(folder + "/" + name, X_OK) == 0 {
                return folder + "/" + name
            }
        }
        return nil
    }()

    /// In CI (CI=true) the browser test must run: a missing browser is a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs Chromium headless on `arguments` then `url`; its standard output and error.
    /// A browser that hangs is stopped after two minutes (and the test fails on its output).
    static func run(_ executable: String, _ arguments: [String], url: String, scratch: String) throws -> (out: String, err: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
                             "--user-data-dir=" + scratch + "/profile", "--enable-logging=stderr", "--v=0"] + arguments + [url]
        // Files, not pipes: neither stream can fill up and block the browser.
        let outPath = scratch + "/chromium-\(UUID().uuidString).out", errPath = outPath + ".err"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try out.close()
        try err.close()
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return (read(outPath), read(errPath))
    }

    /// The page's console messages in Chromium's log (`…:INFO:CONSOLE…] "message", source: …`).
    /// A page without scripts logs none unless something in it is broken (an SVG attribute
    /// it cannot parse, a fetch the content security policy blocked).
    static func consoleMessages(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }
}

/// `report.html` rendered by a real browser: every chart present with its series and
/// points, no console message, and a screenshot kept for people to look at.
@Suite("report.html in headless Chromium", .ownThread)
struct ReportBrowserTests {
    /// Where the screenshot and the page are kept: `.build/artifacts/` of this package.
    static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/artifacts").path

    /// Two strategies over 9 days from a Monday (one weekend), small enough to run in well under a second.
    static let scenarioText = """
    { "name": "browser", "description": "The browser test's run: <small> & \\"quoted\\"", "seed": 9,
      "start": "2026-03-02", "duration": "9d", "devices": 60, "mail": { "perDay": 30 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1s", "sigma": 1 } },
      "device": { "launches": { "perDay": 6 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }

    """

    /// The part of `dom` from the `<svg` whose `data-chart` is `id` to its `</svg>`.
    func chart(_ id: String, in dom: String) -> String? {
        guard let marker = dom.range(of: "data-chart=\"\(id)\""),
              let start = dom[..<marker.lowerBound].range(of: "<svg", options: .backwards),
              let end = dom[marker.upperBound...].range(of: "</svg>") else { return nil }
        return String(dom[start.lowerBound..<end.upperBound])
    }

    /// Each series group of a chart: its label, its `data-points`, and its markup up to `</g>`.
    func series(in chart: String) -> [(label: String, points: Int, body: String)] {
        chart.components(separatedBy: "<g class=\"series\"").dropFirst().map { piece in
            let tag = piece.prefix { $0 != ">" }
            return (attribute("data-series", in: tag), Int(attribute("data-points", in: tag)) ?? -1,
                    piece.components(separatedBy: "</g>")[0])
        }
    }

    func attribute(_ name: String, in tag: some StringProtocol) -> String {
        guard let start = tag.range(of: name + "=\"") else { return "" }
        return String(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Screenshots `root/out/NAME.html` into the artifacts folder as NAME.png (1000 px wide),
    /// with a copy of the page beside it, checks Chromium logged nothing, and prints both paths.
    func keepScreenshot(_ chromium: String, of name: String, height: Int, root: String) throws {
        try FileManager.default.createDirectory(atPath: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts + "/\(name).png", copy = Self.artifacts + "/\(name).html"
        try? FileManager.default.removeItem(atPath: screenshot)
        let shot = try HeadlessChromium.run(chromium, ["--hide-scrollbars", "--window-size=1000,\(height)", "--screenshot=" + screenshot],
                                            url: "file://" + root + "/out/\(name).html", scratch: root)
        #expect(HeadlessChromium.consoleMessages(shot.err) == [])
        let png = try #require(FileManager.default.contents(atPath: screenshot), "no screenshot at \(screenshot)")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: root + "/out/\(name).html", toPath: copy)
        print("\(name).html screenshot: \(screenshot) (page: \(copy))")
    }

    /// The browser scenario with a third strategy, `queue` again under another label: its
    /// lines coincide with queue's on every day.
    static let coincidingText = scenarioText.replacingOccurrences(
        of: "{ \"name\": \"queue\", \"repeatMaxCount\": 4 }]",
        with: "{ \"name\": \"queue\", \"repeatMaxCount\": 4 }, { \"name\": \"queue\", \"repeatMaxCount\": 4, \"label\": \"queue-again\" }]")

    @Test("Chromium renders report.html: its charts with the right series and points, every strategy drawn on a chart of its own (daily differences, latency over the whole axis, even one identical to another), the truncated day left out, no console message; screenshot kept",
          .enabled(if: HeadlessChromium.executable != nil || HeadlessChromium.required,
                   "chromium is not installed: apt-get install chromium (with CI=true its absence fails the test)"))
    func rendersInChromium() throws {
        let chromium = try #require(HeadlessChromium.executable, "CI=true, but no chromium or chromium-browser on PATH")
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.path
        #expect(Self.coincidingText != Self.scenarioText)
        try Data(Self.coincidingText.utf8).write(to: URL(fileURLWithPath: root + "/browser.json"))
        let captured = CapturedConsole()
        try #require(PushSimCommand.main(["run", root + "/browser.json", "--out", root + "/out"], console: captured.console) == .success,
                     "\(captured.err)")
        let bytes = try #require(FileManager.default.contents(atPath: root + "/out/result.json"))
        let decoded = try PartialResult.decode(Array(bytes), file: "result.json")
        let result = decoded.partial.result, scenario = decoded.scenario
        let page = "file://" + root + "/out/report.html"

        let rendered = try HeadlessChromium.run(chromium, ["--dump-dom"], url: page, scratch: root)
        let dom = rendered.out
        #expect(HeadlessChromium.consoleMessages(rendered.err) == [])
        #expect(dom.contains("<h1>PushSim report: browser</h1>"))
        #expect(dom.contains("The browser test's run: &lt;small&gt; &amp; \"quoted\""))
        #expect(!dom.contains("<script"))
        let strategies = result.strategies.count, days = scenario.dayCount
        // daily, a difference chart per strategy after the first, outcomes, funnel, a latency chart per strategy, cost.
        #expect(count("<svg ", in: dom) == 4 + (strategies - 1) + strategies)

        let daily = try #require(chart("daily", in: dom))
        let dailySeries = series(in: daily)
        #expect(dailySeries.map(\.label) == result.strategies.flatMap { [$0.label, $0.label + " (measured)"] })
        for (index, line) in dailySeries.enumerated() {
            let day = result.aggregates[index / 2].daily
            // The measured line leaves out the last day, whose measurement the run's end cuts short.
            let expected = index % 2 == 0 ? day.filter { $0[.messages] > 0 }.count
                : day.indices.filter { day[$0][.measuredSent] > 0 && !scenario.measurementTruncated(day: $0) }.count
            #expect(line.points == expected, "\(line.label)")
            #expect(count("class=\"point\"", in: line.body) == expected, "\(line.label)")
        }
        #expect(dailySeries[0].points == days)
        #expect(dailySeries[1].points == days - 1)
        // Each strategy its own marker shape; queue-again, on queue every day, drawn in dashes over it.
        #expect(dailySeries[0].body.contains("<circle class=\"point\"") && !dailySeries[2].body.contains("<circle class=\"point\""))
        #expect(dailySeries[2].body.contains("<path class=\"point\"") && dailySeries[4].body.contains("<path class=\"point\""))
        #expect(count("class=\"overlap\"", in: dailySeries[4].body) == days - 1)
        // No paragraph says which line hides which: each strategy is drawn apart below.
        #expect(!dom.contains(" lies on "))
        try expectEachStrategyDrawnApart(dom, result: result, days: days)
        #expect(dom.contains("The measured figures of Mar 10 are left out"))
        #expect(daily.contains(">measured: cut short</text>"))
        // One shaded band per weekend: 2026-03-07 and 08.
        #expect(count("<rect", in: daily.components(separatedBy: "<g class=\"shaded\">")[1].components(separatedBy: "</g>")[0]) == 1)

        let outcomes = try #require(chart("outcomes", in: dom))
        #expect(count("<g class=\"bar\"", in: outcomes) == strategies)
        let segments = result.aggregates.map { aggregate in
            ([aggregate[.delivered], aggregate[.summarized], aggregate.pending] + LossReason.allCases.map { aggregate.lost($0) }).filter { $0 > 0 }.count
        }
        #expect(count("class=\"segment\"", in: outcomes) == segments.reduce(0, +))

        let funnel = try #require(chart("funnel", in: dom))
        #expect(series(in: funnel).map(\.points) == Array(repeating: Reports.funnelStages.count, count: strategies))
        #expect(count("<rect class=\"bar\"", in: funnel) == Reports.funnelStages.count * strategies)

        #expect(dom.contains("<p class=\"note\">A long tail is late delivery"))

        let cost = try #require(chart("cost", in: dom))
        #expect(series(in: cost).map(\.points) == Array(repeating: 2, count: strategies))

        // The screenshot, for a person to look at: its path is printed.
        try keepScreenshot(chromium, of: "report", height: 3400, root: root)
    }

    /// Every strategy drawn where nothing can hide it: after the first, a daily difference
    /// chart of its own with its line at every day, in its colour, and its band; and a
    /// latency chart of its own whose line, in its colour, runs from the plot's left edge
    /// to its right edge (none starting or stopping mid-air), drawn last, over the grey
    /// of the first strategy. Strategies with the same figures (queue-again) too.
    func expectEachStrategyDrawnApart(_ dom: String, result: SimulationResult, days: Int) throws {
        for (index, strategy) in result.strategies.enumerated() {
            let colour = Palette.series(index)
            if index > 0 {
                let panel = try #require(chart("daily-difference-\(index)", in: dom), "\(strategy.label)")
                let lines = series(in: panel)
                #expect(lines.map(\.label) == ["no difference", strategy.label + " − " + result.strategies[0].label])
                #expect(lines.last?.points == days)
                #expect(lines.last?.body.contains("stroke=\"\(colour)\"") == true, "\(strategy.label)")
                #expect(panel.contains("class=\"band\" data-series=\"\(strategy.label) − "), "\(strategy.label)")
            }
            let latency = try #require(chart("latency-\(index + 1)", in: dom), "\(strategy.label)")
            let lines = series(in: latency)
            let own = try #require(lines.last, "\(strategy.label)")
            #expect(own.label == strategy.label && own.points > 2)
            #expect(lines.dropLast().allSatisfy { $0.label != strategy.label })
            // Its path: in its colour, from the plot's left edge to its right edge, rising to 100% (the plot's top).
            let path = try #require(own.body.components(separatedBy: " d=\"").dropFirst().first?.prefix { $0 != "\"" })
            #expect(own.body.contains("stroke=\"\(colour)\""), "\(strategy.label)")
            let coordinates = path.split(whereSeparator: { $0 == " " || $0 == "M" || $0 == "L" }).compactMap { Double($0) }
            let xs = stride(from: 0, to: coordinates.count, by: 2).map { coordinates[$0] }
            let ys = stride(from: 1, to: coordinates.count, by: 2).map { coordinates[$0] }
            #expect(!path.dropFirst().contains("M"), "\(strategy.label): one unbroken line")
            #expect(xs.first == 68 && xs.last == ReportCharts.panelWidth(count: result.strategies.count) - 28, "\(strategy.label)")
            #expect(ys.last == ys.min(), "\(strategy.label)")
        }
    }

    @Test("Chromium renders a traced report.html: one more chart, the traced device's day, with connectivity, mail and three rows a strategy whose marks are the day's events in trace.jsonl, no console message; screenshots kept",
          .enabled(if: HeadlessChromium.executable != nil || HeadlessChromium.required,
                   "chromium is not installed: apt-get install chromium (with CI=true its absence fails the test)"))
    func rendersTracedDayInChromium() throws {
        let chromium = try #require(HeadlessChromium.executable, "CI=true, but no chromium or chromium-browser on PATH")
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.path
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: root + "/browser.json"))
        let captured = CapturedConsole()
        try #require(PushSimCommand.main(["run", root + "/browser.json", "--trace", "5", "--out", root + "/out", "--quiet"],
                                         console: captured.console) == .success, "\(captured.err)")
        let rendered = try HeadlessChromium.run(chromium, ["--dump-dom"], url: "file://" + root + "/out/report.html", scratch: root)
        let dom = rendered.out
        #expect(HeadlessChromium.consoleMessages(rendered.err) == [])
        // The untraced page's seven (two strategies), then the traced day.
        #expect(count("<svg ", in: dom) == 7 + 1)
        let day = try #require(chart("trace-day", in: dom))
        let rows = day.components(separatedBy: "<g class=\"row\"").dropFirst().map { piece in
            let tag = piece.prefix { $0 != ">" }
            return (label: attribute("data-row", in: tag), marks: Int(attribute("data-marks", in: tag)) ?? -1,
                    bars: Int(attribute("data-bars", in: tag)) ?? -1, body: piece)
        }
        #expect(rows.map(\.label) == ["online", "mail", "no-queue · APNs", "no-queue · device", "no-queue · shown",
                                      "queue · APNs", "queue · device", "queue · shown"])
        // The note names the day; its marks are that day's events of device 5's first app in trace.jsonl.
        let note = try #require(dom.components(separatedBy: "<p class=\"note\">Device 5").dropFirst().first)
        let date = String(try #require(note.split(separator: ":").first).split(separator: " ").last ?? "")
        #expect(date.count == 10, "\(note.prefix(80))")
        let lines = String(decoding: try #require(FileManager.default.contents(atPath: root + "/out/trace.jsonl")), as: UTF8.self)
            .split(separator: "\n").filter { $0.contains("\"time\":\"\(date)T") && $0.contains("\"device\":5,\"app\":0,") }
        func events(_ strategy: String, _ kinds: [String]) -> Int {
            lines.filter { line in line.contains("\"strategy\":\"\(strategy)\"") && kinds.contains { line.contains("\"kind\":\"\($0)\"") } }.count
        }
        #expect(rows[1].marks == events("no-queue", ["mail_arrived"]))
        #expect(rows[1].marks > 0)
        for (offset, strategy) in ["no-queue", "queue"].enumerated() {
            let base = 2 + 3 * offset
            #expect(rows[base].marks == events(strategy, ["apns_discarded"]), "\(strategy)")
            #expect(rows[base + 1].marks == events(strategy, ["device_received", "bounced"]), "\(strategy)")
            #expect(rows[base + 2].marks == events(strategy, ["shown", "summary_shown", "not_shown"]), "\(strategy)")
            #expect(rows[base + 2].marks > 0, "\(strategy)")
        }
        #expect(rows[0].bars > 0)
        try FileManager.default.copyItem(atPath: root + "/out/report.html", toPath: root + "/out/report-traced.html")
        try keepScreenshot(chromium, of: "report-traced", height: 4400, root: root)
        // The traced day alone, on a page of its own with the report's style: for a person to look at.
        let html = String(decoding: try #require(FileManager.default.contents(atPath: root + "/out/report.html")), as: UTF8.self)
        let section = try #require(html.components(separatedBy: "<section id=\"trace\">").last?.components(separatedBy: "</section>").first)
        let alone = ReportPage.head(title: "The traced day") + "</header>\n<section id=\"trace\">" + section + "</section>\n</body>\n</html>\n"
        try Data(alone.utf8).write(to: URL(fileURLWithPath: root + "/out/report-trace.html"))
        try keepScreenshot(chromium, of: "report-trace", height: 900, root: root)
    }

    @Test("Chromium renders sweep.html: a chart per headline rate and value of the second field, a line per strategy with every point and its error bars, no console message",
          .enabled(if: HeadlessChromium.executable != nil || HeadlessChromium.required,
                   "chromium is not installed: apt-get install chromium (with CI=true its absence fails the test)"))
    func rendersSweepInChromium() throws {
        let chromium = try #require(HeadlessChromium.executable, "CI=true, but no chromium or chromium-browser on PATH")
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.path
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: root + "/browser.json"))
        let captured = CapturedConsole()
        try #require(PushSimCommand.main(["sweep", root + "/browser.json", "--set", "strategies[1].repeatMaxCount=0,2,4",
                                          "--set", "connectivity.offline.mean=20m,1h", "--set", "devices=20", "--out", root + "/out", "--quiet"],
                                         console: captured.console) == .success, "\(captured.err)")
        let page = "file://" + root + "/out/sweep.html"
        let rendered = try HeadlessChromium.run(chromium, ["--dump-dom"], url: page, scratch: root)
        let dom = rendered.out
        #expect(HeadlessChromium.consoleMessages(rendered.err) == [])
        #expect(dom.contains("<h1>PushSim sweep: browser</h1>"))
        #expect(!dom.contains("<script"))
        #expect(count("<svg ", in: dom) == SweepReport.chartedMetrics.count * 2)

        // The error bars each chart must have: one per point whose standard error sweep.csv knows.
        let csv = try #require(FileManager.default.contents(atPath: root + "/out/sweep.csv")).split(separator: UInt8(ascii: "\n"))
            .map { String(decoding: $0, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        for metric in SweepReport.chartedMetrics {
            let column = try #require(csv[0].firstIndex(of: metric.name + "_se"))
            for (group, offline) in ["20m", "1h"].enumerated() {
                let drawn = try #require(chart("sweep-\(metric.name)-\(group)", in: dom), "\(metric.name) \(offline)")
                let lines = series(in: drawn)
                #expect(lines.map(\.label) == ["no-queue", "queue"], "\(metric.name)")
                // A series group holds its error bars' own group, so its markup runs to the next series.
                let bodies = drawn.components(separatedBy: "<g class=\"series\"").dropFirst()
                for (line, body) in zip(lines, bodies) {
                    #expect(line.points == 3, "\(metric.name) \(line.label)")
                    #expect(count("class=\"point\"", in: body) == 3)
                    let known = csv.dropFirst().filter { $0[1] == offline && $0[2] == line.label && !$0[column].isEmpty }.count
                    #expect(count("class=\"error-bar\"", in: body) == known, "\(metric.name) \(line.label)")
                    #expect(known == 3, "\(metric.name) \(line.label): 20 devices give every rate a standard error")
                }
            }
        }

        // Axes named by the field, not its path; no chart without points.
        #expect(dom.contains(">repeatMaxCount (strategy queue)</text>"))
        #expect(!dom.contains("data-points=\"0\""))

        // Without launches nothing is measured: that section says why instead of drawing an empty frame.
        try Data(Self.scenarioText.replacingOccurrences(of: "\"perDay\": 6", with: "\"perDay\": 0").utf8)
            .write(to: URL(fileURLWithPath: root + "/unmeasured.json"))
        try #require(PushSimCommand.main(["sweep", root + "/unmeasured.json", "--set", "strategies[1].repeatMaxCount=0,2",
                                          "--set", "devices=20", "--out", root + "/none", "--quiet"], console: captured.console) == .success)
        let unmeasured = try HeadlessChromium.run(chromium, ["--dump-dom"], url: "file://" + root + "/none/sweep.html", scratch: root)
        #expect(HeadlessChromium.consoleMessages(unmeasured.err) == [])
        #expect(unmeasured.out.contains("<p class=\"empty\">No chart: nothing was measured."))
        #expect(count("<svg ", in: unmeasured.out) == SweepReport.chartedMetrics.count - 1)

        try keepScreenshot(chromium, of: "sweep", height: 4000, root: root)
    }

    @Test("Chromium renders fit.html: a chart per fitted figure with every measured day, a posterior per field with its interval, the prediction table, the guessed fields ranked, no console message; screenshot kept",
          .enabled(if: HeadlessChromium.executable != nil || HeadlessChromium.required,
                   "chromium is not installed: apt-get install chromium (with CI=true its absence fails the test)"))
    func rendersFitInChromium() throws {
        let chromium = try #require(HeadlessChromium.executable, "CI=true, but no chromium or chromium-browser on PATH")
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.path
        // Users who launch about once a day: both figures vary from day to day.
        let text = Self.scenarioText.replacingOccurrences(of: "\"perDay\": 6", with: "\"perDay\": 1")
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/browser.json"))
        let captured = CapturedConsole()
        try #require(PushSimCommand.main(["measure", root + "/browser.json", "--set", "devices=150", "--seed", "4", "--out", root + "/m.csv"],
                                         console: captured.console) == .success, "\(captured.err)")
        try #require(PushSimCommand.main(["fit", root + "/browser.json", root + "/m.csv", "--vary", "connectivity.offline.mean=10m..3h",
                                          "--guess", "connectivity.online.mean=1h..6h", "--guess", "provider.backoff=1s..10s",
                                          "--grid", "5", "--set", "devices=40", "--out", root + "/out", "--quiet"],
                                         console: captured.console) == .success, "\(captured.err)")
        let rendered = try HeadlessChromium.run(chromium, ["--dump-dom"], url: "file://" + root + "/out/fit.html", scratch: root)
        let dom = rendered.out
        #expect(HeadlessChromium.consoleMessages(rendered.err) == [])
        #expect(dom.contains("<h1>PushSim fit: browser</h1>"))
        #expect(!dom.contains("<script"))
        let days = try String(contentsOfFile: root + "/m.csv", encoding: .utf8).split(separator: "\n").count - 1
        for statistic in FitStatistic.allCases {
            let drawn = try #require(chart("fit-\(statistic.name)", in: dom), "\(statistic.name)")
            let lines = series(in: drawn)
            #expect(lines.map(\.label) == ["fitted", "measured"], "\(statistic.name)")
            #expect(lines.allSatisfy { $0.points == days }, "\(statistic.name): \(lines)")
            #expect(count("class=\"error-bar\"", in: drawn) == days)
        }
        let posterior = try #require(chart("fit-field-0", in: dom))
        #expect(series(in: posterior).map(\.label) == ["posterior"])
        #expect(posterior.contains("95% interval") && posterior.contains("estimate "))
        #expect(dom.contains("<th>no-queue (measured)</th>") && dom.contains("<th>queue</th>"))
        #expect(dom.contains("Goodness of fit"))
        // The guessed fields, the largest effect first; one the model does not read moves "none".
        let guesses = try #require(dom.range(of: "<h2>Guessed fields</h2>").map { String(dom[$0.lowerBound...]) })
        let online = try #require(guesses.range(of: "<th>connectivity.online.mean</th>")), backoff = try #require(guesses.range(of: "<th>provider.backoff</th>"))
        #expect(online.lowerBound < backoff.lowerBound)
        #expect(guesses[backoff.upperBound...].prefix(80).contains("<td>none</td>"), "\(guesses.prefix(1200))")
        #expect(guesses[online.upperBound...].prefix(120).contains(" pp ("), "\(guesses.prefix(1200))")
        try keepScreenshot(chromium, of: "fit", height: 3000, root: root)
    }

    @Test("the console check sees a broken page: Chromium logs an SVG path it cannot parse",
          .enabled(if: HeadlessChromium.executable != nil || HeadlessChromium.required,
                   "chromium is not installed: apt-get install chromium (with CI=true its absence fails the test)"))
    func consoleCheckCatchesErrors() throws {
        let chromium = try #require(HeadlessChromium.executable, "CI=true, but no chromium or chromium-browser on PATH")
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.path
        try Data("<!DOCTYPE html><svg><path d=\"M0 0 L x\"/></svg>".utf8).write(to: URL(fileURLWithPath: root + "/broken.html"))
        let rendered = try HeadlessChromium.run(chromium, ["--dump-dom"], url: "file://" + root + "/broken.html", scratch: root)
        #expect(HeadlessChromium.consoleMessages(rendered.err).contains { $0.contains("attribute d") })
    }
}
