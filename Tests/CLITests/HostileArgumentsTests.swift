@testable import Base
@testable import CLI
import Foundation
import TestSupport
import Testing

/// Every echo of what the user typed goes through `UserText`: each command is given a
/// hostile text (an ESC sequence, a line break, a right-to-left override, 60 KB) as each
/// operand and as the value of each option it declares, one at a time, and every line it
/// prints on stderr must stay one short line without a control character. A new message
/// that interpolates an argument raw fails here.
@Suite("Command line: hostile arguments are echoed escaped and cut")
struct HostileArgumentsTests {
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{7}\n\r\u{202E}" + String(repeating: "x", count: 60_000)

    /// The problem with `err` (a line with a control character or longer than 1,000
    /// characters), or nil.
    static func problem(_ err: String) -> String? {
        for line in err.split(separator: "\n") {
            if line.unicodeScalars.contains(where: UserText.isInvisible) { return "a control character in \(line.prefix(200).debugDescription)" }
            if line.unicodeScalars.count > 1000 { return "a line of \(line.unicodeScalars.count) characters" }
        }
        return nil
    }

    @Test("each command, each operand and each option's value: stderr stays escaped, cut, one line a message")
    func everyEchoEscaped() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let checked = try scratch.write("gate.json", CommandFixtures.tiny.replacingOccurrences(
            of: "\n  ]\n}", with: "\n  ],\n  \"expect\": [{ \"metric\": \"deliverability\", \"strategy\": \"queue\", \"atLeast\": 0.3 }]\n}"))
        let out = scratch.file("out")
        #expect(CapturedConsole.run(["run", scenario, "--out", out, "--quiet"]).code == .success)
        #expect(CapturedConsole.run(["run", scenario, "--shard", "1/1", "--out", scratch.file("part"), "--quiet"]).code == .success)
        // Valid operands, and options that keep every write inside the scratch folder.
        let operands: [String: [String]] = [
            "run": [scenario], "check": [checked], "validate": [scenario], "sweep": [scenario], "bench": [scenario],
            "merge": [scratch.file("part")], "diff": [out, out], "report": [out], "schema": [], "version": [],
        ]
        let safeOut: [String: [String]] = ["run": ["--out", out], "check": ["--out", out], "sweep": ["--out", scratch.file("sweep")],
                                           "merge": ["--out", scratch.file("merged")], "report": ["--out", out]]
        let pathHostile = scratch.path + "/" + Self.hostile
        var lines: [[String]] = [[Self.hostile], ["--" + Self.hostile], ["help", Self.hostile]]
        for command in PushSimCommand.commands {
            let valid = operands[command.name] ?? []
            for index in valid.indices {
                var changed = valid
                changed[index] = index % 2 == 0 ? pathHostile : Self.hostile
                lines.append([command.name] + changed + (safeOut[command.name] ?? []))
            }
            lines.append([command.name] + valid + ["--" + Self.hostile])
            lines.append([command.name] + valid + [Self.hostile, Self.hostile])
            for option in command.options where option.takesValue {
                let others = option.name == "--out" ? [] : safeOut[command.name] ?? []
                var values = [option.name == "--out" || option.name == "--junit" ? pathHostile : Self.hostile]
                if option.name == "--set" { values += [Self.hostile + "=1", "devices=" + Self.hostile, "name=" + Self.hostile] }
                for value in values { lines.append([command.name] + valid + [option.name, value] + others) }
                lines.append([command.name] + valid + [option.name + "=" + values[0]] + others)
            }
        }
        for arguments in lines {
            let result = CapturedConsole.run(arguments)
            let shown = arguments.map { String($0.prefix(40)).debugDescription }.joined(separator: " ")
            #expect(result.code != .success || arguments.first == "help", "\(shown) succeeded")
            #expect(!result.err.isEmpty || arguments.first == "help", "\(shown) said nothing")
            if let problem = Self.problem(result.err) { Issue.record("\(shown): \(problem)") }
        }
    }
}
