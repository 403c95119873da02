import ChildProcesses
import Foundation

/// Runs the command-line clients the tests drive (curl, nghttp, h2load, python3), bounded
/// in time. A missing tool skips its test with a note, except with CI=true, where it
/// fails: CI must have it (`.ci/run` installs them).
enum ExternalTool {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
        var timedOut: Bool
    }

    /// Whether `name` is an executable on PATH.
    static func isInstalled(_ name: String) -> Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Whether `python3 -c 'import <modules>'` works.
    static func pythonHas(_ modules: String) -> Bool {
        (try? run("python3", ["-c", "import \(modules)"], timeout: 30).status) == 0
    }

    /// Runs `tool` with `arguments`; killed after `timeout` seconds.
    static func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 60, input: Data? = nil) throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try? inputPipe.fileHandleForWriting.close()
        }
        let timedOut = Mutex(false)
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning {
                timedOut.withLock { $0 = true }
                process.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Read both pipes to the end before waiting, so a chatty tool cannot block on a full pipe.
        let group = DispatchGroup()
        let collected = Mutex((Data(), Data()))
        // The reads block until the tool exits: each on a queue of its own (a thread of dispatch's
        // overcommitting pool), not the global queue, whose threads Swift's cooperative pool shares.
        DispatchQueue(label: "pushsim.test.pipe-reader").async(group: group) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.0 = data }
        }
        DispatchQueue(label: "pushsim.test.pipe-reader").async(group: group) {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.1 = data }
        }
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        let (out, err) = collected.withLock { $0 }
        return Outcome(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                       errors: String(decoding: err, as: UTF8.self), timedOut: timedOut.withLock { $0 })
    }
}

import Synchronization
