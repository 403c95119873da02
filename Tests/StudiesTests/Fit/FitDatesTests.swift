import Base
import Foundation
@testable import ScenarioFormat
@testable import Studies
import Testing

/// A scenario's dated fields outside the measured days (docs/fit.md, "Dates by rule"): the
/// fit refuses before anything runs, with the exact `--set`s that move them in, and those
/// `--set`s make the design decode.
@Suite("Fit dates")
struct FitDatesTests {
    static let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scenarios/mail-january-february.json").path

    /// The shipped scenario (a scheduled outage on 2026-02-10, the rollout from 2026-02-01, its
    /// start 2026-01-01) against 14 days measured from 2026-05-01.
    @Test("dated fields outside the measured days are refused with the exact --set that moves them in, and that --set works")
    func datesByRule() throws {
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-fit-dates-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: csv) }
        var text = "date,time_zone,mail,sent,logged\n"
        for day in 1...14 { text += "2026-05-\(day < 10 ? "0" : "")\(day),UTC,1000,900,800\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        let series = try MeasuredSeries.read(path: csv, standardInput: -1)
        let bytes = try FileBytes.read(path: Self.scenario)
        func study(_ sets: [String]) throws -> FitStudy {
            FitStudy(scenarioBytes: bytes, file: "mail-january-february.json", series: series,
                     ranges: [try FitRange("device.launches.perDay=0.3..3")], sets: try sets.map { try ScenarioOverride($0) },
                     seed: nil, measuredLabel: nil, nodesPerAxis: 5)
        }
        var message = ""
        do { _ = try study([]).design() } catch { message = "\(error)" }
        // The rollout came 31 days after the scenario's start: held at the last measured day, 13 days in.
        #expect(message.contains("--set 'strategies[rollout].from=2026-05-14' --set 'provider.outages.scheduled=[]'"), "\(message)")
        let design = try study(["strategies[rollout].from=2026-05-14", "provider.outages.scheduled=[]"]).design()
        #expect(design.scenarios.count == 5)
    }

    @Test("a list keeps the elements inside the measured days and drops the others")
    func listKeepsInside() {
        let bytes = Array(#"{"start": "2026-01-01", "a": {"b": [{"start": "x"}, {"start": "y"}, {"start": "z"}]}}"#.utf8)
        let errors = [ScenarioError(.invalidValue("outside"), file: "s.json", path: "a.b[0].start", location: nil),
                      ScenarioError(.invalidValue("outside"), file: "s.json", path: "a.b[2].start", location: nil)]
        let fixes = FitStudy.dateFixes(errors, bytes: bytes, labels: [], first: CivilDate(iso: "2026-05-01")!, last: CivilDate(iso: "2026-05-30")!)
        #expect(fixes == [#"a.b=[{"start":"y"}]"#])
    }
}
