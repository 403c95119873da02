import Foundation
import Testing

/// Rules about where the sources may touch the file system, read from their text: a new
/// writer that bypasses `ReportWriter` (temporary file, rename, regular files only, the
/// folder's lock), or a path handed to the system without `SystemPath` (which keeps the
/// bytes typed), fails here.
@Suite("Sources: one writer, paths as bytes")
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
        #expect(try Self.offenders(#"(?<![.\w])(open|mkdir|rmdir|unlink|rename|link|symlink|lstat|access|strdup|opendir|realpath)\(|(?<![.\w])stat\([^)]"#,
                                   // The signal handler calls unlink and rmdir on C strings SystemPath made beforehand.
                                   allowedIn: ["Base/SystemPath.swift", "Reports/WritePhaseSignals.swift"]) == [])
    }
}
