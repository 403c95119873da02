import ChildProcesses
import Foundation
import Testing
import X509

/// A seeded generator (SplitMix64), so a test's keys and serials are the same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The `openssl` command line tool, the peer these tests check certificates against: how to
/// tell it is there and how to run it. As `ExternalTool` in CLITests (which this target cannot
/// import): a test needing it carries `.needsOpenSSL`, skipped without it, failing without it
/// when CI=true (`.ci/run` installs it).
enum OpenSSLTool {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
    static let present: Bool = (try? run(["version"]).status) == 0

    /// Runs openssl with `arguments` in `directory`: its status and its output and error, joined.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// A new empty folder for one test's files.
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-x509-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when openssl is there, and always with CI=true (where its absence fails it).
    static var needsOpenSSL: Self {
        .enabled(if: OpenSSLTool.required || OpenSSLTool.present, "needs openssl (apt-get install openssl); with CI=true a missing one fails the test")
    }
}
