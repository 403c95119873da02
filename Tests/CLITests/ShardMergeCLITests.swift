@testable import CLI
import Foundation
@testable import Reports
import Synchronization
import TestSupport
import Testing

/// `pushsim run --shard` then `pushsim merge`, through the command line, against one run.
@Suite("Shard and merge through the CLI")
struct ShardMergeCLITests {
    static let scenarioJSON = CommandFixtures.shardedJSON

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("three shards merged give the same bytes as one run in every report file")
    func shardsMergeToTheSameBytes() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let scenario = root.appendingPathComponent("s.json").path
        try Self.scenarioJSON.write(toFile: scenario, atomically: true, encoding: .utf8)
        let whole = root.appendingPathComponent("whole").path
        #expect(PushSimCommand.main(["run", scenario, "--out", whole, "--threads", "2"], console: CapturedConsole().console) == .success)
        var parts: [String] = []
        for index in 1...3 {
            let part = root.appendingPathComponent("part\(index)").path
            #expect(PushSimCommand.main(["run", scenario, "--shard", "\(index)/3", "--out", part, "--threads", "1"],
                                        console: CapturedConsole().console) == .success)
            #expect(FileManager.default.fileExists(atPath: part + "/partial.json"))
            #expect(!FileManager.default.fileExists(atPath: part + "/summary.csv"))
            parts.append(part)
        }
        let merged = root.appendingPathComponent("merged").path
        let captured = CapturedConsole()
        // Order of the parts does not matter.
        #expect(PushSimCommand.main(["merge", parts[2], parts[0], parts[1], "--out", merged], console: captured.console) == .success)
        for file in Reports.fileNames {
            let a = try Data(contentsOf: URL(fileURLWithPath: whole + "/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: merged + "/" + file))
            #expect(a == b, "\(file) differs")
        }
        #expect(captured.out.contains("sharded"))
    }

    @Test("merge refuses a missing shard, a shard given twice, and parts of another seed, with exit 65")
    func mergeRefusesIncompleteOrMixedParts() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let scenario = root.appendingPathComponent("s.json").path
        try Self.scenarioJSON.write(toFile: scenario, atomically: true, encoding: .utf8)
        func part(_ index: Int, seed: Int = 11) -> String {
            let path = root.appendingPathComponent("p\(index)-\(seed)").path
            _ = PushSimCommand.main(["run", scenario, "--shard", "\(index)/2", "--seed", "\(seed)", "--out", path],
                                    console: CapturedConsole().console)
            return path
        }
        let one = part(1), two = part(2), otherSeed = part(2, seed: 12)
        let out = root.appendingPathComponent("out").path
        for (parts, message) in [([one], "shards missing: 2/2"), ([one, one], "given twice"),
                                 ([one, otherSeed], "are parts of different runs: seed 12 against 11")] {
            let captured = CapturedConsole()
            #expect(PushSimCommand.main(["merge"] + parts + ["--out", out], console: captured.console) == .dataError)
            #expect(captured.err.contains(message), "\(captured.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        #expect(PushSimCommand.main(["merge", one, two, "--out", out], console: CapturedConsole().console) == .success)
    }

    @Test("merge names a damaged part (impossible shard, wrong user count, counts that do not add up) and exits 65")
    func mergeNamesADamagedPart() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let scenario = root.appendingPathComponent("s.json").path
        try Self.scenarioJSON.write(toFile: scenario, atomically: true, encoding: .utf8)
        let one = root.appendingPathComponent("p1").path, two = root.appendingPathComponent("p2").path
        for (index, path) in [one, two].enumerated() {
            try #require(PushSimCommand.main(["run", scenario, "--shard", "\(index + 1)/2", "--out", path],
                                             console: CapturedConsole().console) == .success)
        }
        let original = try String(contentsOfFile: one + "/partial.json", encoding: .utf8)
        // 37 devices in two shards: the first has 18.
        try #require(original.contains("\"shard\":[1,2]") && original.contains("\"users\":18,"))
        let firstCount = try #require(original.firstRange(of: /"counts":\[(\d+),/))
        let messages = try #require(Int(original[firstCount].dropFirst(10).dropLast()))
        let damaged = [
            (original.replacingOccurrences(of: "\"shard\":[1,2]", with: "\"shard\":[0,2]"), "damaged partial result (shard 0/2)"),
            (original.replacingOccurrences(of: "\"shard\":[1,2]", with: "\"shard\":[3,2]"), "damaged partial result (shard 3/2)"),
            (original.replacingOccurrences(of: "\"users\":18,", with: "\"users\":17,"),
             "damaged partial result (17 users; shard 1/2 of 37 devices has 18)"),
            (original.replacingCharacters(in: firstCount, with: "\"counts\":[\(messages + 1),"),
             "damaged partial result (strategy no-queue: "),
        ]
        let out = root.appendingPathComponent("out").path
        for (text, message) in damaged {
            try text.write(toFile: one + "/partial.json", atomically: true, encoding: .utf8)
            let captured = CapturedConsole()
            #expect(PushSimCommand.main(["merge", one, two, "--out", out], console: captured.console) == .dataError)
            let err = captured.err
            #expect(err.hasPrefix("error: \(one)/partial.json: \(message)"), "\(err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
