@testable import CLI
import Foundation
@testable import Reports
import Testing

/// The layers as docs/architecture.md draws them, read from Package.swift and the sources:
/// the compiler refuses an import a target does not declare, and this refuses a declared
/// dependency that points up a layer.
@Suite("Layers: dependencies point one way")
struct LayerTests {
    /// Bottom to top; a module may depend only on modules before it.
    static let layers = ["Base", "Kernel", "FakeAPNs", "Provider", "Device", "Simulator", "ScenarioFormat",
                         "Reports", "Studies", "ProviderAuth", "HTTP2", "HTTP1", "Transport", "Live", "CLI", "pushsim"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each non-test target of Package.swift with its dependencies.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|executableTarget)\(name: "(\w+)"(?:, dependencies: \[([^\]]*)\])?"#)
        var targets: [String: [String]] = [:]
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = String(manifest[Range(match.range(at: 1), in: manifest)!])
            let list = Range(match.range(at: 2), in: manifest).map { String(manifest[$0]) } ?? ""
            targets[name] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\""])) }
                .filter { !$0.isEmpty }
        }
        return targets
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

    @Test("the protocol layers depend on no module and import nothing: no Foundation, no I/O", arguments: ["HTTP2", "HTTP1"])
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
}
