@testable import CLI
import Foundation
import TestSupport
import Testing

/// A scenario's `events` on the command line: `run` plays them and traces them; `run` and
/// `serve` refuse one naming an app its device does not have under the run's seed.
@Suite("CLI: steering events")
struct SteeringCommandTests {
    static let scenario = """
    { "name": "steered", "seed": 4, "start": "2026-01-05", "duration": "1d", "devices": 3,
      "mail": { "perDay": 48 },
      "strategies": [ { "name": "no-queue" } ],
      "events": [ { "at": "2026-01-05T06:00:00Z", "device": 1, "action": "offline" },
                  { "at": "2026-01-05T18:00:00Z", "device": 1, "action": "online" } ] }
    """

    @Test("run plays a dated offline window: the traced device shows both steered events, and mail meanwhile is coalesced")
    func runPlaysEvents() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("steered.json", Self.scenario)
        let result = CapturedConsole.run(["run", file, "--out", scratch.file("out"), "--trace", "1"])
        #expect(result.code == .success, "\(result.err)")
        let trace = try String(contentsOfFile: scratch.file("out/trace.jsonl"), encoding: .utf8)
        let steered = trace.split(separator: "\n").filter { $0.contains("\"steered\"") }
        #expect(steered.count == 2, "\(trace.prefix(600))")
        #expect(steered.first?.contains("\"offline\"") == true && steered.last?.contains("\"online\"") == true)
        let summary = try String(contentsOfFile: scratch.file("out/summary.csv"), encoding: .utf8)
        let lines = summary.split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        let coalesced = try #require(header.firstIndex(of: "lost_apns_coalesced"))
        // 12 h offline at 48 mails a day: about 24 arrive, all but the newest coalesced.
        #expect((Int(row[coalesced]) ?? 0) > 5, "\(summary.prefix(400))")
    }

    @Test("an event naming an app its device does not have under the run's seed: run, validate and serve exit 65, naming the field")
    func appBeyondTheDeviceRefused() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("steered.json", Self.scenario.replacingOccurrences(
            of: #""device": 1, "action": "online""#, with: #""device": 1, "app": 1, "action": "launch""#))
        let expected = "error: \(file): events[1].app: device 1 has 1 app under seed 4 (device.apps draws them), so app 1 does not exist; apps count from 0\n"
        let run = CapturedConsole.run(["run", file, "--out", scratch.file("out")])
        #expect(run.code == .dataError)
        #expect(run.err == expected)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
        let validate = CapturedConsole.run(["validate", file])
        #expect(validate.code == .dataError && validate.err == expected && validate.out == "")
        let serve = CapturedConsole.run(["serve", file, "--clock", "controlled", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0"])
        #expect(serve.code == .dataError)
        #expect(serve.err == expected)
    }
}
