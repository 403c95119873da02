@testable import CLI
import Foundation
@testable import Reports
import ScenarioFormat
import Simulator
import TestSupport
import Testing

/// A scenario whose mail is a send log's (`sendLog`, docs/send-log.md), through the engine and the commands.
@Suite("Mail replayed from a send log")
struct SendLogRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let shipped = root + "/scenarios/send-log-replay.json"

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-sendlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the run's messages are the log's alert pushes to the scenario's devices, on any number of threads")
    func messagesAreTheLogsPushes() throws {
        let scenario = try ScenarioDecoder.load(path: Self.shipped).preparingSendLog()
        let tally = try #require(scenario.sendLog?.replay?.tally)
        let one = try Simulation.run(scenario, threads: 1)
        let three = try Simulation.run(scenario, threads: 3)
        #expect(one == three)
        for aggregate in one.aggregates {
            #expect(aggregate[.messages] == tally.alerts)
            #expect(aggregate.background[.sent] == tally.background)
        }
        #expect(tally.alerts > 1_000 && tally.beyondDevices > 0 && tally.otherTopic > 0)
    }

    @Test("shards of a replayed log merge to the same bytes as one run, and no user id reaches a report")
    func shardsMergeToTheSameBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole").path
        let captured = CapturedConsole()
        #expect(PushSimCommand.main(["run", Self.shipped, "--out", whole, "--threads", "2"], console: captured.console) == .success)
        #expect(captured.err.contains("send log: 3000 rows"), "\(captured.err)")
        var parts: [String] = []
        for index in 1...3 {
            let part = folder.appendingPathComponent("part\(index)").path
            #expect(PushSimCommand.main(["run", Self.shipped, "--shard", "\(index)/3", "--out", part],
                                        console: CapturedConsole().console) == .success)
            parts.append(part)
        }
        let merged = folder.appendingPathComponent("merged").path
        #expect(PushSimCommand.main(["merge"] + parts + ["--out", merged], console: CapturedConsole().console) == .success)
        let log = try String(contentsOfFile: Self.root + "/scenarios/logs/example-send-log.csv", encoding: .utf8)
        let ids = Set(log.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] })
        #expect(try FileManager.default.contentsOfDirectory(atPath: whole).contains(Reports.backgroundFileName))
        for file in try FileManager.default.contentsOfDirectory(atPath: whole) {
            let a = try Data(contentsOf: URL(fileURLWithPath: whole + "/" + file))
            // The page, result.json and run.json name the command that wrote them; the rest is the result's.
            if Reports.fileNames.contains(file) || file == Reports.backgroundFileName {
                #expect(a == (try Data(contentsOf: URL(fileURLWithPath: merged + "/" + file))), "\(file) differs")
            }
            let text = String(decoding: a, as: UTF8.self)
            #expect(!ids.contains { text.contains($0) }, "\(file) holds a user id of the log")
        }
    }

    @Test("a bad log stops the run before it starts, naming the line, and writes nothing")
    func badLogStopsTheRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "time,user,topic\n2026-03-02T09:00:00Z,secret-user,ru.yandex.mail\n2026-03-02T25:00:00Z,secret-user,ru.yandex.mail\n"
            .write(toFile: folder.appendingPathComponent("log.csv").path, atomically: true, encoding: .utf8)
        let scenario = try String(contentsOfFile: Self.shipped, encoding: .utf8)
            .replacingOccurrences(of: "logs/example-send-log.csv", with: "log.csv")
        try scenario.write(toFile: folder.appendingPathComponent("s.json").path, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let captured = CapturedConsole()
        #expect(PushSimCommand.main(["run", folder.appendingPathComponent("s.json").path, "--out", out], console: captured.console)
                == .dataError)
        #expect(captured.err.contains("log.csv:3: column time is not RFC 3339"), "\(captured.err)")
        #expect(!captured.err.contains("secret"))
        #expect(!FileManager.default.fileExists(atPath: out + "/summary.csv"))
    }

    @Test("sweep, check and measure (fit's simulation) take a scenario with a send log like any other")
    func sweepAndCheck() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let captured = CapturedConsole()
        #expect(PushSimCommand.main(["sweep", Self.shipped, "--set", "devices=50,100", "--out", folder.appendingPathComponent("sweep").path],
                                    console: captured.console) == .success, "\(captured.err)")
        let check = CapturedConsole()
        #expect(PushSimCommand.main(["check", Self.shipped, "--out", folder.appendingPathComponent("check").path],
                                    console: check.console) != .dataError, "\(check.err)")
        let measured = folder.appendingPathComponent("measured.csv").path
        let measure = CapturedConsole()
        #expect(PushSimCommand.main(["measure", Self.shipped, "--out", measured], console: measure.console) == .success, "\(measure.err)")
        // The days' mail adds up to the log's alert pushes of the days measured (the last day's uploads are not over).
        let rows = try String(contentsOfFile: measured, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(rows.count == 6 && rows.allSatisfy { Int($0.split(separator: ",")[2])! > 0 })
    }
}
