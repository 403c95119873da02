@testable import Base
@testable import CLI
import Foundation
import TestSupport
import Testing

/// What `diff` echoes from the folders it reads (run.json's overrides, summary.csv's
/// labels and cells): escaped and cut, one line, whatever the files hold.
@Suite("pushsim diff: text from the folders, escaped and cut")
struct DiffEchoTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// An ESC sequence, a line break and 60 KB.
    static let hostile = "\u{1B}[31m\nx" + String(repeating: "y", count: 60_000)

    /// `DiffCommandTests.record()` with `overrides`.
    static func record(overrides: [String]) -> String {
        let items = overrides.map { JSONText.string($0) }.joined(separator: ",")
        return DiffCommandTests.record().replacingOccurrences(of: "\"parts\": []", with: "\"parts\": [],\n  \"overrides\": [\(items)]")
    }

    @Test("folders run with different overrides: the refusal echoes run.json's overrides escaped and cut, one short line")
    func overridesEscapedAndCut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let summary = DiffCommandTests.summary(queueDeliverability: "0.930000", se: "0.004")
        let old = try DiffCommandTests.folder(scratch, "old", summary: summary, record: Self.record(overrides: ["devices=5"]))
        let new = try DiffCommandTests.folder(scratch, "new", summary: summary,
                                              record: Self.record(overrides: [Self.hostile, "seed=1\u{7}"]))
        let result = CapturedConsole.run(["diff", old, new])
        #expect(result.code == .dataError)
        #expect(result.err.hasPrefix("error: the folders ran the scenario with different overrides: \(old) with --set devices=5, "
                                     + "\(new) with --set \\u{1B}[31m\\nxyyy"))
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.err.count < 1000)
        #expect(!result.err.unicodeScalars.dropLast().contains(where: UserText.isInvisible))
    }

    @Test("a strategy label in summary.csv holding an ESC is shown escaped in the table and notes")
    func labelsEscaped() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let summary = DiffCommandTests.summary(queueDeliverability: "0.930000", se: "0.004")
        let old = try DiffCommandTests.folder(scratch, "old", summary: summary.replacingOccurrences(of: "\nqueue,", with: "\nq\u{1B}[2J,"))
        let new = try DiffCommandTests.folder(scratch, "new", summary: summary.replacingOccurrences(of: "\nqueue,", with: "\nq\u{1B}[2J,"))
        let result = CapturedConsole.run(["diff", old, new])
        #expect(result.code == .success)
        #expect(result.out.contains(#"q\u{1B}[2J"#))
        #expect(!(result.out + result.err).contains("\u{1B}"))
    }
}
