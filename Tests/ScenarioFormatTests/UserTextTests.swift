@testable import Base
@testable import CLI
import Foundation
@testable import ScenarioFormat
import TestSupport
import Testing

/// Text a user typed, echoed in messages: escaped, cut, one line.
@Suite("User text in messages")
struct UserTextTests {
    @Test("control characters show as escapes, quotes and backslashes are escaped inside quotes")
    func escapes() {
        #expect(UserText.quote("a\nb\rc\td\0e") == #""a\nb\rc\td\0e""#)
        #expect(UserText.quote("\u{1B}[2J") == #""\u{1B}[2J""#)
        #expect(UserText.quote("say \"hi\" \\ bye") == #""say \"hi\" \\ bye""#)
        #expect(UserText.quote("\u{7F}\u{85}\u{2028}\u{202E}\u{200B}") == #""\u{7F}\u{85}\u{2028}\u{202E}\u{200B}""#)
        // Ordinary text, accents and emoji are left alone.
        #expect(UserText.quote("été 📬 ok") == "\"été 📬 ok\"")
        // Bare (paths): a backslash stays, control characters are still escaped.
        #expect(UserText.escape("C:\\dir\nx") == #"C:\dir\nx"#)
    }

    @Test("a value longer than the limit is cut at the limit with an ellipsis; one at the limit is whole")
    func cuts() {
        let long = String(repeating: "x", count: 10_000_000)
        #expect(UserText.quote(long) == "\"" + String(repeating: "x", count: UserText.limit) + "…\"")
        let exact = String(repeating: "y", count: UserText.limit)
        #expect(UserText.quote(exact) == "\"" + exact + "\"")
        #expect(UserText.path(String(repeating: "p", count: 1000)).count == UserText.pathLimit + 1)
    }

    @Test("a long list is cut after a few values, counting the rest")
    func lists() {
        #expect(UserText.list(["a", "b\n"]) == #"a, b\n"#)
        let many = (0..<100_000).map { "strategy-\($0)" }
        let text = UserText.list(many)
        #expect(text.count < 4 * UserText.limit)
        #expect(text.hasSuffix(" more)"))
        #expect(text.hasPrefix("strategy-0, strategy-1, "))
    }

    /// The error text of decoding `text`.
    private func error(_ text: String) -> String {
        do {
            _ = try ScenarioDecoder.decode(Array(text.utf8), file: "evil\n.json")
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test("a field name with a line break stays on one line, escaped, in the unknown-field error and the file name")
    func fieldNameWithNewline() {
        let message = error(ScenarioLimitsTests.text(["bad\\nkey": "1"]))
        #expect(!message.contains("\n"))
        #expect(message.hasPrefix(#"evil\n.json:"#))
        #expect(message.contains(#"bad\nkey: unknown field"#))
    }

    @Test("a duration holding \\r and an ANSI escape is shown escaped, not executed")
    func durationWithEscapes() {
        let message = error(ScenarioLimitsTests.text(["duration": #""2d\r\u001B[2K""#]))
        #expect(!message.contains("\r") && !message.contains("\u{1B}"))
        #expect(message.contains(#"not a duration: "2d\r\u{1B}[2K""#))
    }

    @Test("a 10 MB strategy name makes an error line of under 1,000 characters")
    func hugeStrategyName() {
        let name = String(repeating: "n", count: 10_000_000)
        let message = error(ScenarioLimitsTests.text(strategies: "[{ \"name\": \"\(name)\" }]"))
        #expect(message.contains("unknown strategy \"" + String(repeating: "n", count: UserText.limit) + "…\""))
        #expect(message.count < 1000)
        #expect(!message.contains("\n"))
    }

    @Test("a label holding an ANSI escape is refused: labels head table columns on a terminal")
    func labelWithEscape() {
        let message = error(ScenarioLimitsTests.text(strategies: #"[{ "name": "queue", "label": "q\u001B[31m" }]"#))
        #expect(message.contains("strategies[0].label: a label is non-empty and has no comma, quote, line break or control character"))
    }

    @Test("an unknown --strategy label and an option value are escaped in usage errors")
    func usageErrors() {
        #expect("\(UsageError.invalidValue(option: "--seed", value: "1\n2", expected: "an integer"))"
                == #"invalid value '1\n2' for '--seed': expected an integer"#)
        #expect("\(UsageError.unknownStrategy("\u{1B}[31m", known: ["a"]))" == #"no strategy '\u{1B}[31m' in the scenario; it has: a"#)
    }

    /// An ESC sequence, a line break, a right-to-left override and 60 KB: what a hostile
    /// echo would carry to the terminal.
    static let hostile = "\u{1B}[2J\nrm\u{202E}" + String(repeating: "x", count: 60_000)

    /// Whether `message` is one line (after its own line feed) with no control character, of bounded length.
    static func isSafe(_ message: String) -> Bool {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return lines.count == 1 && lines.allSatisfy { line in
            line.unicodeScalars.count < 1000 && !line.unicodeScalars.contains(where: UserText.isInvisible)
        }
    }

    @Test("--set whose path holds an ESC, a line break and 60 KB: 'not a field path' echoes it escaped and cut (run and sweep)")
    func setPathEscapedAndCut() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        for command in ["run", "sweep"] {
            let result = CapturedConsole.run([command, scenario, "--set", Self.hostile + "=1", "--out", scratch.file("out")])
            #expect(result.code == .dataError, "\(command)")
            #expect(result.err.contains(#"not a field path: "\u{1B}[2J\nrm\u{202E}xxx"#), "\(command)")
            #expect(Self.isSafe(result.err), "\(command): \(result.err.prefix(300))")
        }
    }
}
