import Foundation
import Testing

/// Rules read from the text of the sources and the tests: a new writer that bypasses
/// `ReportWriter` (temporary file, rename, regular files only, the folder's lock), a path
/// handed to the system without `SystemPath` (which keeps the bytes typed), a procedure past
/// `longestBody` lines, or a test that returns early, passing, when a tool it needs is
/// missing, fails here.
@Suite("Sources: one writer, paths as bytes, short procedures; tests skip rather than pass")
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

    /// Every Swift file under Tests/, by its path there, with its text.
    static func testSources() throws -> [(file: String, text: String)] {
        let root = LayerTests.root.appendingPathComponent("Tests")
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        var sources: [(file: String, text: String)] = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            sources.append((file, try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)))
        }
        return sources
    }

    @Test("no test returns early when a tool or the built binary is missing: it is skipped (.enabled(if:)), or fails")
    func missingToolsSkipOrFail() throws {
        var offenders: [String] = []
        var files = 0
        for (file, text) in try Self.testSources() {
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

    /// A `@Suite(…)` or `@Test(…)` attribute, parentheses nested three deep (`.timeLimit(.minutes(1))`).
    static let testAttribute = try! NSRegularExpression(pattern: #"@(Suite|Test)\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"#)

    /// The attributes of `text` that set a `.timeLimit` but leave the test on the cooperative
    /// pool: neither they nor a suite of the file carry `.ownThread`.
    static func timeLimitsOnThePool(in text: String) -> [String] {
        let attributes = testAttribute.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (suite: text[Range(match.range(at: 1), in: text)!] == "Suite", text: String(text[Range(match.range, in: text)!]))
        }
        let suiteOwnsThread = attributes.contains { $0.suite && $0.text.contains(".ownThread") }
        return attributes.filter { $0.text.contains(".timeLimit(") && !$0.text.contains(".ownThread") && ($0.suite || !suiteOwnsThread) }
            .map { $0.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
    }

    @Test("every suite or test with a .timeLimit runs off the cooperative pool (.ownThread), so its body does not wait behind blocked tests")
    func timeLimitedTestsOwnTheirThreads() throws {
        var offenders: [String] = []
        var limited = 0
        for (file, text) in try Self.testSources() {
            offenders += Self.timeLimitsOnThePool(in: text).map { "\(file): \($0)" }
            limited += text.components(separatedBy: ".timeLimit(").count - 1
        }
        #expect(limited > 40, "the time limits were read")
        #expect(offenders == [])
    }

    @Test("no test work is queued on dispatch's global queue, whose threads Swift's cooperative pool shares (a blocking read there starves it)")
    func noBlockingOnTheGlobalQueue() throws {
        var offenders: [String] = []
        // Joined here, so that this file does not name it.
        let call = "DispatchQueue.global()" + ".async("
        for (file, text) in try Self.testSources() {
            offenders += text.split(separator: "\n").filter { $0.contains(call) }.map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(offenders == [])
    }

    @Test("no test starts a child with Foundation's Process, whose run() can crash the test process on Linux (ChildProcess instead)")
    func noFoundationProcess() throws {
        // Joined here, so that this file does not name it.
        let pattern = try Regex("(^|[^A-Za-z_])" + "Process" + #"\(\)"#)
        var offenders: [String] = []
        var starts = 0
        for (file, text) in try Self.testSources() {
            starts += text.components(separatedBy: "ChildProcess()").count - 1
            offenders += text.split(separator: "\n").filter { $0.contains(pattern) }.map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(starts > 15, "the sources were read")
        #expect(offenders == [])
        #expect(("let p = " + "Process" + "()").contains(pattern) && !"let p = ChildProcess()".contains(pattern))
    }

    @Test("the time-limit rule refuses a limit without .ownThread on the attribute or the file's suite, and nothing else")
    func timeLimitRuleMatches() {
        // Joined here, so that this file holds no attribute the rule reads.
        let limit = ".time" + "Limit(.minutes(1))", own = ".own" + "Thread"
        let refused = ["@Suite(\"s\", \(limit))\nstruct S {}", "@Suite(\"s\")\nstruct S {\n    @Test(\"t (a)\",\n          \(limit))\n    func t() {}\n}"]
        for text in refused {
            #expect(Self.timeLimitsOnThePool(in: text).count == 1, "\(text)")
        }
        let allowed = ["@Suite(\"s\", \(own), \(limit))\nstruct S {}", "@Suite(\"s\", \(own))\nstruct S {\n    @Test(\"t\", \(limit))\n    func t() {}\n}",
                       "@Suite(\"s\")\nstruct S {\n    @Test(\"t\", .enabled(if: A.b(c)), \(own), \(limit))\n    func t() {}\n}"]
        for text in allowed {
            #expect(Self.timeLimitsOnThePool(in: text) == [], "\(text)")
        }
    }

    /// The most lines a function, initializer, accessor or closure body may run to (the lines
    /// between its braces'): a longer one is split where the split names a step.
    static let longestBody = 100

    /// Bodies allowed past `longestBody` for now, "file: Type.name" with the length each
    /// may reach, so that each is in sight until it is split. Empty: no body is past the
    /// limit. The functions of World.swift, World+Handling.swift, LivePopulation.swift,
    /// LivePopulation+Handling.swift, LiveProvider.swift and ProviderService.swift, being
    /// rewritten into one router, were left as they were by the split and are all within
    /// it (the longest, `LivePopulation.routeDeviceEffects`, 90 lines).
    static let allowedLong: [String: Int] = [:]

    /// Every body in Sources/, as `SwiftBodies` measures it, "file: Type.name".
    static func bodies() throws -> [SwiftBodies.Body] {
        let root = LayerTests.root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var bodies: [SwiftBodies.Body] = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            bodies += SwiftBodies.measure(text).map { SwiftBodies.Body(name: "\(file): \($0.name)", line: $0.line, lines: $0.lines) }
        }
        return bodies.sorted { ($0.name, $0.line) < ($1.name, $1.line) }
    }

    @Test("no function, initializer, accessor or closure in Sources/ runs past 100 lines, but those allowed by name")
    func shortProcedures() throws {
        let bodies = try Self.bodies()
        #expect(bodies.count > 1000, "the sources were read")
        let long = bodies.filter { $0.lines > Self.longestBody && $0.lines > Self.allowedLong[$0.name, default: 0] }
        #expect(long.map { "\($0.name) (line \($0.line)): \($0.lines) lines" } == [])
        // An allowance whose body is split, renamed or gone is taken off: the list only shrinks.
        let lifted = Self.allowedLong.keys.filter { name in !bodies.contains { $0.name == name && $0.lines > Self.longestBody } }
        #expect(lifted.sorted() == [])
    }

    @Test("the measure counts a body's lines between its braces, past braces in strings, comments and default arguments")
    func measure() {
        let text = ##"""
        /// A type { with a brace in a comment.
        struct Type {
            var computed: Int {
                1
            }
            func method(_ value: Int = 0, check: (Int) -> Bool = { _ in true }) -> String {
                let text = "}}} \(value) \("{") \(check(value) ? "{" : "}")"
                /* a nested /* comment */ } */
                let raw = #"}"\#(value)"#
                func nested() {
                    _ = [1].map { $0 }
                }
                return text + raw + """
                    }
                    """
            }
            static let table: [Int] = {
                [1, 2]
            }()
            struct Slots<Kind, let slots: Int> {}
            init() {}
            enum Inner {
                case actor
                subscript(index: Int) -> Int { index }
            }
        }
        extension Type {
            func other() {
                if true {
                }
            }
        }
        """##
        #expect(SwiftBodies.measure(text).map { "\($0.name) \($0.line) \($0.lines)" } == [
            "Type.computed 3 1", "Type.method 6 9", "Type.table 17 1", "Type.init 21 0", "Type.Inner.subscript 24 0",
            "Type.other 28 2",
        ])
    }
}

/// The bodies of a Swift file's declarations, measured from its text: each function,
/// initializer, subscript, computed property's accessors, and closure outside a function
/// (a property's initial value), with the lines between its braces' lines. A nested
/// function or closure counts in its enclosing body.
enum SwiftBodies {
    struct Body: Equatable {
        var name: String
        var line: Int
        var lines: Int
    }

    private enum Kind { case type, measured, other }

    /// Every body of `text`, named by its enclosing types and its own name, in the order they end.
    static func measure(_ text: String) -> [Body] {
        let code = blanked(Array(text.utf8))
        var stack: [(byte: UInt8, kind: Kind, name: String, line: Int)] = []
        var bodies: [Body] = []
        var statementStart = 0, line = 1
        // Directly in a type's braces (or the file): where declarations are.
        func atMemberLevel() -> Bool { stack.last.map { $0.kind == .type } ?? true }
        // In a declaration's expression there: a property's value, a default argument.
        func inMemberExpression() -> Bool {
            (stack.last { $0.byte == UInt8(ascii: "{") }?.kind ?? .type) == .type
        }
        for (index, byte) in code.enumerated() {
            switch byte {
            case 0x0A:
                line += 1
            case UInt8(ascii: "{"):
                // Inside a body, a brace is the body's: only a declaration's own is read.
                guard atMemberLevel() || inMemberExpression() else {
                    stack.append((byte, .other, "", line))
                    continue
                }
                let (keyword, name) = declaration(code[statementStart..<index])
                if atMemberLevel(), ["struct", "class", "enum", "extension", "actor", "protocol"].contains(keyword) {
                    stack.append((byte, .type, name, line))
                    statementStart = index + 1
                } else if atMemberLevel() || ["var", "let"].contains(keyword) {
                    stack.append((byte, .measured, name.isEmpty ? "(top level)" : name, line))
                } else {
                    stack.append((byte, .other, "", line))
                }
            case UInt8(ascii: "("), UInt8(ascii: "["):
                stack.append((byte, .other, "", line))
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: "}"):
                guard let body = stack.popLast() else { continue }
                if body.kind == .measured, !stack.contains(where: { $0.kind == .measured }) {
                    let types = stack.filter { $0.kind == .type }.map(\.name)
                    bodies.append(Body(name: (types + [body.name]).joined(separator: "."), line: body.line,
                                       lines: max(line - body.line - 1, 0)))
                }
                if atMemberLevel() { statementStart = index + 1 }
            case UInt8(ascii: ";"):
                if atMemberLevel() { statementStart = index + 1 }
            default:
                break
            }
        }
        return bodies
    }

    /// The last declaration a statement's code makes, outside its parentheses and braces:
    /// its keyword and name (an initializer's or subscript's, its keyword).
    private static func declaration(_ code: ArraySlice<UInt8>) -> (keyword: String, name: String) {
        let words = ["struct", "class", "enum", "extension", "actor", "protocol", "func", "init", "deinit", "subscript", "var", "let"]
        func isWord(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || byte >= 0x80 || (0x30...0x39).contains(byte)
            || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        // `<Kind, let slots: Int>`: a generic value parameter, not a declaration.
        func isGenericParameter(_ index: Int) -> Bool {
            var before = index - 1
            while before >= code.startIndex, code[before] == 0x20 || code[before] == 0x0A { before -= 1 }
            return before >= code.startIndex && (code[before] == UInt8(ascii: "<") || code[before] == UInt8(ascii: ","))
        }
        var found = (keyword: "", name: "")
        var depth = 0, index = code.startIndex
        while index < code.endIndex {
            let byte = code[index]
            if [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{")].contains(byte) { depth += 1 }
            if [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte) { depth -= 1 }
            guard depth == 0, isWord(byte), index == code.startIndex || !(isWord(code[index - 1]) || code[index - 1] == UInt8(ascii: ".")) else {
                index += 1
                continue
            }
            var end = index
            while end < code.endIndex, isWord(code[end]) { end += 1 }
            let word = String(decoding: code[index..<end], as: UTF8.self)
            var next = end
            while next < code.endIndex, code[next] == 0x20 || code[next] == 0x0A { next += 1 }
            var nameEnd = next
            while nameEnd < code.endIndex, isWord(code[nameEnd]) || code[nameEnd] == UInt8(ascii: "`") { nameEnd += 1 }
            let name = String(decoding: code[next..<nameEnd], as: UTF8.self)
            if ["init", "deinit", "subscript"].contains(word) {
                found = (word, word)
            } else if words.contains(word), !name.isEmpty, !isGenericParameter(index) {
                // A keyword followed by a name: `var actor: Actor` declares a variable, not an actor.
                found = (word, name.replacingOccurrences(of: "`", with: ""))
            }
            index = end
        }
        return found
    }

    /// `bytes` with comments and string literals replaced by spaces, line feeds kept, so that
    /// only the code's own braces and words remain; an interpolation's code is kept.
    static func blanked(_ bytes: [UInt8]) -> [UInt8] {
        var blanker = Blanker(bytes: bytes)
        blanker.code(inInterpolation: false)
        return blanker.out
    }

    private struct Blanker {
        let bytes: [UInt8]
        var out: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out = bytes
        }

        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func starts(with text: [UInt8]) -> Bool { bytes[min(index, bytes.count)...].starts(with: text) }

        /// Blanks the next `count` bytes and moves past them.
        mutating func skip(_ count: Int) {
            let end = min(index + count, bytes.count)
            for offset in index..<end where bytes[offset] != 0x0A { out[offset] = 0x20 }
            index = end
        }

        /// Code to the end, or in an interpolation to its closing parenthesis (left unread).
        mutating func code(inInterpolation: Bool) {
            var parentheses = 0
            while index < bytes.count {
                let byte = bytes[index]
                if starts(with: Array("//".utf8)) {
                    while index < bytes.count, bytes[index] != 0x0A { skip(1) }
                } else if starts(with: Array("/*".utf8)) {
                    var depth = 0
                    repeat {
                        if starts(with: Array("/*".utf8)) { depth += 1; skip(2) }
                        else if starts(with: Array("*/".utf8)) { depth -= 1; skip(2) }
                        else { skip(1) }
                    } while depth > 0 && index < bytes.count
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#"), isStringStart() {
                    string()
                } else if inInterpolation, byte == UInt8(ascii: "(") {
                    parentheses += 1
                    index += 1
                } else if inInterpolation, byte == UInt8(ascii: ")") {
                    if parentheses == 0 { return }
                    parentheses -= 1
                    index += 1
                } else {
                    index += 1
                }
            }
        }

        /// Whether a string literal starts here: `"`, or `#`s then `"`.
        func isStringStart() -> Bool {
            var offset = 0
            while at(offset) == UInt8(ascii: "#") { offset += 1 }
            return at(offset) == UInt8(ascii: "\"")
        }

        /// A string literal, raw (`#"…"#`) or not, on one line or several, its interpolations' code kept.
        mutating func string() {
            var hashes = 0
            while at(hashes) == UInt8(ascii: "#") { hashes += 1 }
            let quotes = at(hashes + 1) == UInt8(ascii: "\"") && at(hashes + 2) == UInt8(ascii: "\"") ? 3 : 1
            let close = Array(repeating: UInt8(ascii: "\""), count: quotes) + Array(repeating: UInt8(ascii: "#"), count: hashes)
            let escape = [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "#"), count: hashes)
            skip(hashes + quotes)
            while index < bytes.count {
                if starts(with: close) {
                    skip(close.count)
                    return
                }
                if starts(with: escape) {
                    skip(escape.count)
                    if at(0) == UInt8(ascii: "(") {
                        skip(1)
                        code(inInterpolation: true)
                    }
                    skip(1)
                    continue
                }
                skip(1)
            }
        }
    }
}
