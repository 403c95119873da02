@testable import Base
@testable import CLI
import Foundation
import TestSupport
import Testing
import TestThreads

/// Paths that are not UTF-8 reach the system as the bytes typed: `--out $'r\xff'` writes
/// to `r\xff` (not `r\u{FFFD}`), a scenario named `s\xff.json` is read, and messages show
/// the byte as `\xff`.
@Suite("Command line: paths kept as bytes")
struct PathBytesTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// `folder` + `/` + `name`, as the bytes the system sees.
    static func raw(_ folder: String, _ name: [UInt8]) -> [UInt8] { Array(folder.utf8) + [UInt8(ascii: "/")] + name }

    /// The kind of the entry whose path is `bytes`, or nil.
    static func kind(_ bytes: [UInt8]) -> mode_t? {
        var info = stat()
        let found = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { lstat($0.baseAddress!, &info) } == 0
        return found ? info.st_mode & S_IFMT : nil
    }

    @Test("--out naming a folder that is not UTF-8 writes to exactly those bytes, and the note shows \\xff")
    func outKeepsItsBytes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let folder = Self.raw(scratch.path, [0x72, 0xFF])
        let result = CapturedConsole.run(["run", scenario, "--out", SystemText.decode(folder)])
        #expect(result.code == .success, "\(result.err)")
        #expect(Self.kind(folder) == S_IFDIR)
        #expect(Self.kind(folder + Array("/summary.csv".utf8)) == S_IFREG)
        #expect(Self.kind(Array(scratch.file("r\u{FFFD}").utf8)) == nil, "not the lossy name")
        #expect(result.err.hasSuffix(" to \(scratch.path)/r\\xff\n"))
    }

    @Test("a scenario file named s\\xff.json is read; a missing one is named with \\xff")
    func scenarioKeepsItsBytes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = Self.raw(scratch.path, Array("s".utf8) + [0xFF] + Array(".json".utf8))
        let descriptor = (file.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        try #require(descriptor >= 0)
        try #require(Console.writeAll(CommandFixtures.tiny, to: descriptor) == nil)
        close(descriptor)
        let read = CapturedConsole.run(["validate", SystemText.decode(file)])
        #expect(read.code == .success, "\(read.err)")
        let missing = CapturedConsole.run(["validate", SystemText.decode(Self.raw(scratch.path, [0x6D, 0xFE]))])
        #expect(missing.code == .dataError)
        #expect(missing.err == "error: \(scratch.path)/m\\xfe: cannot read the scenario: no such file\n")
    }

    @Test("the built pushsim reads its arguments as bytes: --out $'r\\xff' from a shell writes to r\\xff", .ownThread)
    func processArgumentsKeepTheirBytes() throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try ProcessSignalsTests.Scratch()
        defer { scratch.remove() }
        let run = try ProcessSignalsTests.launch(
            "/bin/sh", ["-c", "exec \"$0\" run \"$1\" --out \"$2$(printf '\\377')\" --quiet", binary, scratch.scenario, scratch.path + "/r"])
        #expect(run.process.terminationStatus == 0, "\(ProcessSignalsTests.text(run.err))")
        #expect(Self.kind(Self.raw(scratch.path, [0x72, 0xFF]) + Array("/run.json".utf8)) == S_IFREG)
        #expect(Self.kind(Array((scratch.path + "/r\u{FFFD}").utf8)) == nil)
    }
}
