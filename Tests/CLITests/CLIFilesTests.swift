@testable import CLI
import Foundation
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Synchronization
import TestSupport
import Testing

/// How the command line reads scenarios (once, from pipes and standard input) and
/// writes its output (folder checked first, plain paths, the system's reasons, one
/// kind of output per folder).
@Suite("Command line: reading and writing files")
struct CLIFilesTests {
    /// 37 devices for 2 days, spelt with unusual spacing so a re-formatted copy would show.
    static let scenarioText = """
    {  "name": "files", "seed": 5, "start": "2026-03-02", "duration": "2d", "devices": 37,
       "mail": { "perDay": 12 },
       "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                         "offline": { "distribution": "exponential", "mean": "40m" } },
       "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 }] }

    """

    private func pushsim(_ arguments: [String], input: Int32 = STDIN_FILENO) -> (code: ExitCode, out: String, err: String) {
        let captured = CapturedConsole(input: input)
        let code = PushSimCommand.main(arguments, console: captured.console)
        return (code, captured.out, captured.err)
    }

    private func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// A pipe holding `text` with its writing end closed: reads once, then is empty.
    private func pipeHolding(_ text: String) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        try #require(Console.writeAll(text, to: ends[1]) == nil)   // fits in a pipe's buffer
        close(ends[1])
        return ends[0]
    }

    /// The scenario text a partial result carries.
    private func embeddedText(_ partialPath: String) throws -> String {
        let bytes = try #require(FileManager.default.contents(atPath: partialPath))
        return try PartialResult.decode(Array(bytes), file: partialPath).partial.scenarioText
    }

    // MARK: The scenario is read once

    @Test("a shard read from a pipe (<(…)) simulates and stores exactly the bytes it read in its partial")
    func shardFromAPipeKeepsTheBytesRead() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let descriptor = try pipeHolding(Self.scenarioText)
        defer { close(descriptor) }
        let out = root + "/part"
        let result = pushsim(["run", "/dev/fd/\(descriptor)", "--shard", "1/2", "--out", out])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.err == "wrote \(out)/partial.json (shard 1/2, 18 devices)\n")
        #expect(try embeddedText(out + "/partial.json") == Self.scenarioText)
    }

    @Test("a scenario edited after it was read does not change the partial: it holds what was simulated")
    func editAfterLoadDoesNotChangeThePartial() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = root + "/s.json", out = root + "/part"
        try write(Self.scenarioText, to: scenario)
        let edited = Self.scenarioText.replacingOccurrences(of: "\"seed\": 5", with: "\"seed\": 6")
        let code = RunCommand.main(["run", scenario, "--shard", "2/2", "--out", out].dropFirst(), console: CapturedConsole().console) {
            scenario0, users, threads, traced, progress in
            // The file changes while the simulation runs.
            try edited.write(toFile: scenario, atomically: false, encoding: .utf8)
            return try Simulation.run(scenario0, users: users, threads: threads, tracing: traced, progress: progress)
        }
        #expect(code == .success)
        #expect(contents(scenario) == edited)
        #expect(try embeddedText(out + "/partial.json") == Self.scenarioText)
    }

    // MARK: '-' is standard input

    @Test("run - reads the scenario from standard input and writes the same reports as from the file")
    func runReadsStandardInput() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = root + "/s.json"
        try write(Self.scenarioText, to: scenario)
        #expect(pushsim(["run", scenario, "--out", root + "/file"]).code == .success)
        let descriptor = try pipeHolding(Self.scenarioText)
        defer { close(descriptor) }
        let result = pushsim(["run", "-", "--out", root + "/stdin"], input: descriptor)
        #expect(result.code == .success, "\(result.err)")
        for name in Reports.fileNames {
            #expect(contents(root + "/stdin/" + name) != nil)
            #expect(contents(root + "/stdin/" + name) == contents(root + "/file/" + name), "\(name) differs")
        }
    }

    @Test("run --shard - keeps standard input's text in the partial")
    func shardFromStandardInput() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let descriptor = try pipeHolding(Self.scenarioText)
        defer { close(descriptor) }
        let result = pushsim(["run", "-", "--shard", "1/2", "--out", root + "/part"], input: descriptor)
        #expect(result.code == .success, "\(result.err)")
        #expect(try embeddedText(root + "/part/partial.json") == Self.scenarioText)
    }

    @Test("a bad scenario on standard input is named <stdin> with line and column, exit 65")
    func badStandardInputIsNamed() throws {
        let descriptor = try pipeHolding("{\n  \"name\": 5\n}\n")
        defer { close(descriptor) }
        let result = pushsim(["run", "-"], input: descriptor)
        #expect(result.code == .dataError)
        #expect(result.err.split(separator: "\n").contains { $0.hasPrefix("error: <stdin>:2:11: name: ") }, "\(result.err)")
        #expect(result.out == "")
    }

    @Test("the scenario loader reads '-' from the descriptor it is given and names it <stdin>")
    func loaderReadsTheGivenDescriptor() throws {
        let good = try pipeHolding(Self.scenarioText)
        defer { close(good) }
        let loaded = try ScenarioDecoder.loadKeepingBytes(path: "-", standardInput: good)
        #expect(loaded.scenario.name == "files")
        #expect(loaded.bytes == Array(Self.scenarioText.utf8))
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.loadKeepingBytes(path: "-", standardInput: -1) }
        do {
            _ = try ScenarioDecoder.loadKeepingBytes(path: "-", standardInput: -1)
        } catch {
            #expect("\(error)" == "<stdin>: cannot read the scenario: not open for reading")
        }
    }

    @Test("validate - reads the process's standard input")
    func validateReadsStandardInput() throws {
        // validate reads descriptor 0 itself; no other test reads it.
        let descriptor = try pipeHolding(Self.scenarioText)
        defer { close(descriptor) }
        let saved = dup(STDIN_FILENO)
        try #require(saved >= 0)
        try #require(dup2(descriptor, STDIN_FILENO) == STDIN_FILENO)
        let result = pushsim(["validate", "-"])
        dup2(saved, STDIN_FILENO)
        close(saved)
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.hasPrefix("ok: files: 37 devices, 2 days, 2 strategies (no-queue, queue)\ncost: "))
    }

    // MARK: The output folder is checked before simulating

    /// Runs `run` in-process and records whether it reached the simulation.
    private func runChecked(_ arguments: [String]) -> (code: ExitCode, out: String, err: String, simulated: Bool) {
        let captured = CapturedConsole()
        let simulated = Mutex(false)
        let code = RunCommand.main(ArraySlice(arguments), console: captured.console) { scenario, users, threads, traced, progress in
            simulated.withLock { $0 = true }
            return try Simulation.run(scenario, users: users, threads: threads, tracing: traced, progress: progress)
        }
        return (code, captured.out, captured.err, simulated.withLock { $0 })
    }

    @Test("an --out that cannot be a folder fails before simulating: exit 1, one line with the folder and the reason",
          arguments: [("file", "exists and is not a directory"),
                      ("file/reports", "cannot create the folder (Not a directory)"),
                      ("folder/file/a/b", "cannot create the folder (Not a directory)")])
    func impossibleOutFailsAtOnce(out: String, message: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = root + "/s.json"
        try write(Self.scenarioText, to: scenario)
        try write("a file\n", to: root + "/file")
        try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: false)
        try write("a file\n", to: root + "/folder/file")
        let target = root + "/" + out
        for shard in [[], ["--shard", "1/2"]] {
            let result = runChecked([scenario, "--out", target] + shard)
            #expect(result.code == .failure)
            #expect(!result.simulated)
            #expect(result.out == "")
            #expect(result.err == "error: \(target): \(message)\n")
        }
        #expect(listing(root) == ["file", "folder", "s.json"])
        #expect(listing(root + "/folder") == ["file"])
        #expect(contents(root + "/file") == "a file\n")
    }

    @Test("a report name taken by a folder fails before simulating")
    func reportNameTakenByAFolderFailsAtOnce() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        try FileManager.default.createDirectory(atPath: root + "/out/daily.csv", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/part/partial.json", withIntermediateDirectories: true)
        for (out, name, shard) in [("out", "daily.csv", [String]()), ("part", "partial.json", ["--shard", "1/2"])] {
            let result = runChecked([scenario, "--out", root + "/" + out] + shard)
            #expect(result.code == .failure)
            #expect(!result.simulated)
            #expect(result.err == "error: \(root)/\(out)/\(name): exists and is a directory\n")
            #expect(listing(root + "/" + out) == [name])
        }
    }

    @Test("merge reads a part from standard input as '-', named <stdin> in messages")
    func mergeReadsAPartFromStandardInput() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        for index in 1...2 {
            #expect(pushsim(["run", scenario, "--shard", "\(index)/2", "--out", root + "/p\(index)"]).code == .success)
        }
        #expect(pushsim(["run", scenario, "--out", root + "/whole"]).code == .success)
        let part = try #require(contents(root + "/p2/partial.json"))
        let descriptor = try pipeHolding(part)
        defer { close(descriptor) }
        let result = pushsim(["merge", root + "/p1", "-", "--out", root + "/merged"], input: descriptor)
        #expect(result.code == .success, "\(result.err)")
        #expect(contents(root + "/merged/summary.csv") == contents(root + "/whole/summary.csv"))
        let damaged = try pipeHolding("{}")
        defer { close(damaged) }
        let refused = pushsim(["merge", root + "/p1", "-", "--out", root + "/other"], input: damaged)
        #expect(refused.code == .dataError)
        #expect(refused.err == "error: <stdin>: not a shard's partial.json: no \"format\" field "
                + "(pushsim writes \"format\": \"pushsim-partial\" first)\n")
    }

    @Test("a folder without write permission fails before simulating with the system's reason",
          .enabled(if: geteuid() != 0, "root may write anywhere"))
    func unwritableOutFailsAtOnce() throws {
        let root = try temporaryFolder()
        defer {
            chmod(root + "/locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        let scenario = root + "/s.json"
        try write(Self.scenarioText, to: scenario)
        try FileManager.default.createDirectory(atPath: root + "/locked", withIntermediateDirectories: false)
        try #require(chmod(root + "/locked", 0o555) == 0)
        for target in [root + "/locked", root + "/locked/new"] {
            let result = runChecked([scenario, "--out", target])
            #expect(result.code == .failure)
            #expect(!result.simulated)
            #expect(result.err.hasSuffix("(Permission denied)\n"), "\(result.err)")
            #expect(result.err.hasPrefix("error: \(target): "))
        }
        #expect(listing(root + "/locked") == [])
    }

    @Test("the folder check leaves nothing behind: no probe file, no folder it created")
    func checkLeavesNothing() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try ReportWriter.checkWritable(root + "/a/b/c")
        try ReportWriter.checkWritable(root)
        #expect(listing(root) == [])
        let result = runChecked([Self.writeScenario(in: root), "--out", root + "/out"])
        #expect(result.code == .success && result.simulated)
        #expect(listing(root + "/out") == RunOutput.fileNames.sorted())
    }

    private static func writeScenario(in folder: String) -> String {
        let path = folder + "/s.json"
        try? Data(scenarioText.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a report that cannot be written names the system's reason and leaves the folder as it was")
    func writeFailureNamesTheReason() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("old\n", to: root + "/summary.csv")
        // A folder where the daily report's temporary file would go.
        try FileManager.default.createDirectory(atPath: root + "/.daily.csv.partial-\(getpid())", withIntermediateDirectories: false)
        do {
            try ReportWriter.write([("summary.csv", "new\n"), ("daily.csv", "new\n")], to: root)
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(root)/daily.csv: cannot write (\(String(cString: strerror(EISDIR))))")
        }
        #expect(listing(root) == [".daily.csv.partial-\(getpid())", "summary.csv"])
        #expect(contents(root + "/summary.csv") == "old\n")
    }

    @Test("writing to a full device names the reason", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDeviceNamesTheReason() {
        #expect(ReportWriter.writeFile("/dev/full", Array("report\n".utf8)) == String(cString: strerror(ENOSPC)))
    }

    // MARK: Paths without NSString

    @Test("a path's parent is found by plain string handling", arguments: [
        ("r", nil), ("r/", nil), ("x/y/z", "x/y"), ("x/y", "x"), ("x//y//", "x"), ("/r", "/"), ("/", nil),
        ("/tmp/a", "/tmp"), ("./r", "."), ("../r", ".."), ("é", nil),
    ] as [(String, String?)])
    func parentOfPath(path: String, parent: String?) {
        #expect(ReportWriter.parent(of: path) == parent)
    }

    @Test("joining a folder and a name puts one slash between")
    func joinPaths() {
        #expect(ReportWriter.join("r", "summary.csv") == "r/summary.csv")
        #expect(ReportWriter.join("r/", "summary.csv") == "r/summary.csv")
        #expect(ReportWriter.join("/", "summary.csv") == "/summary.csv")
    }

    /// A one-character name free in the working directory (the package root in
    /// `swift test`), where relative one-character paths used to trap.
    private func freeName(_ candidates: String) throws -> String {
        let name = try #require(candidates.map(String.init).first { access($0, F_OK) != 0 })
        return name
    }

    @Test("run writes into one-character relative folders (r, r/, x/y/z) instead of crashing",
          .enabled(if: access(".", W_OK) == 0, "writes in the working directory"))
    func runIntoOneCharacterFolders() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        let name = try freeName("rR"), nested = try freeName("xX")
        defer {
            try? FileManager.default.removeItem(atPath: name)
            try? FileManager.default.removeItem(atPath: nested)
        }
        for out in [name, name + "/", nested + "/y/z"] {
            let result = pushsim(["run", scenario, "--out", out])
            #expect(result.code == .success, "\(out): \(result.err)")
            #expect(listing(out) == RunOutput.fileNames.sorted())
            try? FileManager.default.removeItem(atPath: name)
        }
    }

    @Test("shards written to one-character folders merge into a one-character folder",
          .enabled(if: access(".", W_OK) == 0, "writes in the working directory"))
    func shardAndMergeWithOneCharacterFolders() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        let first = try freeName("kK"), second = try freeName("lL"), merged = try freeName("mM")
        defer { for name in [first, second, merged] { try? FileManager.default.removeItem(atPath: name) } }
        #expect(pushsim(["run", scenario, "--out", root + "/whole"]).code == .success)
        for (index, out) in [first, second].enumerated() {
            let result = pushsim(["run", scenario, "--shard", "\(index + 1)/2", "--out", out])
            #expect(result.code == .success, "\(result.err)")
            #expect(listing(out) == ["partial.json"])
        }
        let result = pushsim(["merge", first, second, "--out", merged])
        #expect(result.code == .success, "\(result.err)")
        for name in Reports.fileNames {
            #expect(contents(merged + "/" + name) != nil)
            #expect(contents(merged + "/" + name) == contents(root + "/whole/" + name))
        }
    }

    // MARK: One kind of output per folder

    @Test("a run into a shard's folder removes its partial.json with the same write; other files stay")
    func runRemovesAPartial() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        let out = root + "/out"
        #expect(pushsim(["run", scenario, "--shard", "1/2", "--out", out]).code == .success)
        try write("keep\n", to: out + "/notes.txt")
        #expect(pushsim(["run", scenario, "--out", out]).code == .success)
        #expect(listing(out) == (RunOutput.fileNames + ["notes.txt"]).sorted())
    }

    @Test("a shard into a report folder removes the reports with the same write; other files stay")
    func shardRemovesReports() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = Self.writeScenario(in: root)
        let out = root + "/out"
        #expect(pushsim(["run", scenario, "--out", out]).code == .success)
        try write("keep\n", to: out + "/notes.txt")
        #expect(pushsim(["run", scenario, "--shard", "2/2", "--out", out]).code == .success)
        #expect(listing(out) == ["notes.txt", "partial.json"])
    }

    @Test("a failed write puts back the file it was to remove")
    func failedWriteKeepsTheFileToRemove() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("older partial\n", to: root + "/partial.json")
        do {
            try ReportWriter.write([("summary.csv", "new\n"), ("daily.csv", "new\n")], to: root, removing: ["partial.json"]) {
                from, to in
                guard !to.hasSuffix("/daily.csv") else { errno = EIO; return -1 }
                return rename(from, to)
            }
            Issue.record("the write succeeded")
        } catch {
            #expect(error.description == "\(root)/daily.csv: cannot move into place (\(String(cString: strerror(EIO))))")
        }
        #expect(listing(root) == ["partial.json"])
        #expect(contents(root + "/partial.json") == "older partial\n")
    }
}
