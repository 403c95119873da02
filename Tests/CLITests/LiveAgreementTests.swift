@testable import CLI
import Foundation
import Live
import TestSupport
import Testing

/// The whole system live: `pushsim serve` and `pushsim provider` (the built binary) over
/// loopback under a controlled clock, against `pushsim run` on the same scenario and seed
/// (docs/provider.md, "Live agrees with simulated"). Reading serve's control API mid-run takes curl.
@Suite("serve + provider live agree with run; a provider killed mid-run", .serialized)
struct LiveAgreementTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let scenario = repository + "/scenarios/two-states.json"
    static let sets = ["--set", "devices=12", "--set", "duration=2d"]

    /// Starts serve (controlled clock, phones calling `port`) and the provider on `port`.
    static func startPair(_ binary: String, strategy: String, port: Int, in scratch: CommandFixtures.ScratchDirectory)
        throws -> (serve: RunningServe, provider: Process) {
        let serve = try RunningServe.start(binary, [scenario, "--clock", "controlled", "--strategy", strategy,
                                                    "--provider", "http://127.0.0.1:\(port)", "--out", scratch.file("serve")] + sets)
        let provider = try ServeClientTests.startBackground(
            [binary, "provider", scenario, "--strategy", strategy, "--listen", "127.0.0.1:\(port)",
             "--serve", "http://127.0.0.1:\(serve.controlPort)", "--out", scratch.file("live")] + sets,
            directory: scratch.path, name: "provider")
        return (serve, provider)
    }

    /// `summary.csv`'s row of `strategy` and `apns.csv`'s, by column.
    static func simulated(_ directory: String, _ strategy: String) throws -> (summary: [String: String], apns: [String: String]) {
        func row(_ file: String) throws -> [String: String] {
            let lines = try String(contentsOfFile: directory + "/" + file, encoding: .utf8).split(separator: "\n")
            let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let line = try #require(lines.first { $0.hasPrefix(strategy + ",") })
            return Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
        return (try row("summary.csv"), try row("apns.csv"))
    }

    /// What `pushsim run` reports for `figure` (as `LiveFigure.simulated` says).
    static func simulatedValue(_ figure: LiveFigure, _ sim: (summary: [String: String], apns: [String: String])) -> Double? {
        let messages = Double(sim.summary["messages"] ?? "") ?? .nan
        switch figure {
        case .deliverability: return Double(sim.summary["deliverability"] ?? "")
        case .pushesPerMessage: return Double(sim.summary["pushes_per_message"] ?? "")
        case .coalescedPerMessage: return (Double(sim.apns["discarded_replaced"] ?? "") ?? .nan) / messages
        case .rerequestsPerMessage: return (Double(sim.summary["rerequests"] ?? "") ?? .nan) / messages
        case .rerequestErrorsPerMessage: return (Double(sim.summary["rerequest_errors"] ?? "") ?? .nan) / messages
        }
    }

    @Test("each figure of live.json is within 3 standard errors of pushsim run's (tolerance stated: 3 SE of the live figure, or 0.005 where its SE is 0); serve and provider both exit 0 with their reports",
          .timeLimit(.minutes(4)), arguments: ["no-queue", "queue"])
    func liveAgreesWithSimulated(strategy: String) throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let simulation = try ServeClientTests.run([binary, "run", Self.scenario, "--strategy", strategy, "--out", scratch.file("sim"),
                                                   "--quiet"] + Self.sets, seconds: 120)
        #expect(simulation.status == 0, "\(simulation.err)")
        let (serve, provider) = try Self.startPair(binary, strategy: strategy, port: try ServeClientTests.freePort(), in: scratch)
        defer { ServeClientTests.forceStop(serve) }
        #expect(ServeClientTests.waitForExit(provider, seconds: 150), "the provider did not finish in time")
        let log = (try? String(contentsOfFile: scratch.path + "/provider.log", encoding: .utf8)) ?? ""
        #expect(provider.terminationStatus == 0, "\(log)")
        #expect(serve.waitForExit(seconds: 30) == 0, "serve did not stop on the provider's POST /stop")
        for file in ["devices.csv", "rejections.csv", "serve.json"] {
            #expect(FileManager.default.fileExists(atPath: scratch.file("serve") + "/" + file))
        }

        let live = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.file("live") + "/live.json")))
                                as? [String: Any])
        let figures = try #require(live["figures"] as? [String: [String: Any]])
        let sim = try Self.simulated(scratch.file("sim"), strategy)
        #expect((live["provider"] as? [String: Any])?["messages"] as? Int == Int(sim.summary["messages"] ?? ""),
                "the provider drew other mail than run")
        for figure in LiveFigure.allCases {
            let entry = try #require(figures[figure.name], "live.json has no \(figure.name)")
            let value = try #require(entry["value"] as? Double), se = try #require(entry["se"] as? Double)
            let simulated = try #require(Self.simulatedValue(figure, sim))
            let tolerance = se > 0 ? 3 * se : 0.005
            #expect(abs(value - simulated) <= tolerance,
                    "\(strategy) \(figure.name): live \(value) ± \(se), run \(simulated)")
        }
        if strategy == "queue" {
            #expect((figures["rerequests_per_message"]?["value"] as? Double ?? 0) > 0, "no re-request happened: the test shows nothing")
        }
    }

    @Test("the provider killed mid-run: the phones' re-requests fail into \"missed messages\" (counted), and serve's books still balance at POST /stop",
          .needs(.curl), .timeLimit(.minutes(4)))
    func killedProviderFailsReRequests() throws {
        let binary = try ServeClientTests.require([.curl])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let (serve, provider) = try Self.startPair(binary, strategy: "queue", port: try ServeClientTests.freePort(), in: scratch)
        defer { ServeClientTests.forceStop(serve) }
        // Let the provider move serve's clock past the first half day, then kill it.
        let deadline = Date().addingTimeInterval(90)
        var reached = 0
        while Date() < deadline, provider.isRunning {
            reached = try ServeClientTests.control(serve, "/clock")["microseconds"] as? Int ?? 0
            if reached > 12 * 3_600_000_000 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(reached > 12 * 3_600_000_000, "the provider did not get serve's clock to half a day")
        kill(provider.processIdentifier, SIGKILL)
        provider.waitUntilExit()
        let before = try #require(try ServeClientTests.control(serve, "/counters")["deviceApps"] as? [String: Int])

        // The provider's last push, sent as it died: one position past a gap, to an online device app.
        let online = try ServeClientTests.devices(serve).filter { $0["online"] as? Bool == true }
        var target: (token: String, hash: String, position: Int)?
        for entry in online {
            let app = try ServeClientTests.control(serve, "/devices/\(entry["device"] as? Int ?? -1)/apps/\(entry["app"] as? Int ?? -1)")
            if let position = app["savedPosition"] as? Int, let token = app["token"] as? String, let hash = app["deviceIdHash"] as? String {
                target = (token, hash, position)
                break
            }
        }
        let chosen = try #require(target, "no online device app has a saved position")
        let payload = #"{"aps":{"alert":{"title":"t","body":"b"},"mutable-content":1},"xiva":{"pos":\#(chosen.position + 2),"device_id_hash":"\#(chosen.hash)"},"mid":999999}"#
        let sent = runTool("curl", ["-s", "--max-time", "20", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}",
                                    "http://127.0.0.1:\(serve.apnsPort)/3/device/\(chosen.token)", "-H", "apns-topic: com.example.app",
                                    "-H", "apns-push-type: alert", "-d", payload])
        #expect(sent?.out == "200")

        // The rest of the run without a provider: every call fails at once (connection refused).
        _ = try ServeClientTests.control(serve, "/clock", post: #"{"advanceSeconds": 3600}"#)
        let after = try #require(try ServeClientTests.control(serve, "/counters")["deviceApps"] as? [String: Int])
        let errors = (after["rerequest_errors"] ?? 0) - (before["rerequest_errors"] ?? 0)
        let summaries = (after["summaries_shown"] ?? 0) - (before["summaries_shown"] ?? 0)
        #expect(errors > 0, "no re-request failed after the provider died: \(before) → \(after)")
        #expect(after["rerequests"] ?? 0 > before["rerequests"] ?? 0)
        #expect(summaries >= errors, "each failed re-request shows \"you have missed messages\": \(errors) errors, \(summaries) summaries")
        #expect(try ServeClientTests.control(serve, "/clock")["waitingForProvider"] as? Int == 0)
        try ServeClientTests.stop(serve)
        let report = try String(contentsOfFile: scratch.file("serve") + "/serve.json", encoding: .utf8)
        #expect(report.contains("\"rerequest_errors\":\(after["rerequest_errors"] ?? -1)"), "\(report)")
    }
}
