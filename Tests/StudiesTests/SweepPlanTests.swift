@testable import CLI
import Foundation
@testable import ScenarioFormat
@testable import Simulator
@testable import Studies
import Synchronization
import TestSupport
import Testing

/// A sweep simulates a strategy again only where the swept values change it: a field of
/// `strategies[i]` changes strategy i alone, a chain or population field changes all;
/// the strategies reused give the same bytes as simulating them again.
@Suite("Sweep reuse")
struct SweepPlanTests {
    /// Three strategies, 10 devices for 3 days.
    static let scenarioText = """
    { "name": "reusable", "seed": 8, "start": "2026-03-02", "duration": "3d", "devices": 10,
      "mail": { "perDay": 20 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "40m" } },
      "device": { "launches": { "perDay": 5 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }, { "name": "queue-as-published" }] }
    """

    static func scenarios(_ sets: [String]) throws -> [Scenario] {
        let grid = SweepGrid(try sets.map { try SweepAxis($0) })
        return try grid.points.map { try ScenarioDecoder.decode(Array(scenarioText.utf8), file: "s.json", overrides: grid.overrides($0)) }
    }

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-reuse-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(Self.scenarioText.utf8).write(to: URL(fileURLWithPath: path + "/s.json"))
        return path
    }

    @Test("a strategy's field re-simulates that strategy alone; a chain field every strategy; a value seen before nothing")
    func plans() throws {
        let strategyField = SweepPlan(try Self.scenarios(["strategies[1].repeatMaxCount=0,1,2"]))
        #expect((0..<3).map { strategyField.simulated($0) } == [[0, 1, 2], [1], [1]])
        #expect(strategyField.sources[2][0] == SweepPlan.Run(point: 0, strategy: 0))
        #expect(strategyField.runs == 5 && strategyField.runsWithoutReuse == 9)
        let chainField = SweepPlan(try Self.scenarios(["connectivity.offline.mean=20m,2h"]))
        #expect(chainField.runs == 6)
        // A grid of two strategies' fields: each strategy runs once per value of its own field.
        let grid = SweepPlan(try Self.scenarios(["strategies[1].repeatMaxCount=0,2", "strategies[2].repeatMaxCount=1,3"]))
        #expect((0..<4).map { grid.simulated($0) } == [[0, 1, 2], [2], [1], []])
        #expect(grid.sources[3] == [.init(point: 0, strategy: 0), .init(point: 2, strategy: 1), .init(point: 1, strategy: 2)])
        // The file's own value again: the first point's run serves.
        let again = SweepPlan(try Self.scenarios(["strategies[1].repeatMaxCount=4,0,4"]))
        #expect(again.simulated(2).isEmpty && again.runs == 4)
        #expect(SweepPlan(try Self.scenarios(["strategies[1].repeatMaxCount=0,1"]), reusing: false).runs == 6)
    }

    @Test("strategies the swept field does not touch are not simulated again: the sweep asks for one strategy run per point after the first")
    func untouchedStrategiesRunOnce() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let asked = Mutex<[[String]]>([])
        let captured = CapturedConsole()
        let code = SweepCommand.main([root + "/s.json", "--set", "strategies[1].repeatMaxCount=0..3", "--out", root + "/out"],
                                     console: captured.console) { scenario, users, threads, traced, progress in
            asked.withLock { $0.append(scenario.strategies.map(\.label)) }
            return try Simulation.run(scenario, users: users, threads: threads, tracing: traced, progress: progress)
        }
        #expect(code == .success, "\(captured.err)")
        #expect(asked.withLock { $0 } == [["no-queue", "queue", "queue-as-published"], ["queue"], ["queue"], ["queue"]])
        #expect(captured.err.hasPrefix("sweep: 4 points, 6 strategy runs instead of 12 (no-queue and queue-as-published "
                                       + "are the same at every point: run once), about "))
    }

    @Test("reuse changes no byte: sweep.csv, sweep.html and stdout (table and JSON) equal those of simulating every strategy at every point")
    func reuseIsByteIdentical() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let grids: [[String]] = [["strategies[1].repeatMaxCount=0,2,5"],
                                 ["strategies[2].collapseID=true,false", "connectivity.offline.mean=20m,1h"],
                                 ["strategies[0].priority=10,5", "strategies[1].repeatMaxCount=1,3"]]
        for (index, sets) in grids.enumerated() {
            for format in ["table", "json"] {
                var outputs: [[String]] = []
                for reusing in [true, false] {
                    let out = root + "/\(index)-\(format)-\(reusing)"
                    let captured = CapturedConsole()
                    // The same arguments (so the same command line on the page), another folder each.
                    let arguments = [root + "/s.json"] + sets.flatMap { ["--set", $0] } + ["--format", format, "--threads", "2"]
                    let code = SweepCommand.main(ArraySlice(arguments + ["--out", root + "/out"]), console: captured.console,
                                                 reusing: reusing)
                    #expect(code == .success, "\(captured.err)")
                    try FileManager.default.moveItem(atPath: root + "/out", toPath: out)
                    let files = try ["sweep.csv", "sweep.html"].map { try String(contentsOfFile: out + "/" + $0, encoding: .utf8) }
                    outputs.append([captured.out] + files)
                }
                #expect(outputs[0] == outputs[1], "\(sets) \(format)")
            }
        }
    }
}
