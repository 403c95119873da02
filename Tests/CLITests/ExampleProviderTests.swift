@testable import CLI
import ChildProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import TestThreads

/// examples/provider.py, the minimal provider docs/provider-api.md shows, against `pushsim serve
/// --provider` (the built binary) on loopback: the phones register with it, it numbers and pushes
/// mails, and a position APNs coalesced comes back through the extension's re-request. Python's
/// httpx with h2 and curl are needed: a missing one skips the test locally and fails it with
/// CI=true (.ci/run installs them). Every wait is bounded and both processes are stopped.
@Suite("serve --provider: examples/provider.py, a minimal provider in Python, registers, numbers and re-sends", .ownThread, .serialized)
struct ExampleProviderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let topic = "com.example.mail"

    /// examples/provider.py running, its output in `directory`/provider.log.
    struct RunningExample {
        let process: ChildProcess
        /// The URL it printed.
        let url: String
        let log: String
    }

    /// Starts the example on `port`, sending to serve's APNs port; waits (at most 30 s) for the URL it prints.
    static func startExample(port: Int, apnsPort: Int, directory: String) throws -> RunningExample {
        let process = try ServeClientTests.startBackground(
            ["python3", repository + "/examples/provider.py", "--listen", "127.0.0.1:\(port)",
             "--apns", "http://127.0.0.1:\(apnsPort)"], directory: directory, name: "provider")
        let log = directory + "/provider.log"
        let deadline = Date().addingTimeInterval(30)
        var url: String?
        while url == nil, process.isRunning, Date() < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            url = text.split(separator: "\n").first { $0.hasPrefix("http://") }.map(String.init)
            if url == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let url else {
            ServeClientTests.waitForExit(process, seconds: 0)
            throw RunningServe.Failure(description: "examples/provider.py printed no URL: "
                + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        return RunningExample(process: process, url: url, log: log)
    }

    /// The example's own routes (POST /mail, GET /calls) through curl: its status and JSON object.
    static func example(_ example: RunningExample, _ path: String, post body: String? = nil) throws -> (status: Int, json: [String: Any]) {
        var arguments = ["-s", "--max-time", "20", "-w", "\n%{http_code}", example.url + path]
        if let body { arguments += ["-X", "POST", "-H", "content-type: application/json", "-d", body] }
        let text = runTool("curl", arguments)?.out ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)) as? [String: Any],
                                "\(path): \(text)")
        return (Int(lines.last ?? "") ?? 0, json)
    }

    /// One device app of serve's control API.
    static func deviceApp(_ serve: RunningServe, _ device: Int, _ app: Int) throws -> [String: Any] {
        try ServeClientTests.control(serve, "/devices/\(device)/apps/\(app)")
    }

    /// Moves serve's clock a minute at a time (at most 12 simulated hours) until the device app's
    /// `online` is `online`; true when it is.
    static func advance(_ serve: RunningServe, _ device: Int, _ app: Int, untilOnline online: Bool) throws -> Bool {
        for _ in 0..<720 {
            _ = try ServeClientTests.control(serve, "/clock", post: #"{"advanceSeconds": 60}"#)
            if try deviceApp(serve, device, app)["online"] as? Bool == online { return true }
        }
        return false
    }

    @Test("the phones register at install with examples/provider.py started after serve; a mail shows; of two mails sent while offline APNs keeps the newer, and the extension's re-request (position 3, gap 1) brings the other back: all three show, 1 coalesced, 1 re-request",
          .needs(.curl, .httpx), .timeLimit(.minutes(5)))
    func rerequestBringsBackACoalescedMail() throws {
        let binary = try ServeClientTests.require([.curl, .httpx])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        // The example needs serve's APNs port and serve the example's URL: serve starts first, and
        // its phones register again once a second until the provider takes them (docs/provider-api.md).
        let port = try ServeClientTests.freePort()
        let serve = try RunningServe.start(binary, [Self.repository + "/scenarios/two-states.json", "--clock", "controlled",
                                                    "--set", "devices=5", "--topic", Self.topic, "--strategy", "queue",
                                                    "--provider", "http://127.0.0.1:\(port)", "--out", scratch.file("out")])
        defer { ServeClientTests.forceStop(serve) }
        let example = try Self.startExample(port: port, apnsPort: serve.apnsPort, directory: scratch.path)
        defer { ServeClientTests.waitForExit(example.process, seconds: 0) }
        #expect(example.url == "http://127.0.0.1:\(port)")
        func log() -> String { (try? String(contentsOfFile: example.log, encoding: .utf8)) ?? "" }

        // Every device app registers at install.
        let deviceApps = try ServeClientTests.devices(serve)
        #expect(deviceApps.count == 5)
        var registered: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(30)
        repeat {
            registered = try Self.example(example, "/calls").json["/register"] as? [[String: Any]] ?? []
            if Set(registered.map { "\($0["device"] ?? "")/\($0["app"] ?? "")" }).count >= deviceApps.count { break }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        #expect(Set(registered.map { "\($0["device"] ?? "")/\($0["app"] ?? "")" }).count == deviceApps.count, "\(registered) \(log())")

        // An online device app: its first mail is position 1, and shows.
        let chosen = try #require(deviceApps.first { $0["online"] as? Bool == true })
        let device = try #require(chosen["device"] as? Int), app = try #require(chosen["app"] as? Int)
        let registration = try #require(registered.first { $0["device"] as? Int == device && $0["app"] as? Int == app })
        #expect(registration["token"] as? String == chosen["token"] as? String)
        #expect(registration["topic"] as? String == Self.topic)
        func mail(_ body: String) throws -> [String: Any] {
            let answer = try Self.example(example, "/mail", post: #"{"device": \#(device), "app": \#(app), "body": "\#(body)"}"#)
            #expect(answer.status == 200, "\(answer.json) \(log())")
            return answer.json
        }
        let first = try mail("mail 1")
        #expect(first["position"] as? Int == 1 && first["status"] as? Int == 200, "\(first)")
        _ = try ServeClientTests.control(serve, "/clock", post: #"{"advanceSeconds": 60}"#)
        let shown = try Self.deviceApp(serve, device, app)["notificationCenter"] as? [[String: Any]] ?? []
        #expect(shown.map { $0["body"] as? String } == ["mail 1"], "\(shown)")

        // Offline, two mails: APNs keeps only the newer (position 3).
        #expect(try Self.advance(serve, device, app, untilOnline: false), "device \(device) app \(app) never went offline")
        let second = try mail("mail 2"), third = try mail("mail 3")
        #expect(second["position"] as? Int == 2 && second["status"] as? Int == 200, "\(second)")
        #expect(third["position"] as? Int == 3 && third["status"] as? Int == 200, "\(third)")

        // Back online: position 3 arrives, the extension re-requests position 2, the example re-sends it.
        #expect(try Self.advance(serve, device, app, untilOnline: true), "device \(device) app \(app) never came back")
        _ = try ServeClientTests.control(serve, "/clock", post: #"{"advanceSeconds": 60}"#)
        let inspected = try Self.deviceApp(serve, device, app)
        let center = inspected["notificationCenter"] as? [[String: Any]] ?? []
        #expect(Set(center.compactMap { $0["body"] as? String }) == ["mail 1", "mail 2", "mail 3"], "\(inspected)")
        #expect(center.count == 3, "\(center)")
        let counts = inspected["counts"] as? [String: Any] ?? [:]
        #expect(counts["coalesced"] as? Int == 1, "\(counts)")
        #expect(counts["rerequests"] as? Int == 1, "\(counts)")
        let rerequests = try Self.example(example, "/calls").json["/rerequest"] as? [[String: Any]] ?? []
        #expect(rerequests.count == 1, "\(rerequests)")
        #expect(rerequests.first?["device"] as? Int == device && rerequests.first?["app"] as? Int == app, "\(rerequests)")
        #expect(rerequests.first?["position"] as? Int == 3 && rerequests.first?["gap"] as? Int == 1, "\(rerequests)")

        try ServeClientTests.stop(serve)
    }
}
