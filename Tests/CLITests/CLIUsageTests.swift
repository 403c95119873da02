@testable import CLI
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Synchronization
import TestSupport
import Testing

/// What a new user sees: usage hints naming the command, the version, numbers as
/// plain digits, shard counts that fit the population, and merge naming what differs.
@Suite("Command line: usage, version and merge checks")
struct CLIUsageTests {
    static let scenarioText = """
    { "name": "usage", "seed": 3, "start": "2026-03-02", "duration": "2d", "devices": 7,
      "mail": { "perDay": 10 },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }
    """

    /// Runs the CLI in-process.
    private func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        CapturedConsole.run(arguments)
    }

    private func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-usage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func scenario(in folder: String, _ text: String = scenarioText, name: String = "s.json") throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Usage hints

    @Test("a usage error in a command points at that command's help", arguments: [
        (["run", "x.json", "--bogus"], "run"),
        (["run"], "run"),
        (["validate"], "validate"),
        (["validate", "a.json", "--bogus"], "validate"),
        (["merge", "p"], "merge"),
        (["bench", "x.json", "--threads", "0"], "bench"),
        (["version", "extra"], "version"),
        (["sweep", "x.json"], "sweep"),
        (["sweep", "x.json", "--set", "seed=1,2", "--bogus"], "sweep"),
        (["schema", "extra"], "schema"),
    ])
    func usageHintNamesTheCommand(arguments: [String], command: String) {
        let result = pushsim(arguments)
        #expect(result.code == .usage)
        #expect(result.err.hasSuffix("\n(see 'pushsim help \(command)')\n"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 2)
        #expect(result.out == "")
    }

    @Test("an unknown command still points at the top-level help")
    func unknownCommandPointsAtTopLevelHelp() {
        let result = pushsim(["frobnicate"])
        #expect(result.code == .usage)
        #expect(result.err.hasSuffix("\n(see 'pushsim help' or '--help')\n"))
    }

    // MARK: Version

    @Test("pushsim --version and pushsim version print the version and exit 0", arguments: [["--version"], ["version"]])
    func versionIsPrinted(arguments: [String]) {
        let result = pushsim(arguments)
        #expect(result.code == .success)
        #expect(result.out == "pushsim \(PushSimCommand.version)\n")
        #expect(result.err == "")
    }

    @Test("the version is semantic (major.minor.patch) and the top-level help lists the command")
    func versionIsSemanticAndListed() throws {
        let parts = PushSimCommand.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(PushSimCommand.help.contains("\n  version    "))
        let help = pushsim(["help", "version"])
        #expect(help.code == .success)
        #expect(help.out.contains("USAGE: pushsim version"))
    }

    // MARK: Numbers are plain digits

    @Test("numbers with a sign are refused (Swift's parser would take '+5')", arguments: [
        (["--seed", "+5"], "--seed"), (["--threads", "+2"], "--threads"), (["--shard", "+1/2"], "--shard"),
        (["--shard", "1/+2"], "--shard"), (["--seed", " 5"], "--seed"),
    ])
    func signedNumbersAreRefused(options: [String], option: String) {
        let result = pushsim(["run", "x.json"] + options)
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: invalid value '\(options[1])' for '\(option)': expected "), "\(result.err)")
    }

    @Test("bench refuses a signed number too")
    func benchRefusesSignedNumbers() {
        let result = pushsim(["bench", "x.json", "--devices", "+10"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: invalid value '+10' for '--devices'"))
    }

    @Test("plain integers parse; anything else does not")
    func plainIntegers() {
        #expect(ArgumentScanner.plainInteger("0") == 0 as Int?)
        #expect(ArgumentScanner.plainInteger("0042") == 42 as Int?)
        #expect(ArgumentScanner.plainInteger("9223372036854775807") == UInt64(Int64.max) as UInt64?)
        for text in ["", "+1", "-1", "1 ", "1e3", "١"] {
            #expect(ArgumentScanner.plainInteger(text) == nil as Int?, "\(text)")
        }
    }

    // MARK: Shard counts

    @Test("run --shard with more shards than devices exits 64 naming the device count, before writing anything")
    func moreShardsThanDevicesIsRefused() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = try scenario(in: root)
        let out = root + "/part"
        let result = pushsim(["run", path, "--shard", "1/8", "--out", out])
        #expect(result.code == .usage)
        #expect(result.err == "error: invalid value '1/8' for '--shard': expected K/N with N ≤ 7, the scenario's device count\n"
                + "(see 'pushsim help run')\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(pushsim(["run", path, "--shard", "7/7", "--out", out]).code == .success)
    }

    @Test("merge refuses a part with more shards than devices")
    func mergeRefusesMoreShardsThanDevices() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var scenario = try ScenarioDecoder.decode(Array(Self.scenarioText.utf8), file: "usage")
        scenario.devices = 7
        // Shard 1/9 of 7 devices holds none; such a part was never written by run.
        let result = try Simulation.run(scenario, users: Simulation.shardRange(index: 1, count: 9, devices: 7))
        let partial = PartialResult(scenarioText: Self.scenarioText, seed: 3, shard: (1, 9), result: result)
        try FileManager.default.createDirectory(atPath: root + "/p", withIntermediateDirectories: false)
        try Data(partial.encoded().utf8).write(to: URL(fileURLWithPath: root + "/p/partial.json"))
        let merged = pushsim(["merge", root + "/p", "--out", root + "/out"])
        #expect(merged.code == .dataError)
        #expect(merged.err == "error: \(root)/p/partial.json: shard 1/9 of a scenario of 7 devices: "
                + "there are at most as many shards as devices\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
    }

    // MARK: Merge names what differs

    @Test("merge names both parts and what differs: scenario text, seed, strategy set or shard count")
    func mergeNamesTheDifference() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = try scenario(in: root)
        let other = try scenario(in: root, Self.scenarioText.replacingOccurrences(of: "\"perDay\": 10", with: "\"perDay\": 11"),
                                 name: "other.json")
        func part(_ name: String, _ arguments: [String]) throws -> String {
            let out = root + "/" + name
            let result = pushsim(["run"] + arguments + ["--out", out])
            try #require(result.code == .success, "\(result.err)")
            return out
        }
        let first = try part("first", [path, "--shard", "1/2"])
        let cases: [(part: String, difference: String)] = [
            (try part("text", [other, "--shard", "2/2"]), "the scenario texts differ"),
            (try part("seed", [path, "--shard", "2/2", "--seed", "4"]), "seed 4 against 3"),
            (try part("strategies", [path, "--shard", "2/2", "--strategy", "queue"]), "strategies queue against no-queue, queue"),
            (try part("count", [path, "--shard", "2/3"]), "shard 2/3 against 1/2 (another shard count)"),
        ]
        for (second, difference) in cases {
            let result = pushsim(["merge", first, second, "--out", root + "/out"])
            #expect(result.code == .dataError)
            #expect(result.err == "error: \(second)/partial.json and \(first)/partial.json are parts of different runs: "
                    + difference + "\n")
            #expect(!FileManager.default.fileExists(atPath: root + "/out"))
        }
    }
}
