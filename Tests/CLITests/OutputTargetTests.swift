@testable import CLI
import Foundation
@testable import Reports
@testable import Simulator
import Synchronization
import TestSupport
import Testing

/// Every output is written only over a regular file: `--junit` or a report name taken by
/// a FIFO, a device or a symbolic link is refused before simulating, exit 1, and the
/// thing there is left as it was (as root, `--junit /dev/full` used to replace /dev/full).
@Suite("Command line: outputs replace only regular files")
struct OutputTargetTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// `CommandFixtures.tiny` with an expectation that holds.
    static let checked = CommandFixtures.tiny.replacingOccurrences(
        of: "\n  ]\n}", with: "\n  ],\n  \"expect\": [{ \"metric\": \"deliverability\", \"strategy\": \"queue\", \"atLeast\": 0.3 }]\n}")

    /// Runs `check` in-process and records whether it reached the simulation.
    private func check(_ arguments: [String]) -> (code: ExitCode, out: String, err: String, simulated: Bool) {
        let captured = CapturedConsole()
        let simulated = Mutex(false)
        let code = CheckCommand.main(ArraySlice(arguments), console: captured.console,
                                     simulate: { scenario, users, threads, traced, progress in
            simulated.withLock { $0 = true }
            return try Simulation.run(scenario, users: users, threads: threads, tracing: traced, progress: progress)
        })
        return (code, captured.out, captured.err, simulated.withLock { $0 })
    }

    @Test("--junit naming a FIFO, a symbolic link or a socket is refused before simulating: exit 1, one line, left as it was, no report",
          arguments: FileKinds.all)
    func junitOverNonRegularFileRefused(what: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.checked)
        _ = try scratch.write("notes.txt", "keep\n")
        let junit = scratch.file("junit.xml")
        try FileKinds.make(what, at: junit)
        let before = FileKinds.kind(junit)
        let result = check([scenario, "--out", scratch.file("out"), "--junit", junit])
        #expect(result.code == .failure)
        #expect(!result.simulated)
        #expect(result.err == "error: \(junit): exists and is \(FileKinds.shown(what)), not a regular file; "
                + "pushsim writes only regular files and leaves it as it is\n")
        #expect(FileKinds.kind(junit) == before)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")), "no report written")
        #expect(FileManager.default.contents(atPath: scratch.file("notes.txt")) == Data("keep\n".utf8))
    }

    @Test("--junit naming a character device (as /dev/full) is refused and the device stays (root only: mknod)",
          .enabled(if: getuid() == 0, "mknod needs root"))
    func junitOverDeviceRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("gate.json", Self.checked)
        // /dev/full's numbers, inside the scratch folder: the machine's own device is never at risk.
        let device = scratch.file("full")
        try #require(mknod(device, S_IFCHR | 0o666, FileKinds.device(major: 1, minor: 7)) == 0)
        let result = check([scenario, "--out", scratch.file("out"), "--junit", device])
        #expect(result.code == .failure)
        #expect(!result.simulated)
        #expect(result.err == "error: \(device): exists and is a character device, not a regular file; "
                + "pushsim writes only regular files and leaves it as it is\n")
        #expect(FileKinds.kind(device) == S_IFCHR)
    }

    @Test("run, merge and sweep refuse a report name taken by a FIFO or a symbolic link before simulating, exit 1",
          arguments: ["a FIFO", "a symbolic link"])
    func reportNameTakenRefused(what: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: false)
        _ = try scratch.write("out/notes.txt", "keep\n")
        try FileKinds.make(what, at: scratch.file("out/compare.csv"))
        let run = CapturedConsole.run(["run", scenario, "--out", scratch.file("out")])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("error: \(scratch.file("out/compare.csv")): exists and is \(what), not a regular file"))
        #expect(FileKinds.kind(scratch.file("out/compare.csv")) != S_IFREG)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: scratch.file("out"))) ?? []).sorted()
                == ["compare.csv", "notes.txt"])

        try FileManager.default.createDirectory(atPath: scratch.file("sweep"), withIntermediateDirectories: false)
        try FileKinds.make(what, at: scratch.file("sweep/sweep.csv"))
        let sweep = CapturedConsole.run(["sweep", scenario, "--set", "devices=2,3", "--out", scratch.file("sweep")])
        #expect(sweep.code == .failure)
        #expect(sweep.err.hasPrefix("error: \(scratch.file("sweep/sweep.csv")): exists and is \(what), not a regular file"))

        let part = CapturedConsole.run(["run", scenario, "--shard", "1/1", "--out", scratch.file("part"), "--quiet"])
        #expect(part.code == .success)
        let merge = CapturedConsole.run(["merge", scratch.file("part"), "--out", scratch.file("out")])
        #expect(merge.code == .failure)
        #expect(merge.err.hasPrefix("error: \(scratch.file("out/compare.csv")): exists and is \(what), not a regular file"))
    }
}
