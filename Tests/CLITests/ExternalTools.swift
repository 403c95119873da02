import ChildProcesses
import Foundation
import Synchronization
import Testing

/// A program outside Swift that a test drives the built `pushsim` with (curl, nghttp, haproxy,
/// Python's modules): how to tell it is there, and how to install it. A test that needs one
/// names it twice: in its `.needs(…)` trait, which skips the test when the tool is missing,
/// and in `ServeClientTests.require`, which fails it then; the second is reached only with
/// CI=true (`.ci/run` installs the tools), where a missing tool must fail, not skip.
struct ExternalTool: Sendable {
    let name: String
    let probe: [String]
    let install: String

    static let curl = ExternalTool(name: "curl with HTTP/2", probe: ["sh", "-c", "curl --version | grep -q HTTP2"],
                                   install: "apt-get install curl")
    static let nghttp = ExternalTool(name: "nghttp", probe: ["nghttp", "--version"], install: "apt-get install nghttp2-client")
    static let h2load = ExternalTool(name: "h2load", probe: ["h2load", "--version"], install: "apt-get install nghttp2-client")
    static let haproxy = ExternalTool(name: "haproxy", probe: ["haproxy", "-v"], install: "apt-get install haproxy")
    static let openssl = ExternalTool(name: "openssl", probe: ["openssl", "version"], install: "apt-get install openssl")
    static let httpx = ExternalTool(name: "Python's httpx with h2", probe: ["python3", "-c", "import httpx, h2"],
                                    install: "python3 -m pip install httpx h2")
    static let aioapns = ExternalTool(name: "Python's aioapns", probe: ["python3", "-c", "import aioapns, jwt, cryptography"],
                                      install: "python3 -m pip install aioapns")
    static let aapns = ExternalTool(name: "Python's aapns", probe: ["python3", "-c", "import aapns, jwt"],
                                    install: "python3 -m pip install aapns pyjwt cryptography")
    /// apns2-up in its own virtual environment under .build (it brings hyper-up and its own h2),
    /// so it cannot disturb the h2 aioapns needs; `.ci/run` makes it.
    static let apns2Up = ExternalTool(name: "apns2-up in .build/apns2-venv", probe: [apns2Python, "-c", "import apns2.client"],
                                      install: "python3 -m venv .build/apns2-venv && .build/apns2-venv/bin/pip install apns2-up")
    static let apns2Python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/apns2-venv/bin/python").path
    static let java = ExternalTool(name: "Java (a JDK: java runs a .java file)", probe: ["sh", "-c", "java -version && command -v javac"],
                                   install: "apt-get install default-jdk-headless")
    static let prometheusClient = ExternalTool(name: "Python's prometheus_client", probe: ["python3", "-c", "import prometheus_client.parser"],
                                               install: "python3 -m pip install prometheus_client")
    static let schemathesis = ExternalTool(name: "schemathesis", probe: ["schemathesis", "--version"],
                                           install: "python3 -m pip install schemathesis")
    static let hyperframe = ExternalTool(name: "Python's hyperframe and hpack", probe: ["python3", "-c", "import hyperframe, hpack"],
                                         install: "python3 -m pip install hyperframe hpack")

    /// With CI=true every tool must be there: a missing one fails its test instead of skipping it.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// What each probe found, so that a tool is probed once however many tests need it.
    private static let probed = Mutex<[String: Bool]>([:])

    /// Whether the probe exits 0 (run once, given at most 20 s).
    var present: Bool {
        if let known = Self.probed.withLock({ $0[name] }) { return known }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = probe
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        var found = false
        if (try? process.run()) != nil {
            found = ServeClientTests.waitForExit(process, seconds: 20) && process.terminationStatus == 0
        }
        Self.probed.withLock { $0[name] = found }
        return found
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when every one of `tools` is there, and always with CI=true; otherwise the
    /// test shows as skipped, naming what to install.
    static func needs(_ tools: ExternalTool...) -> Self {
        let names = tools.map { "\($0.name) (\($0.install))" }.joined(separator: ", ")
        return .enabled(if: ExternalTool.required || tools.allSatisfy(\.present),
                        Comment(rawValue: "needs \(names); with CI=true a missing one fails the test"))
    }
}
