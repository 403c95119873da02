@testable import CLI
import Foundation
@testable import Reports
import Testing

/// The layers as docs/architecture.md draws them, read from Package.swift and the sources.
/// `.ci/run` builds with `--explicit-target-dependency-import-check error`, so the build
/// refuses an import of a module a target does not reach through its declared dependencies;
/// SwiftPM lets through one a declared dependency brings along (Live imported Provider that
/// way). These tests refuse that, a declared dependency never imported, and one that points
/// up a layer.
@Suite("Layers: dependencies point one way")
struct LayerTests {
    /// Bottom to top; a module may depend only on modules before it.
    static let layers = ["Base", "Kernel", "FakeAPNs", "Provider", "Device", "SendLog", "Simulator", "ScenarioFormat",
                         "Reports", "Studies", "TLSCrypto", "X509", "ProviderAuth", "HTTP2", "HTTP1", "TLS", "Transport", "Live", "CLI", "pushsim"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A target of Package.swift: its declared dependencies and the folder of its sources.
    struct Target {
        let dependencies: [String]
        let folder: String
    }

    /// Every target of Package.swift, test targets and TestSupport included.
    static func manifestTargets() throws -> [String: Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|testTarget)\(name: "(\w+)"(?:, dependencies: \[([^\]]*)\])?(?:[^)]*?path: "([^"]+)")?"#)
        var targets: [String: Target] = [:]
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: manifest).map { String(manifest[$0]) } }
            let name = group(2)!
            let dependencies = (group(3) ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\""])) }.filter { !$0.isEmpty }
            let folder = group(4) ?? (group(1) == "testTarget" ? "Tests/" : "Sources/") + name
            targets[name] = Target(dependencies: dependencies, folder: folder)
        }
        return targets
    }

    /// Each non-test target of Package.swift with its dependencies.
    static func targets() throws -> [String: [String]] {
        try manifestTargets().filter { $0.value.folder.hasPrefix("Sources/") }.mapValues(\.dependencies)
    }

    /// The modules of `modules` that the Swift files under `directory` import, in any form
    /// (`@testable import`, `package import`, `import struct M.T`, inside `#if`).
    static func imports(in directory: URL, among modules: Set<String>) throws -> Set<String> {
        let statement = try NSRegularExpression(pattern: #"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"#
            + #"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)"#, options: .anchorsMatchLines)
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var found: Set<String> = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for match in statement.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let module = String(text[Range(match.range(at: 1), in: text)!])
                if modules.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    @Test("every module of Sources/ is a layer, and each depends only on layers below it")
    func dependenciesPointDown() throws {
        let targets = try Self.targets()
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(Set(sources.filter { !$0.hasPrefix(".") }) == Set(Self.layers))
        for layer in Self.layers {
            let dependencies = try #require(targets[layer], "\(layer) is not a target of Package.swift")
            for dependency in dependencies {
                let below = try #require(Self.layers.firstIndex(of: dependency), "\(layer) depends on \(dependency)")
                #expect(below < Self.layers.firstIndex(of: layer)!, "\(layer) depends on \(dependency), a layer above it")
            }
        }
    }

    @Test("the kernel imports only Base, and the actors import no engine or outer module")
    func kernelAndActorsStayLow() throws {
        let targets = try Self.targets()
        #expect(targets["Base"] == [])
        #expect(targets["Kernel"] == ["Base"])
        for actor in ["FakeAPNs", "Provider", "Device"] {
            #expect(Set(targets[actor] ?? []).isSubset(of: ["Base", "FakeAPNs"]), "\(actor)")
        }
        // What a kernel file imports, read from its text: nothing of the domain.
        let folder = Self.root.appendingPathComponent("Sources/Kernel")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { $0.dropFirst(7) }
            #expect(imports.allSatisfy { $0 == "Base" }, "\(file) imports \(imports)")
        }
    }

    @Test("the protocol layers depend on no module and import nothing: no Foundation, no I/O", arguments: ["HTTP2", "HTTP1", "TLSCrypto"])
    func protocolImportsNothing(module: String) throws {
        #expect(try Self.targets()[module] == [])
        let folder = Self.root.appendingPathComponent("Sources/" + module)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@preconcurrency import ") }
            #expect(imports.isEmpty, "\(file) imports \(imports)")
        }
    }

    @Test("X509 depends on TLSCrypto alone and imports nothing else, not even Foundation")
    func x509ImportsOnlyTLSCrypto() throws {
        #expect(try Self.targets()["X509"] == ["TLSCrypto"])
        let folder = Self.root.appendingPathComponent("Sources/X509")
        let walker = try #require(FileManager.default.enumerator(atPath: folder.path))
        var files = 0
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.contains("import ") && !$0.hasPrefix("//") && !$0.hasPrefix("    ") }
            #expect(imports.allSatisfy { $0 == "import TLSCrypto" }, "\(file) imports \(imports)")
            files += 1
        }
        #expect(files > 10)
    }

    @Test("TLS imports TLSCrypto and nothing else: no Foundation, no I/O")
    func tlsImportsOnlyItsCrypto() throws {
        #expect(try Self.targets()["TLS"] == ["TLSCrypto"])
        let folder = Self.root.appendingPathComponent("Sources/TLS")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@preconcurrency import ") }
            #expect(imports.allSatisfy { $0 == "import TLSCrypto" }, "\(file) imports \(imports)")
        }
    }

    @Test("every folder of Sources/ and Tests/ (but Fixtures) is a target, and each target declares exactly the package modules its sources import")
    func declaredDependenciesAreTheImports() throws {
        let targets = try Self.manifestTargets()
        var folders: Set<String> = []
        for parent in ["Sources", "Tests"] {
            let url = Self.root.appendingPathComponent(parent)
            for entry in try FileManager.default.contentsOfDirectory(atPath: url.path) where !entry.hasPrefix(".") && entry != "Fixtures" {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.appendingPathComponent(entry).path, isDirectory: &isDirectory),
                   isDirectory.boolValue { folders.insert(parent + "/" + entry) }
            }
        }
        #expect(Set(targets.values.map(\.folder)) == folders)
        let modules = Set(targets.keys)
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            let imported = try Self.imports(in: Self.root.appendingPathComponent(target.folder), among: modules)
            let declared = Set(target.dependencies)
            #expect(declared.count == target.dependencies.count, "\(name) declares a dependency twice")
            #expect(imported.subtracting(declared).isEmpty,
                    "\(name) imports \(imported.subtracting(declared).sorted()) without declaring it: add it to its dependencies in Package.swift")
            #expect(declared.subtracting(imported).isEmpty,
                    "\(name) declares \(declared.subtracting(imported).sorted()) but never imports it: remove it from Package.swift")
        }
    }

    @Test("no module of pushsim imports Foundation, whose internationalization and ICU every command would load; FoundationEssentials does")
    func executableLeavesFoundationOut() throws {
        for layer in Self.layers {
            let folder = Self.root.appendingPathComponent("Sources/" + layer)
            #expect(try Self.imports(in: folder, among: ["Foundation"]).isEmpty, "\(layer) imports Foundation: import FoundationEssentials")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-foundation-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("import FoundationEssentials\n".utf8).write(to: directory.appendingPathComponent("A.swift"))
        #expect(try Self.imports(in: directory, among: ["Foundation"]).isEmpty, "FoundationEssentials is not Foundation")
        try Data(["import", "struct", "Foundation.URL"].joined(separator: " ").utf8).write(to: directory.appendingPathComponent("B.swift"))
        #expect(try Self.imports(in: directory, among: ["Foundation"]) == ["Foundation"])
    }

    @Test("the import scan sees every form of import of a package module, and nothing else")
    func importScanSeesEveryForm() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-layer-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Nested"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Lines joined here, so that this file itself imports none of them.
        let text = ["@testable import Base", "@preconcurrency package import Kernel", "import struct FakeAPNs.PushNotification",
                    "#if canImport(Glibc)", "    import Provider", "#endif", "import Foundation",
                    "let script = \"import json\"", "// importing Device is not an import"].joined(separator: "\n")
        try Data(text.utf8).write(to: directory.appendingPathComponent("A.swift"))
        try Data("internal import Reports\n".utf8).write(to: directory.appendingPathComponent("Nested/B.swift"))
        #expect(try Self.imports(in: directory, among: Set(Self.layers)) == ["Base", "Kernel", "FakeAPNs", "Provider", "Reports"])
    }

    @Test("docs/architecture.md's table names each module's declared dependencies as what it imports")
    func architectureTableIsTheManifest() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let targets = try Self.targets()
        var rows: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let module = cells[0].trimmingCharacters(in: ["`"])
            rows[module] = cells.last == "nothing" ? [] : Set(cells.last!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        #expect(Set(rows.keys) == Set(Self.layers.dropLast()), "one row per module but the executable")
        for (module, imports) in rows {
            #expect(imports == Set(targets[module] ?? []), "\(module)'s row says \(imports.sorted())")
        }
    }
}
