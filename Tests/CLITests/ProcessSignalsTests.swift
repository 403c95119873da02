@testable import CLI
import ChildProcesses
import Foundation
import Testing
import TestThreads

/// The built `pushsim` run as a separate process: broken pipes, signals in the write
/// phase and a file size limit, which no in-process test can reach.
@Suite("Process: broken streams and signals", .ownThread)
struct ProcessSignalsTests {
    /// The `pushsim` built beside the test bundle (`swift build` and `swift test` build it).
    static let binary: String? = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pushsim").path,
                          repository.appendingPathComponent(".build/debug/pushsim").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The binary, or a failure: `swift test` builds it with the tests (and `.ci/run` before
    /// them), so a missing one is a broken build, never a reason to skip.
    static func builtBinary() throws -> String {
        try #require(binary, "no pushsim beside the tests or in .build/debug: swift build")
    }

    /// A scratch folder holding the tiny scenario.
    struct Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-proc-\(UUID().uuidString)").path
        var scenario: String { path + "/tiny.json" }
        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(CLITests.tiny.utf8).write(to: URL(fileURLWithPath: scenario))
        }
        func entries(_ folder: String) -> [String]? { try? FileManager.default.contentsOfDirectory(atPath: folder) }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs `executable` with `arguments`; stdout goes to a pipe whose reading end is
    /// closed first when `closedStdout`. Returns the process (ended unless `wait` is false) and stderr.
    static func launch(_ executable: String, _ arguments: [String], closedStdout: Bool = false,
                       environment: [String: String] = [:], wait: Bool = true) throws -> (process: ChildProcess, err: Pipe) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        if closedStdout {
            try out.fileHandleForReading.close()
            process.standardOutput = out
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = err
        try process.run()
        if wait { process.waitUntilExit() }
        return (process, err)
    }

    static func text(_ pipe: Pipe) -> String {
        String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("run with a closed stdout (`| true`) exits 1 with one line on stderr, and leaves the folder as it was")
    func closedPipe() throws {
        let binary = try Self.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A new folder is not created.
        let fresh = try Self.launch(binary, ["run", scratch.scenario, "--out", scratch.path + "/new"], closedStdout: true)
        let freshErr = Self.text(fresh.err)
        #expect(fresh.process.terminationReason == .exit && fresh.process.terminationStatus == 1)
        #expect(freshErr == "error: cannot write to standard output: Broken pipe\n")
        #expect(scratch.entries(scratch.path + "/new") == nil)

        // Existing reports stay as they were.
        let kept = scratch.path + "/kept"
        let first = try Self.launch(binary, ["run", scratch.scenario, "--out", kept])
        #expect(first.process.terminationStatus == 0)
        let before = try String(contentsOfFile: kept + "/summary.csv", encoding: .utf8)
        let second = try Self.launch(binary, ["run", scratch.scenario, "--seed", "99", "--out", kept], closedStdout: true)
        #expect(second.process.terminationStatus == 1)
        #expect(try String(contentsOfFile: kept + "/summary.csv", encoding: .utf8) == before)
        #expect(scratch.entries(kept)?.contains { $0.hasPrefix(".") } == false)
    }

    @Test("merge with a closed stdout exits 1 with one line on stderr and creates no folder")
    func closedPipeMerge() throws {
        let binary = try Self.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        for shard in 1...2 {
            let part = try Self.launch(binary, ["run", scratch.scenario, "--shard", "\(shard)/2", "--out", scratch.path + "/p\(shard)"])
            #expect(part.process.terminationStatus == 0)
        }
        let merge = try Self.launch(binary, ["merge", scratch.path + "/p1", scratch.path + "/p2", "--out", scratch.path + "/m"],
                                    closedStdout: true)
        #expect(merge.process.terminationReason == .exit && merge.process.terminationStatus == 1)
        #expect(Self.text(merge.err) == "error: cannot write to standard output: Broken pipe\n")
        #expect(scratch.entries(scratch.path + "/m") == nil)
    }

    @Test("sweep with a closed stdout exits 1 with one line on stderr and creates no folder")
    func closedPipeSweep() throws {
        let binary = try Self.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sweep = try Self.launch(binary, ["sweep", scratch.scenario, "--set", "seed=1,2", "--quiet", "--out", scratch.path + "/s"],
                                    closedStdout: true)
        // --quiet writes nothing on stdout: nothing fails, the sweep is written.
        #expect(sweep.process.terminationStatus == 0)
        let loud = try Self.launch(binary, ["sweep", scratch.scenario, "--set", "seed=1,2", "--out", scratch.path + "/t"],
                                   closedStdout: true)
        #expect(loud.process.terminationReason == .exit && loud.process.terminationStatus == 1)
        #expect(Self.text(loud.err).hasSuffix("error: cannot write to standard output: Broken pipe\n"))
        #expect(scratch.entries(scratch.path + "/t") == nil)
    }

    @Test("SIGTERM or SIGINT while the reports are written leaves no temporary file and no new folder", arguments: [SIGTERM, SIGINT])
    func signalInWritePhase(signal: Int32) throws {
        let binary = try Self.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path + "/a/b"
        let running = try Self.launch(binary, ["run", scratch.scenario, "--out", out],
                                      environment: ["PUSHSIM_TEST_PAUSE_BEFORE_COMMIT": "60"], wait: false)
        // Wait (up to 60 s) until the temporary files are there: the process is in the write phase.
        var waited = 0
        while waited < 600, scratch.entries(out)?.contains(where: { $0.hasSuffix("-\(running.process.processIdentifier)") }) != true {
            usleep(100_000)
            waited += 1
        }
        #expect(scratch.entries(out)?.contains(".summary.csv.partial-\(running.process.processIdentifier)") == true)
        kill(running.process.processIdentifier, signal)
        running.process.waitUntilExit()
        #expect(running.process.terminationReason == .uncaughtSignal)
        #expect(running.process.terminationStatus == signal)
        #expect(scratch.entries(scratch.path + "/a") == nil, "the new folders are gone")
        #expect(scratch.entries(scratch.path) == ["tiny.json"])
    }

    @Test("a file size limit (ulimit -f) ends the run with exit 1, one line naming the file, and no temporary file")
    func fileSizeLimit() throws {
        let binary = try Self.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path + "/limited"
        // 8 blocks of 512 bytes: the CSVs fit, report.html does not.
        let run = try Self.launch("/bin/sh", ["-c", "ulimit -f 8; exec \"$0\" run \"$1\" --out \"$2\"", binary, scratch.scenario, out])
        let err = Self.text(run.err)
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 1)
        #expect(err.hasPrefix("error: \(out)/") && err.hasSuffix(": cannot write (File too large)\n"))
        #expect(err.split(separator: "\n").count == 1)
        #expect(scratch.entries(out) == nil)
        #expect(scratch.entries(scratch.path) == ["tiny.json"])
    }
}
