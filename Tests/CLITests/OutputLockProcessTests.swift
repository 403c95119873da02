@testable import CLI
import ChildProcesses
import Foundation
import Testing
import TestThreads

/// Two `pushsim` processes writing into one `--out`: the second waits for the first to
/// finish writing, so the folder holds one run's files whole, never a mix of two seeds.
@Suite("Process: one writer an output folder", .ownThread)
struct OutputLockProcessTests {
    typealias Scratch = ProcessSignalsTests.Scratch

    /// Waits for `process` at most `seconds`, then kills it (the test fails rather than hangs).
    static func finish(_ process: ChildProcess, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    @Test("a run into a folder another run is writing waits for it, then writes all its files: both exit 0, no mix of seeds")
    func secondWriterWaits() throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path + "/out", reference = scratch.path + "/reference"
        // The seed-2 reports, written alone: what the shared folder must hold at the end.
        let alone = try ProcessSignalsTests.launch(binary, ["run", scratch.scenario, "--seed", "2", "--out", reference, "--quiet"])
        #expect(alone.process.terminationStatus == 0)

        // The first run pauses 3 s once its temporary files are written, holding the folder.
        let first = try ProcessSignalsTests.launch(binary, ["run", scratch.scenario, "--seed", "1", "--out", out],
                                                   environment: ["PUSHSIM_TEST_PAUSE_BEFORE_COMMIT": "3"], wait: false)
        var waited = 0
        while waited < 300, scratch.entries(out)?.contains(where: { $0.hasSuffix("-\(first.process.processIdentifier)") }) != true {
            usleep(100_000)
            waited += 1
        }
        try #require(scratch.entries(out)?.contains(".summary.csv.partial-\(first.process.processIdentifier)") == true)

        let second = try ProcessSignalsTests.launch(binary, ["run", scratch.scenario, "--seed", "2", "--out", out], wait: false)
        usleep(800_000)
        // The second has simulated (a few tens of milliseconds) and waits: nothing of it in the folder.
        #expect(second.process.isRunning, "the second writer did not wait")
        #expect(scratch.entries(out)?.contains(where: { $0.hasSuffix("-\(second.process.processIdentifier)") }) == false)

        #expect(Self.finish(first.process, within: 60))
        #expect(Self.finish(second.process, within: 60))
        #expect(first.process.terminationReason == .exit && first.process.terminationStatus == 0)
        #expect(second.process.terminationReason == .exit && second.process.terminationStatus == 0)
        let secondErr = ProcessSignalsTests.text(second.err)
        #expect(secondErr.hasPrefix("note: another pushsim is writing to \(out); waiting for it to finish\n"), "\(secondErr)")

        // The folder holds the second run whole: every report is the seed-2 one.
        for name in ["summary.csv", "daily.csv", "funnel.csv", "apns.csv", "compare.csv"] {
            #expect(FileManager.default.contents(atPath: out + "/" + name) == FileManager.default.contents(atPath: reference + "/" + name),
                    "\(name) is not the second run's")
        }
        let record = String(decoding: FileManager.default.contents(atPath: out + "/run.json") ?? Data(), as: UTF8.self)
        #expect(record.contains("\"seed\": 2") || record.contains("\"seed\":2"))
        #expect(scratch.entries(out)?.contains { $0.hasPrefix(".") } == false, "no temporary file left")
    }
}
