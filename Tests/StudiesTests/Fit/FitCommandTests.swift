@testable import CLI
import Foundation
@testable import ScenarioFormat
@testable import Simulator
@testable import Studies
import TestSupport
import Testing
import TestThreads

/// `pushsim measure` and `pushsim fit` end to end, in-process: what they write, that the
/// same inputs give the same bytes, and the one-line errors and refusals before anything
/// is written.
@Suite("Fit command", .ownThread(.computing))
struct FitCommandTests {
    /// 13 measured days, 60 devices, users launching once a day or so.
    static let scenarioText = """
    { "name": "small-fit", "seed": 3, "start": "2026-03-02", "duration": "14d", "devices": 60,
      "mail": { "perDay": 12 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                        "offline": { "distribution": "exponential", "mean": "1h" } },
      "device": { "launches": { "perDay": 1 }, "taps": { "probability": 0.1 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 5 }] }
    """

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-fit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(scenarioText.utf8).write(to: URL(fileURLWithPath: path + "/s.json"))
        return path
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("measure writes the scenario's measured days; fit reads them back to a written, repeatable answer")
    func measureThenFit() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let measured = CapturedConsole.run(["measure", folder + "/s.json", "--set", "connectivity.offline.mean=40m", "--seed", "11",
                                            "--set", "devices=200"])
        #expect(measured.code == .success, "\(measured.err)")
        let lines = measured.out.split(separator: "\n")
        #expect(lines.first == "date,time_zone,mail,sent,logged,launches,console_received,console_delivered")
        // 14 simulated days, the last cut short: 13 rows.
        #expect(lines.count == 14 && lines[1].hasPrefix("2026-03-02,UTC,") && lines[13].hasPrefix("2026-03-14,UTC,"))
        // --out writes the same bytes, whole.
        #expect(CapturedConsole.run(["measure", folder + "/s.json", "--set", "connectivity.offline.mean=40m", "--seed", "11",
                                     "--set", "devices=200", "--out", folder + "/m.csv"]).code == .success)
        #expect(Self.read(folder + "/m.csv") == measured.out)

        let arguments = ["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m..2h", "--grid", "5"]
        let fit = CapturedConsole.run(arguments + ["--out", folder + "/a"])
        #expect(fit.code == .success, "\(fit.err)")
        #expect(fit.out.contains("connectivity.offline.mean  10m..2h"))
        #expect(fit.out.contains("goodness of fit: chi-square"))
        #expect(fit.out.contains("queue  ") && fit.out.contains("no-queue (measured)"))
        #expect(fit.err.hasPrefix("fit: 5 points, 10 strategy runs, about "))
        #expect(fit.err.contains("point 5/5: connectivity.offline.mean=7200s"))
        for name in FitReport.fileNames { #expect(FileManager.default.fileExists(atPath: folder + "/a/" + name), "\(name)") }

        let parameters = Self.read(folder + "/a/fit-parameters.csv").split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(parameters[0].joined(separator: ",") == FitReport.parameterColumns.joined(separator: ","))
        let row = parameters[1].map(String.init)
        let (estimate, low, high) = (Double(row[4])!, Double(row[5])!, Double(row[6])!)
        #expect(row[0] == "connectivity.offline.mean" && row[1] == "s" && row[2] == "600" && row[3] == "7200")
        #expect(low < estimate && estimate < high && 600 <= low && high <= 7200)
        // 200 measured devices at 40 min: the interval is where the truth is, give or take.
        #expect(low < 2400 * 1.5 && high > 2400 / 1.5, "\(row)")
        let days = Self.read(folder + "/a/fit-days.csv").split(separator: "\n")
        #expect(days.first == Substring(FitReport.dayColumns.joined(separator: ",")))
        #expect(days.count == 1 + 13 * FitStatistic.allCases.count)
        let prediction = Self.read(folder + "/a/fit-prediction.csv").split(separator: "\n")
        #expect(prediction.first == Substring(FitReport.predictionColumns.joined(separator: ",")))
        #expect(prediction[1].hasPrefix("no-queue,true,") && prediction[2].hasPrefix("queue,false,"))

        // The fitted scenario decodes, with the estimate in place and the measured period.
        let fittedText = Self.read(folder + "/a/fitted.json")
        let fitted = try ScenarioDecoder.decode(Array(fittedText.utf8), file: "fitted.json")
        let offline = try #require(fittedText.range(of: "\"offline\": {")).upperBound
        let meanText = fittedText[offline...].split(separator: "\"mean\": \"", maxSplits: 1)[1].prefix { $0 != "s" }
        #expect(abs(try #require(Double(meanText)) - estimate) <= 1)
        #expect(fitted.start.description == "2026-03-02" && fitted.dayCount == 14)
        #expect(fitted.description.contains("Fitted by pushsim fit to "))

        // The same inputs, the same bytes (the command line on the page aside).
        #expect(CapturedConsole.run(arguments + ["--out", folder + "/b", "--threads", "1"]).code == .success)
        for name in FitReport.fileNames where name != "fit.html" {
            #expect(Self.read(folder + "/a/" + name) == Self.read(folder + "/b/" + name), "\(name)")
        }
    }

    @Test("bad arguments and files are one line and exit 64 or 65, before anything runs or is written")
    func refusedFirst() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let header = "date,time_zone,mail,sent,logged\n"
        let week = (2...9).map { "2026-03-0\($0 > 9 ? 9 : $0),UTC,100,90,80\n" }.joined()
        try Data((header + week).utf8).write(to: URL(fileURLWithPath: folder + "/m.csv"))
        try Data((header + "2026-03-02,UTC,100,90,80\n2026-03-03,UTC,100,90,95\n").utf8).write(to: URL(fileURLWithPath: folder + "/bad.csv"))
        try Data((header + "2026-03-02,UTC,100,90,80\n2026-03-03,UTC,100,90,85\n").utf8).write(to: URL(fileURLWithPath: folder + "/short.csv"))
        // An outage dated in the scenario's own period, after the measured week's.
        let dated = Self.scenarioText.replacingOccurrences(
            of: #""devices": 60,"#, with: #""devices": 60, "provider": { "outages": { "scheduled": [{ "start": "2026-03-14T10:00", "duration": "1h" }] } },"#)
        try Data(dated.utf8).write(to: URL(fileURLWithPath: folder + "/dated.json"))
        let cases: [([String], ExitCode, String)] = [
            (["fit", folder + "/s.json"], .usage, "error: missing the measured figures"),
            (["fit", folder + "/s.json", folder + "/m.csv"], .usage, "error: missing --vary"),
            (["fit", folder + "/s.json", folder + "/bad.csv", "--vary", "devices=1..2"], .dataError,
             "error: \(folder)/bad.csv:3:23: logged: 95 is more than sent (90)"),
            (["fit", folder + "/s.json", folder + "/short.csv", "--vary", "connectivity.offline.mean=10m..1h"], .dataError,
             "error: \(folder)/short.csv: 2 measured days with figures; a fit needs at least 7"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=1h..10m"], .dataError,
             "error: --vary connectivity.offline.mean=1h..10m: the range is empty"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m,1h"], .dataError,
             "error: --vary connectivity.offline.mean=10m,1h: expected PATH=LOW..HIGH"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m..2"], .dataError,
             "error: --vary connectivity.offline.mean=10m..2: the ends must be two numbers"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "devices=0.5..3"], .dataError,
             "error: --vary devices=0.5..3: devices: "),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--vary", "mail.perDay=2..3"], .dataError,
             "error: --vary mail.perDay=2..3: mail.perDay is varied twice"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "seed=1..2", "--vary", "devices=1..2", "--vary", "mail.perDay=1..2",
              "--vary", "device.launches.perDay=1..2"], .dataError, "error: --vary: vary 1 to 3 fields"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--measured-strategy", "nope"], .usage,
             "error: no strategy 'nope' in the scenario"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--grid", "4"], .usage,
             "error: invalid value '4' for '--grid': expected an integer from 5 to 21"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m...2h"], .dataError,
             "error: --vary connectivity.offline.mean=10m...2h: expected PATH=LOW..HIGH with two dots"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=1h..1h"], .dataError,
             "error: --vary connectivity.offline.mean=1h..1h: the range has no width"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "nosuch.field=1..2"], .dataError,
             "error: --vary nosuch.field=1..2: nosuch: unknown field"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--set", "mail.perDay=3"], .dataError,
             "error: --vary mail.perDay=1..2: mail.perDay is varied and also set (--set mail.perDay=3): drop one"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--guess", "mail.perDay=1..3"], .dataError,
             "error: --guess mail.perDay=1..3: mail.perDay is both varied and guessed: drop one"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--guess", "provider.backoff=1s..2s",
              "--guess", "provider.backoff=2s..3s"], .dataError, "error: --guess provider.backoff=2s..3s: provider.backoff is guessed twice"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--guess", "nosuch.field=1..2"], .dataError,
             "error: --guess nosuch.field=1..2: nosuch: unknown field"),
            (["fit", folder + "/s.json", folder + "/m.csv", "--vary", "mail.perDay=1..2", "--guess", "provider.backoff=2..1"], .dataError,
             "error: --guess provider.backoff=2..1: the range is empty"),
            (["measure", folder + "/s.json", "--measured-strategy", "nope"], .usage, "error: no strategy 'nope' in the scenario"),
            (["fit", folder + "/dated.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m..1h"], .dataError,
             "error: \(folder)/dated.json:1:"),
        ]
        for (arguments, code, message) in cases {
            let captured = CapturedConsole()
            let result = PushSimCommand.main(arguments + ["--out", folder + "/out"], console: captured.console)
            #expect(result == code, "\(arguments): \(captured.err)")
            #expect(captured.err.hasPrefix(message), "\(arguments): \(captured.err)")
            #expect(captured.err.split(separator: "\n").count <= 2, "\(captured.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        }
        // A field dated outside the measured days says the fit replaced the scenario's period.
        let captured = CapturedConsole()
        _ = PushSimCommand.main(["fit", folder + "/dated.json", folder + "/m.csv", "--vary", "connectivity.offline.mean=10m..1h"],
                                console: captured.console)
        #expect(captured.err.contains("provider.outages.scheduled[0].start: starts at or after the end of the run (the fit runs the "
                                      + "measured days, 2026-03-02 for 9 days, in place of the scenario's start and duration"), "\(captured.err)")
    }

    @Test("a field the measured strategy does not read is refused as not identified: exit 65, one line, nothing written")
    func notIdentified() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(CapturedConsole.run(["measure", folder + "/s.json", "--seed", "5", "--out", folder + "/m.csv"]).code == .success)
        // How long the provider keeps payloads matters to the queue's re-requests only: the
        // measured strategy, no-queue, sends and logs the same whatever it is.
        let fit = CapturedConsole.run(["fit", folder + "/s.json", folder + "/m.csv", "--vary", "provider.payloadTTL=6h..48h",
                                       "--grid", "5", "--quiet", "--out", folder + "/out"])
        #expect(fit.code == .dataError)
        #expect(fit.err.hasPrefix("error: \(folder)/m.csv: provider.payloadTTL (6h..2d) is not identified by these figures"), "\(fit.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test("schema measured prints the shipped table schema")
    func schema() {
        let printed = CapturedConsole.run(["schema", "measured"])
        #expect(printed.code == .success && printed.out == MeasuredSchema.text)
        #expect(CapturedConsole.run(["schema", "other"]).code == .usage)
    }
}
