@testable import CLI
import ChildProcesses
import Foundation
import TestSupport
import Testing
import TestThreads

/// A running `pushsim serve` (the built binary) and what it printed at start.
struct RunningServe {
    let process: ChildProcess
    let output: Pipe
    let errors: Pipe
    /// The ports it printed.
    let apnsPort: Int
    let controlPort: Int
    /// What it printed at start, up to its `ends` line.
    var banner = ""

    /// Starts `pushsim serve` on free ports and waits (at most 60 s) for its address lines.
    static func start(_ binary: String, _ arguments: [String]) throws -> RunningServe {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"] + arguments + ["--listen", "127.0.0.1:0", "--control", "127.0.0.1:0"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\nends "), process.isRunning, Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { Thread.sleep(forTimeInterval: 0.05) } else { text += String(decoding: data, as: UTF8.self) }
        }
        func port(_ label: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(label) }),
                  let colon = line.range(of: "127.0.0.1:") else { return nil }
            return Int(line[colon.upperBound...].prefix { $0.isNumber })
        }
        guard let apns = port("APNs "), let control = port("control ") else {
            process.terminate()
            throw Failure(description: "serve did not print its ports: \(text) \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        }
        return RunningServe(process: process, output: output, errors: errors, apnsPort: apns, controlPort: control, banner: text)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Waits (at most `seconds`) for the process to end; kills it past that.
    func waitForExit(seconds: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.interrupt()
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}

/// Runs a tool and returns its standard output (nil when it cannot be run).
func runTool(_ tool: String, _ arguments: [String]) -> (status: Int32, out: String)? {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("serve: a whole run with curl, as a user makes it", .ownThread, .serialized)
struct ServeEndToEndTests {
    static let scenario = """
    {
      "name": "serve-e2e", "seed": 5, "start": "2026-01-05", "duration": "2d", "devices": 6,
      "mail": { "perDay": 24 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                        "offline": { "distribution": "exponential", "mean": "2h" } },
      "strategies": [ { "name": "no-queue" } ]
    }
    """

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("curl's push to a listed device is 200 with its apns-id and shows; offline, only the newer of two is shown after reconnecting; POST /stop writes the reports",
          .needs(.curl))
    func curlPushesAndInspects() throws {
        let binary = try ServeClientTests.require([.curl])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("e2e.json", Self.scenario)
        let serve = try RunningServe.start(binary, [scenario, "--clock", "controlled", "--topic", "com.example.mail",
                                                    "--out", scratch.file("out")])
        defer { if serve.process.isRunning { kill(serve.process.processIdentifier, SIGKILL) } }
        let control = "http://127.0.0.1:\(serve.controlPort)"
        func get(_ path: String) throws -> [String: Any] { try json(runTool("curl", ["-s", control + path])?.out ?? "") }
        func post(_ path: String, _ body: String) -> String? { runTool("curl", ["-s", "-X", "POST", control + path, "-d", body])?.out }
        func push(_ token: String, _ id: String, _ alert: String) -> String? {
            runTool("curl", ["-s", "-i", "--http2-prior-knowledge", "http://127.0.0.1:\(serve.apnsPort)/3/device/" + token,
                             "-H", "apns-topic: com.example.mail", "-H", "apns-push-type: alert", "-H", "apns-id: " + id,
                             "-d", #"{"aps":{"alert":""# + alert + #""}}"#])?.out
        }
        let devices = try #require(try get("/devices")["devices"] as? [[String: Any]])
        #expect(devices.count == 6)
        let online = try #require(devices.first { $0["online"] as? Bool == true })
        let offline = try #require(devices.first { $0["online"] as? Bool == false })

        // Online: 200 with the apns-id, shown after the delivery latency.
        let answer = try #require(push(online["token"] as! String, "11111111-2222-4333-8444-555555555555", "hello"))
        #expect(answer.hasPrefix("HTTP/2 200"))
        #expect(answer.lowercased().contains("apns-id: 11111111-2222-4333-8444-555555555555"))
        _ = post("/clock", #"{"advanceSeconds": 30}"#)
        let shown = try get("/devices/\(online["device"]!)/apps/0")["notificationCenter"] as? [[String: Any]]
        #expect(shown?.first?["apnsId"] as? String == "11111111-2222-4333-8444-555555555555")
        #expect(shown?.first?["body"] as? String == "hello")

        // Offline: two pushes, APNs keeps the newer; it is shown once the device is back.
        #expect(push(offline["token"] as! String, "00000000-0000-4000-8000-00000000000a", "older")?.hasPrefix("HTTP/2 200") == true)
        #expect(push(offline["token"] as! String, "00000000-0000-4000-8000-00000000000b", "newer")?.hasPrefix("HTTP/2 200") == true)
        var back = false
        for _ in 0..<200 where !back {
            _ = post("/clock", #"{"advanceSeconds": 600}"#)
            back = try get("/devices/\(offline["device"]!)/apps/0")["online"] as? Bool == true
        }
        #expect(back)
        _ = post("/clock", #"{"advanceSeconds": 60}"#)
        let app = try get("/devices/\(offline["device"]!)/apps/0")
        let center = app["notificationCenter"] as? [[String: Any]] ?? []
        #expect(center.map { $0["body"] as? String } == ["newer"])
        #expect((app["counts"] as? [String: Any])?["coalesced"] as? Int == 1)

        #expect(post("/stop", "")?.contains("stopping") == true)
        #expect(serve.waitForExit() == 0)
        let summary = try json(String(contentsOfFile: scratch.file("out/serve.json"), encoding: .utf8))
        #expect(summary["ended"] as? String == "stop requested")
        #expect((summary["counts"] as? [String: Any])?["accepted"] as? Int == 3)
        #expect((summary["counts"] as? [String: Any])?["coalesced"] as? Int == 1)
        let csv = try String(contentsOfFile: scratch.file("out/devices.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 7)
    }

    @Test("SIGTERM ends a scaled run: the reports are written and the exit is 0")
    func signalEndsTheRun() throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("e2e.json", Self.scenario)
        let serve = try RunningServe.start(binary, [scenario, "--speed", "600", "--out", scratch.file("out")])
        defer { if serve.process.isRunning { kill(serve.process.processIdentifier, SIGKILL) } }
        Thread.sleep(forTimeInterval: 0.3)
        kill(serve.process.processIdentifier, SIGTERM)
        #expect(serve.waitForExit() == 0)
        let summary = try json(String(contentsOfFile: scratch.file("out/serve.json"), encoding: .utf8))
        #expect(summary["ended"] as? String == "signal")
        #expect((summary["simulatedSeconds"] as? Double ?? 0) > 0)
    }

    @Test("a scaled run ends by itself at --for and writes its reports")
    func forEndsTheRun() throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("e2e.json", Self.scenario)
        let serve = try RunningServe.start(binary, [scenario, "--speed", "36000", "--for", "1h", "--out", scratch.file("out")])
        #expect(serve.waitForExit() == 0)
        let summary = try json(String(contentsOfFile: scratch.file("out/serve.json"), encoding: .utf8))
        #expect(summary["ended"] as? String == "end reached")
        #expect(summary["simulatedSeconds"] as? Double == 3600)
    }
}
