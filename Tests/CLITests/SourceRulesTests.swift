import Foundation
import Testing

/// Rules read from the text of the sources and the tests: a new writer that bypasses
/// `ReportWriter` (temporary file, rename, regular files only, the folder's lock), a path
/// handed to the system without `SystemPath` (which keeps the bytes typed), or a test that
/// returns early, passing, when a tool it needs is missing, fails here.
@Suite("Sources: one writer, paths as bytes; tests skip rather than pass")
struct SourceRulesTests {
    /// Every Swift file under Sources/ with its lines that are not comments.
    static func sources() throws -> [(file: String, lines: [Substring])] {
        let root = LayerTests.root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [(String, [Substring])] = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            files.append((file, text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }))
        }
        return files
    }

    /// Lines of `sources` outside `allowed` matching `pattern`, as "file: line".
    static func offenders(_ pattern: String, allowedIn allowed: Set<String>) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return try sources().filter { !allowed.contains($0.file) }.flatMap { file, lines in
            lines.filter { line in
                let text = String(line)
                return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }.map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
    }

    @Test("only ReportWriter opens a file for writing: every output goes through its temporary file, rename and checks")
    func oneWriter() throws {
        #expect(try Self.offenders(#"O_CREAT|O_WRONLY|O_RDWR|\.write\(to|createFile|FileHandle\(forWriting"#,
                                   allowedIn: ["Reports/ReportWriter.swift"]) == [])
    }

    @Test("only SystemPath hands a path to the system: the bytes typed, never a lossy re-encoding")
    func pathsThroughSystemPath() throws {
        // A call, not a declaration: TLSCrypto's AEADs declare `func open(nonce:…)`.
        #expect(try Self.offenders(#"(?<![.\w])(?<!func )(open|mkdir|rmdir|unlink|rename|link|symlink|lstat|access|strdup|opendir|realpath)\(|(?<![.\w])stat\([^)]"#,
                                   // The signal handler calls unlink and rmdir on C strings SystemPath made beforehand.
                                   allowedIn: ["Base/SystemPath.swift", "Reports/WritePhaseSignals.swift"]) == [])
    }

    /// A `guard` or `if` whose body is a bare `return`, and its condition.
    static let bareReturn = try! NSRegularExpression(
        pattern: #"\b(?:guard|if)\b((?:(?!\b(?:guard|if|return)\b)[^{}])*)\{\s*return\s*\}"#)
    /// What a condition on a test's prerequisite names.
    static let prerequisite = try! NSRegularExpression(
        pattern: #"binary|tool|present|installed|available|executable|require|curl|nghttp|h2load|haproxy|openssl|python|chromium|xmllint"#,
        options: .caseInsensitive)

    /// The statements of `text` that end a test early when a tool or the built binary is missing,
    /// so that it passes without running: a `guard` on the binary or an `if` on a tool's
    /// presence whose body is a bare `return`.
    static func earlyPasses(in text: String) -> [String] {
        bareReturn.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let condition = String(text[Range(match.range(at: 1), in: text)!])
            guard prerequisite.firstMatch(in: condition, range: NSRange(condition.startIndex..., in: condition)) != nil else { return nil }
            return String(text[Range(match.range, in: text)!]).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
        }
    }

    @Test("no test returns early when a tool or the built binary is missing: it is skipped (.enabled(if:)), or fails")
    func missingToolsSkipOrFail() throws {
        let root = LayerTests.root.appendingPathComponent("Tests")
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        var offenders: [String] = []
        var files = 0
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            offenders += Self.earlyPasses(in: text).map { "\(file): \($0)" }
            files += 1
        }
        #expect(files > 100)
        #expect(offenders == [])
    }

    @Test("the early-return rule finds a guard or if on a tool that returns, over several lines too, and nothing else")
    func earlyReturnRuleMatches() {
        // Joined here, so that this file holds no statement the rule refuses.
        let refused = ["guard let binary = ServeClientTests.require([.curl]) else { ret" + "urn }",
                       "guard let binary = ProcessSignalsTests.requireBinary() else {\n    ret" + "urn\n}",
                       "if !CurlTests.present { ret" + "urn }",
                       "guard HeadlessChromium.executable != nil else { ret" + "urn }"]
        for statement in refused {
            #expect(Self.earlyPasses(in: "func t() {\n    " + statement + "\n    run()\n}") != [], "\(statement)")
        }
        let allowed = ["guard descriptor >= 0 else { ret" + "urn }",
                       "guard let binary = tools() else { ret" + "urn nil }",
                       "guard case .send(let push) = effects[0] else {\n    Issue.record(\"no send\")\n    ret" + "urn\n}",
                       "let binary = try ServeClientTests.require([.curl])"]
        for statement in allowed {
            #expect(Self.earlyPasses(in: "func t() {\n    " + statement + "\n}") == [], "\(statement)")
        }
    }
}
