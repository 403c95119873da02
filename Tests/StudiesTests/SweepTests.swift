@testable import Base
@testable import CLI
import Foundation
@testable import ScenarioFormat
@testable import Simulator
@testable import Studies
import TestSupport
import Testing

/// `pushsim sweep`: values split and expanded, the grid, every point checked before
/// anything runs, and sweep.csv agreeing with `run --set` point by point.
@Suite("Sweeps")
struct SweepTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Two strategies, 12 devices for 4 days: a point runs in a fraction of a second.
    static let scenarioText = """
    { "name": "sweepable", "seed": 4, "start": "2026-03-02", "duration": "4d", "devices": 12,
      "mail": { "perDay": 20 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "device": { "launches": { "perDay": 5 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }
    """

    func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-sweep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: path + "/s.json"))
        return path
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let captured = CapturedConsole()
        let code = PushSimCommand.main(arguments, console: captured.console)
        return (code, captured.out, captured.err)
    }

    @Test("values split on top-level commas only: brackets, braces and quoted strings keep theirs")
    func splitting() {
        #expect(SweepAxis.split("1,2,3") == ["1", "2", "3"])
        #expect(SweepAxis.split("[1,2],{\"a\":1,\"b\":[3,4]},\"x,y\",\"q\\\",r\",2h") == ["[1,2]", "{\"a\":1,\"b\":[3,4]}", "\"x,y\"", "\"q\\\",r\"", "2h"])
        #expect(SweepAxis.split("") == [""])
    }

    @Test("A..B expands to the integers from A to B; an empty value or an empty range is an error naming the argument")
    func ranges() throws {
        #expect(try SweepAxis("strategies[1].repeatMaxCount=0..3").texts == ["0", "1", "2", "3"])
        #expect(try SweepAxis("seed=-1..1,7").texts == ["-1", "0", "1", "7"])
        #expect(try SweepAxis("x=1.5..2").texts == ["1.5..2"])   // not integers: one string value
        #expect(throws: ScenarioError.self) { try SweepAxis("seed=5..3") }
        #expect(throws: ScenarioError.self) { try SweepAxis("seed=1,,2") }
        #expect(throws: ScenarioError.self) { try SweepAxis("seed=0..5000") }
        #expect(throws: ScenarioError.self) { try SweepAxis("seed") }
        do {
            _ = try SweepAxis("seed=1,")
        } catch {
            #expect(error.description.hasPrefix("--set seed=1,: an empty value"))
        }
    }

    @Test("the x scale: numbers at their value, durations in a unit fitting the largest, anything else equally spaced")
    func scales() throws {
        #expect(try SweepAxis("a=0,2,10").scale == .numeric([0, 2, 10], unit: nil))
        #expect(try SweepAxis("a=30m,2h,0").scale == .numeric([0.5, 2, 0], unit: "h"))
        #expect(try SweepAxis("a=30s,5m").scale == .numeric([0.5, 5], unit: "min"))
        #expect(try SweepAxis("a=2d,12h").scale == .numeric([2, 0.5], unit: "d"))
        #expect(try SweepAxis("a=250ms,1s").scale == .numeric([250, 1000], unit: "ms"))
        #expect(try SweepAxis("a=queue,no-queue").scale == .categorical)
        #expect(try SweepAxis("a=true,false").scale == .categorical)
    }

    @Test("the grid is the cartesian product, the last field fastest; a field with one value is fixed for every point")
    func grid() throws {
        let grid = SweepGrid([try SweepAxis("a=1,2"), try SweepAxis("devices=5"), try SweepAxis("b=x,y,z")])
        #expect(grid.axes.map(\.path) == ["a", "b"])
        #expect(grid.fixed.map(\.argument) == ["devices=5"])
        #expect(grid.count == 6)
        #expect(grid.points == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]])
        #expect(grid.overrides([1, 2]).map(\.argument) == ["devices=5", "a=2", "b=z"])
        let single = SweepGrid([try SweepAxis("a=1"), try SweepAxis("b=2")])
        #expect(single.axes.map(\.path) == ["a", "b"] && single.fixed.isEmpty && single.count == 1)
    }

    @Test("a bad value in any point is a scenario error before anything runs, and nothing is written")
    func checkedFirst() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (sets, message) in [(["strategies[1].repeatMaxCount=0,1,-2"], "--set strategies[1].repeatMaxCount=-2: strategies[1].repeatMaxCount: must be between"),
                                (["connectivity.offline.mean=30m,2"], "--set connectivity.offline.mean=2: connectivity.offline.mean: a duration needs a unit"),
                                (["strategies[3].label=a,b"], "--set strategies[3].label=a: strategies: no element [3]"),
                                (["a..b=1,2"], "--set a..b=1,2: not a field path")] {
            let captured = CapturedConsole()
            let code = SweepCommand.main([folder + "/s.json", "--out", folder + "/out"] + sets.flatMap { ["--set", $0] },
                                         console: captured.console) { _, _, _, _, _ in
                Issue.record("simulated despite a bad point")
                throw AccountingError(description: "unreachable")
            }
            #expect(code == .dataError)
            #expect(captured.err.hasPrefix("error: " + message), "\(captured.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        }
        #expect(pushsim(["sweep", folder + "/s.json"]).code == .usage)
        #expect(pushsim(["sweep", folder + "/s.json", "--set", "seed=1,2", "--strategy", "nope"]).code == .usage)
        #expect(pushsim(["sweep", folder + "/s.json", "--set", "seed=1,2", "--shard", "1/2"]).code == .usage)
    }

    @Test("sweep.csv: the swept paths, strategy, every rate and its _se; each point's rates are those of run --set with the same seed")
    func csvMatchesRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,3",
                             "--set", "connectivity.offline.mean=20m,2h", "--set", "devices=8", "--out", folder + "/sweep", "--seed", "6"])
        #expect(sweep.code == .success, "\(sweep.err)")
        #expect(sweep.err.components(separatedBy: "\n").filter { $0.hasPrefix("point ") }.count == 4)
        #expect(sweep.err.contains("point 4/4: strategies[1].repeatMaxCount=3 connectivity.offline.mean=2h ("))
        #expect(sweep.out.hasPrefix("strategies[1].repeatMaxCount  connectivity.offline.mean  strategy  deliverability"))
        let csv = try #require(contents(folder + "/sweep/sweep.csv"))
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        #expect(header == ["strategies[1].repeatMaxCount", "connectivity.offline.mean", "strategy"]
                + Metric.allCases.flatMap { [$0.name, $0.name + "_se"] })
        #expect(rows.count == 1 + 4 * 2)
        #expect(rows.dropFirst().map { Array($0.prefix(3)) } == [
            ["0", "20m", "no-queue"], ["0", "20m", "queue"], ["0", "2h", "no-queue"], ["0", "2h", "queue"],
            ["3", "20m", "no-queue"], ["3", "20m", "queue"], ["3", "2h", "no-queue"], ["3", "2h", "queue"]])

        // One point run on its own: the same rates as summary.csv writes them.
        let run = pushsim(["run", folder + "/s.json", "--set", "devices=8", "--set", "strategies[1].repeatMaxCount=3",
                           "--set", "connectivity.offline.mean=2h", "--seed", "6", "--out", folder + "/run", "--quiet"])
        #expect(run.code == .success, "\(run.err)")
        let summary = try #require(contents(folder + "/run/summary.csv")).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        for name in ["deliverability", "informed_rate", "measured_deliverability", "pushes_per_message"] {
            let summaryColumn = try #require(summary[0].firstIndex(of: name))
            let sweepColumn = try #require(header.firstIndex(of: name))
            #expect(rows[7][sweepColumn] == summary[1][summaryColumn], "\(name)")
            #expect(rows[8][sweepColumn] == summary[2][summaryColumn], "\(name)")
            #expect(!rows[8][sweepColumn].isEmpty)
        }
        // Common random numbers: no-queue does not depend on the queue's repeatMaxCount.
        let deliverability = try #require(header.firstIndex(of: "deliverability"))
        #expect(rows[1][deliverability] == rows[5][deliverability])
        #expect(rows[2][deliverability] != rows[6][deliverability])

        let html = try #require(contents(folder + "/sweep/sweep.html"))
        #expect(html.contains("<h1>PushSim sweep: sweepable</h1>"))
        #expect(!html.contains("<script"))
        // One chart per charted rate and value of the second field.
        #expect(html.components(separatedBy: "<svg ").count - 1 == SweepReport.chartedMetrics.count * 2)
        #expect(html.contains("data-chart=\"sweep-deliverability-1\""))
        #expect(html.contains("<figcaption>offline mean (connectivity) = 2h</figcaption>"))
        #expect(html.contains("<dt>set</dt><dd><code>devices</code> = 8</dd>"))
    }

    @Test("an axis may address a strategy by its label: the same rates as by its index")
    func axisByLabel() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, path) in [("index", "strategies[1].repeatMaxCount"), ("label", "strategies[queue].repeatMaxCount")] {
            let sweep = pushsim(["sweep", folder + "/s.json", "--set", path + "=0,2", "--out", folder + "/" + name, "--quiet"])
            #expect(sweep.code == .success, "\(sweep.err)")
        }
        let byIndex = try #require(contents(folder + "/index/sweep.csv")), byLabel = try #require(contents(folder + "/label/sweep.csv"))
        #expect(byLabel.hasPrefix("strategies[queue].repeatMaxCount,strategy,"))
        // Past the header (which names the path as given), the same bytes.
        #expect(byLabel.split(separator: "\n").dropFirst() == byIndex.split(separator: "\n").dropFirst())
        let wrong = pushsim(["sweep", folder + "/s.json", "--set", "strategies[fifo].repeatMaxCount=0,2", "--out", folder + "/x"])
        #expect(wrong.code == .dataError)
        #expect(wrong.err.hasPrefix("error: --set strategies[fifo].repeatMaxCount=0: strategies: no element labelled \"fifo\""))
    }

    @Test("sweep.csv is byte-identical for any thread count")
    func threadsDoNotMatter() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for threads in ["1", "3"] {
            let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,2", "--threads", threads,
                                 "--out", folder + "/t" + threads, "--quiet"])
            #expect(sweep.code == .success, "\(sweep.err)")
        }
        let one = try #require(contents(folder + "/t1/sweep.csv")), three = try #require(contents(folder + "/t3/sweep.csv"))
        #expect(one == three)
        #expect(one.split(separator: "\n").count == 5)
    }

    @Test("--format json: every point's swept values and every strategy's rates")
    func json() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].collapseID=true,false", "--format", "json",
                             "--out", folder + "/j", "--strategy", "queue"])
        #expect(sweep.code == .success, "\(sweep.err)")
        let root = try JSONParser.parse(sweep.out)
        guard case .object(let object) = root.value, case .array(let points)? = object["points"]?.value else {
            Issue.record("no points: \(sweep.out)")
            return
        }
        #expect(points.count == 2)
        #expect(sweep.out.contains("\"paths\":[\"strategies[1].collapseID\"]"))
        #expect(sweep.out.contains("\"set\":{\"strategies[1].collapseID\":\"false\"}"))
        #expect(sweep.out.contains("\"label\":\"queue\""))
        #expect(!sweep.out.contains("\"label\":\"no-queue\""))
        let quiet = pushsim(["sweep", folder + "/s.json", "--set", "seed=1,2", "--out", folder + "/q", "--quiet"])
        #expect(quiet.code == .success && quiet.out.isEmpty && quiet.err.isEmpty)
    }

    @Test("the stdout table shows each rate ± its standard error, as sweep.csv has them, and – where nothing was counted")
    func tableShowsStandardErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,3", "--out", folder + "/t"])
        #expect(sweep.code == .success, "\(sweep.err)")
        let csv = try #require(contents(folder + "/t/sweep.csv")).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let lines = sweep.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + 4 + 1 && lines.last == "(± standard error)")
        for (row, line) in zip(csv.dropFirst(), lines.dropFirst()) {
            for name in SweepReport.chartedMetrics.map(\.name) {
                let rate = row[csv[0].firstIndex(of: name)!], error = row[csv[0].firstIndex(of: name + "_se")!]
                #expect(line.contains(rate + " ± " + error), "\(line) \(name)")
            }
        }
        // Without launches nothing is measured: the cell says so rather than staying blank.
        let unmeasured = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,3",
                                  "--set", "device.launches.perDay=0", "--out", folder + "/u"])
        #expect(unmeasured.code == .success, "\(unmeasured.err)")
        #expect(unmeasured.out.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.contains("  –  ") })
    }

    @Test("sweep.html draws no empty chart: a rate nothing measured says why instead, and the other charts have points")
    func noEmptyCharts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,3",
                             "--set", "device.launches.perDay=0", "--out", folder + "/e", "--quiet"])
        #expect(sweep.code == .success, "\(sweep.err)")
        let html = try #require(contents(folder + "/e/sweep.html"))
        #expect(!html.contains("data-chart=\"sweep-measured_deliverability"))
        #expect(html.contains("<section id=\"measured_deliverability\">\n<h2>measured deliverability</h2>\n<p class=\"empty\">No chart: "
                              + "nothing was measured. The talk&#39;s method counts only the mail of users who launch the app"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == SweepReport.chartedMetrics.count - 1)
        #expect(!html.contains("data-points=\"0\""))
    }

    @Test("sweep.html names its axes and captions by the field's title and unit, not its path, and shows the field's help")
    func axesNamedByField() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "connectivity.offline.mean=20m,2h",
                             "--set", "strategies[1].repeatMaxCount=0,3", "--out", folder + "/n", "--quiet"])
        #expect(sweep.code == .success, "\(sweep.err)")
        let html = try #require(contents(folder + "/n/sweep.html"))
        #expect(html.contains(">offline mean (h; connectivity)</text>"))
        #expect(html.contains("<figcaption>repeatMaxCount (strategy queue) = 3</figcaption>"))
        #expect(!html.contains(">connectivity.offline.mean</text>") && !html.contains(">connectivity.offline.mean (h)</text>"))
        #expect(html.contains("<dt>swept</dt><dd>offline mean (connectivity): <code>connectivity.offline.mean</code> = 20m, 2h"
                              + "<br><span class=\"help\">length of offline periods (mean &gt; 0; with online); the mean (&gt; 0)</span></dd>"))
        #expect(html.contains(">deliverability (%)</text>") && html.contains(">pushes per message (APNs requests per mail)</text>"))
    }

    @Test("sweep.html names, under a chart, the strategies whose lines lie on each other and where")
    func coincidingLinesNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // At repeatMaxCount 0 the queue re-requests nothing: one push a message, as no-queue.
        let sweep = pushsim(["sweep", folder + "/s.json", "--set", "strategies[1].repeatMaxCount=0,3", "--out", folder + "/c", "--quiet"])
        #expect(sweep.code == .success, "\(sweep.err)")
        let html = try #require(contents(folder + "/c/sweep.html"))
        let pushes = try #require(html.components(separatedBy: "<section id=\"pushes_per_message\">").last)
        #expect(pushes.contains("drawn in alternating dashes of their colours: queue lies on no-queue at repeatMaxCount (strategy queue) = 0."))
    }

    /// docs/sweeps.md's `pushsim sweep` command lines, run as shown but on fewer devices and days.
    @Test("docs/sweeps.md's sweep examples run as shown (on 10 devices for 7 days)")
    func documentedExamples() throws {
        let readme = try #require(contents(Self.repository + "/docs/sweeps.md"))
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("pushsim sweep scenarios/") }
        #expect(lines.count >= 2, "docs/sweeps.md shows no 'pushsim sweep scenarios/…' example")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (index, line) in lines.enumerated() {
            var arguments = Self.shellWords(String(line))
            arguments.removeFirst()   // pushsim
            arguments = arguments.map { $0.hasPrefix("scenarios/") ? Self.repository + "/" + $0 : $0 }
            if let out = arguments.firstIndex(of: "--out") { arguments.removeSubrange(out...min(out + 1, arguments.count - 1)) }
            let captured = CapturedConsole()
            let code = PushSimCommand.main(arguments + ["--set", "devices=10", "--set", "duration=7d", "--out", folder + "/\(index)", "--quiet"],
                                           console: captured.console)
            #expect(code == .success, "\(line): \(captured.err)")
            let csv = try #require(contents(folder + "/\(index)/sweep.csv"), "\(line)")
            #expect(csv.split(separator: "\n").count > 2, "\(line)")
        }
    }

    /// Words of a shell line: spaces split, single quotes group (as the documented examples use them).
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false
        for character in line {
            if character == "'" { quoted.toggle(); started = true; continue }
            if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
                continue
            }
            current.append(character)
            started = true
        }
        if started { words.append(current) }
        return words
    }
}
