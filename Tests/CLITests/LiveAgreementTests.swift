@testable import CLI
import ChildProcesses
import Foundation
import Live
import TestSupport
import Testing
import TestThreads

/// The whole system live: `pushsim serve` and `pushsim provider` (the built binary) over
/// loopback under a controlled clock, against `pushsim run` on the same scenario, seed,
/// devices and strategy, over the scenario's whole duration (docs/provider.md, "Live agrees
/// with simulated"). Each shipped scenario serve and provider can hold runs at a size that
/// keeps its live run to a few seconds in a debug build.
///
/// What must agree, and how closely:
/// - **Exact** where the scenario draws no latency the live run leaves out
///   (`latency.providerToAPNs`, `latency.rerequestRoundTrip`: loopback takes no simulated
///   time, and serve's clock stands still while a phone waits for the provider) and no
///   `provider.network` loss: the two processes then play `run`'s model on `run`'s draws,
///   so every count is the same number — serve.json's `apns` is apns.csv's row, and the
///   mails, mails shown, pushes, re-requests and their errors, timeouts, expired positions,
///   drops, registrations, launches and rotations are summary.csv's — and live.json's
///   standard errors are summary.csv's.
/// - **Within errors** where a left-out latency can reorder what happens (a push reaching
///   APNs 50 ms later finds a device that just left; an extension's deadline passes while a
///   drawn round trip is on its way): the mail is still the same (the provider draws it from
///   the seed), each figure within 3 standard errors of `run`'s.
/// `provider-network` (a loss family of the provider → APNs network, which is loopback
/// here) and `busy-device` (7 million mails) are left out; docs/provider.md says why.
@Suite("serve + provider live agree with run over each servable scenario's whole duration; a provider killed mid-run", .ownThread,
       .serialized)
struct LiveAgreementTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// How closely one family's live run agrees with `run`.
    enum Agreement: Sendable {
        /// Every count the same number: no latency left out, no network loss drawn.
        case exact
        /// The mail the same, each figure within 3 standard errors; why not exact.
        case withinErrors(String)
    }

    /// One family: a scenario (a shipped file, or a test's own text), the strategy whose
    /// provider and app run, the devices, how closely it agrees, and the counts of `run`
    /// (summary.csv's or apns.csv's columns) that must not be 0, so that the run shows the
    /// family's behaviour at this size.
    struct Family: Sendable, CustomTestStringConvertible {
        var scenario: String
        var strategy: String
        var devices: Int
        var agreement: Agreement
        var shows: [String] = []
        /// The scenario's text when it is not a shipped file.
        var text: String?

        var testDescription: String { "\(scenario) \(strategy), \(devices) devices" }
    }

    /// The round trips of `extension-limits` and the latencies of the mail scenarios are drawn by `run` only.
    static let roundTrip = "latency.rerequestRoundTrip is drawn by run; live, the answer comes at the instant the phone asks"
    static let latencies = "latency.providerToAPNs and rerequestRoundTrip are drawn by run; live, loopback takes no simulated time"

    /// Sizes chosen for about 2,000–3,500 mails each (scale-1m's week at 10 a day: 375): together about a minute
    /// of live runs on 2 cores in a debug build.
    static let families: [Family] = [
        Family(scenario: "two-states", strategy: "no-queue", devices: 2, agreement: .exact, shows: ["discarded_replaced"]),
        Family(scenario: "two-states", strategy: "queue", devices: 2, agreement: .exact, shows: ["rerequests"]),
        Family(scenario: "regression-gate", strategy: "queue", devices: 3, agreement: .exact, shows: ["rerequests"]),
        Family(scenario: "apns-rate-limit", strategy: "queue-max-50", devices: 3, agreement: .exact,
               shows: ["too_many_requests", "rerequests"]),
        Family(scenario: "apns-storage-priority", strategy: "queue-priority-5", devices: 3, agreement: .exact,
               shows: ["stored_power", "reordered"]),
        Family(scenario: "identity-and-apps", strategy: "queue", devices: 3, agreement: .exact,
               shows: ["device_id_changes", "hash_mismatches", "launches"]),
        Family(scenario: "measurement", strategy: "queue", devices: 6, agreement: .exact, shows: ["launches", "rerequests"]),
        Family(scenario: "notification-settings", strategy: "queue", devices: 10, agreement: .exact,
               shows: ["lost_disabled", "lost_display_off"]),
        Family(scenario: "provider-outage", strategy: "queue", devices: 6, agreement: .exact,
               shows: ["lost_provider_outage", "positions_expired", "rerequest_errors"]),
        Family(scenario: "stale-subscription", strategy: "queue", devices: 6, agreement: .exact,
               shows: ["lost_stale_subscription", "subscription_changes"]),
        Family(scenario: "token-rotation", strategy: "queue-register-once", devices: 3, agreement: .exact,
               shows: ["token_rotations", "lost_unregistered"]),
        Family(scenario: "extension-limits", strategy: "queue", devices: 6, agreement: .withinErrors(roundTrip),
               shows: ["extension_killed", "extension_timed_out"]),
        Family(scenario: "mail-january-february", strategy: "rollout", devices: 3, agreement: .withinErrors(latencies),
               shows: ["app_updates", "lost_provider_outage", "extension_killed"]),
        Family(scenario: "scale-1m", strategy: "queue", devices: 6, agreement: .withinErrors(latencies), shows: ["rerequests"]),
        // APNs's storage coin tossed hundreds of times: each device app tosses from its own
        // stream in serve as in run, so which of two close pushes survives is the same.
        Family(scenario: "coin", strategy: "queue", devices: 4, agreement: .exact, shows: ["discarded_replaced", "discarded_expired"],
               text: """
               { "name": "coin", "seed": 3, "start": "2026-01-05", "duration": "4d", "devices": 4, "mail": { "perDay": 96 },
                 "connectivity": { "online": { "distribution": "exponential", "mean": "1h" },
                                   "offline": { "distribution": "exponential", "mean": "2h" } },
                 "apns": { "storage": "nondeterministic", "closeTogether": "1h", "expiration": "40m" },
                 "strategies": [ { "name": "queue", "repeatMaxCount": 5 } ] }
               """),
        // APNs's error answers (apns.faults): serve answers them on the simulated clock, random ones per
        // block of users as run draws them, and the provider retries as run's does.
        Family(scenario: "faults", strategy: "queue", devices: 4, agreement: .exact,
               shows: ["fault_service_unavailable_requests", "fault_shutdown_requests", "fault_internal_server_error_requests",
                       "retries", "rerequests"],
               text: """
               { "name": "faults", "seed": 3, "start": "2026-01-05", "duration": "3d", "devices": 4, "mail": { "perDay": 96 },
                 "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                                   "offline": { "distribution": "exponential", "mean": "1h" } },
                 "provider": { "retries": 2, "backoff": "1m" },
                 "apns": { "faults": {
                   "scheduled": [ { "kind": "serviceUnavailable", "start": "2026-01-05T06:00", "duration": "3h" },
                                  { "kind": "shutdown", "start": "2026-01-06T10:00", "duration": "2h" } ],
                   "random": [ { "kind": "internalServerError", "between": { "distribution": "exponential", "mean": "12h" },
                                 "duration": { "distribution": "exponential", "mean": "30m" } } ] } },
                 "strategies": [ { "name": "queue", "repeatMaxCount": 5 } ] }
               """),
        // Dropped connections: GOAWAY below the request and a close without one. The provider's HTTP/2 client
        // sends a request a GOAWAY left unprocessed once more on a new connection (RFC 9113 §6.8), which meets
        // the GOAWAY again; then the provider's policy retries it as run's does.
        Family(scenario: "connection-faults", strategy: "queue", devices: 4, agreement: .exact,
               shows: ["fault_goaway_requests", "fault_connection_closed_requests", "retries"],
               text: """
               { "name": "connection-faults", "seed": 3, "start": "2026-01-05", "duration": "3d", "devices": 4,
                 "mail": { "perDay": 96 },
                 "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                                   "offline": { "distribution": "exponential", "mean": "1h" } },
                 "provider": { "retries": 2, "backoff": "1m" },
                 "apns": { "faults": {
                   "scheduled": [ { "kind": "goaway", "start": "2026-01-05T06:00", "duration": "3h" },
                                  { "kind": "connectionClosed", "start": "2026-01-06T10:00", "duration": "2h" } ] } },
                 "strategies": [ { "name": "queue", "repeatMaxCount": 5 } ] }
               """),
        // A scenario's dated steering events: run plays them in its world, serve on its clock.
        Family(scenario: "steered", strategy: "queue", devices: 3, agreement: .exact,
               shows: ["discarded_replaced", "discarded_disabled", "lost_alerts_not_allowed", "token_rotations"],
               text: """
               { "name": "steered", "seed": 6, "start": "2026-01-05", "duration": "3d", "devices": 3, "mail": { "perDay": 96 },
                 "strategies": [ { "name": "queue", "repeatMaxCount": 5 } ],
                 "events": [ { "at": "2026-01-05T08:00:00Z", "device": 0, "action": "offline" },
                             { "at": "2026-01-05T14:00:00Z", "device": 0, "action": "online" },
                             { "at": "2026-01-06T00:00:00Z", "device": 1, "action": "disableNotifications" },
                             { "at": "2026-01-06T12:00:00Z", "device": 1, "action": "enableNotifications" },
                             { "at": "2026-01-06T06:00:00Z", "device": 2, "action": "reinstall" },
                             { "at": "2026-01-06T09:00:00Z", "device": 2, "action": "launch" },
                             { "at": "2026-01-07T10:00:00Z", "device": 2, "action": "disallowAlerts" } ] }
               """),
    ]

    /// Starts serve (controlled clock, phones calling `port`) and the provider on `port`.
    static func startPair(_ binary: String, scenario: String, strategy: String, sets: [String], port: Int,
                          in scratch: CommandFixtures.ScratchDirectory) throws -> (serve: RunningServe, provider: ChildProcess) {
        let serve = try RunningServe.start(binary, [scenario, "--clock", "controlled", "--strategy", strategy,
                                                    "--provider", "http://127.0.0.1:\(port)", "--out", scratch.file("serve")] + sets)
        let provider = try ServeClientTests.startBackground(
            [binary, "provider", scenario, "--strategy", strategy, "--listen", "127.0.0.1:\(port)",
             "--serve", "http://127.0.0.1:\(serve.controlPort)", "--out", scratch.file("live")] + sets,
            directory: scratch.path, name: "provider")
        return (serve, provider)
    }

    /// A CSV file's row of `strategy`, by column.
    static func row(_ file: String, _ strategy: String) throws -> [String: String] {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(lines.first { $0.hasPrefix(strategy + ",") })
        return Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
    }

    static func object(_ file: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    }

    /// What `pushsim run` reports for `figure` (as `LiveFigure.simulated` says).
    static func simulatedValue(_ figure: LiveFigure, summary: [String: String], apns: [String: String]) -> Double {
        func count(_ row: [String: String], _ column: String) -> Double { Double(row[column] ?? "") ?? .nan }
        let messages = count(summary, "messages")
        return switch figure {
        case .deliverability: count(summary, "delivered") / messages
        case .pushesPerMessage: count(summary, "pushes_sent") / messages
        case .coalescedPerMessage: count(apns, "discarded_replaced") / messages
        case .rerequestsPerMessage: count(summary, "rerequests") / messages
        case .rerequestErrorsPerMessage: count(summary, "rerequest_errors") / messages
        }
    }

    @Test("live agrees with run over the scenario's whole duration: every count the same where no latency is left out, each figure within 3 standard errors where one is; serve and provider both exit 0",
          .timeLimit(.minutes(3)), arguments: families)
    func liveAgreesWithRun(_ family: Family) throws {
        try Self.agrees(family)
    }

    static func agrees(_ family: Family) throws {
        let binary = try ProcessSignalsTests.builtBinary()
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try family.text.map { try scratch.write(family.scenario + ".json", $0) }
            ?? Self.repository + "/scenarios/\(family.scenario).json"
        let sets = ["--set", "devices=\(family.devices)"]
        let simulation = try ServeClientTests.run([binary, "run", scenario, "--strategy", family.strategy, "--out", scratch.file("sim"),
                                                   "--quiet"] + sets, seconds: 120)
        try #require(simulation.status == 0, "\(simulation.err)")
        let (serve, provider) = try Self.startPair(binary, scenario: scenario, strategy: family.strategy, sets: sets,
                                                   port: try ServeClientTests.freePort(), in: scratch)
        defer { ServeClientTests.forceStop(serve) }
        #expect(ServeClientTests.waitForExit(provider, seconds: 150), "the provider did not finish in time")
        let log = (try? String(contentsOfFile: scratch.path + "/provider.log", encoding: .utf8)) ?? ""
        try #require(provider.terminationStatus == 0, "\(log)")
        #expect(serve.waitForExit(seconds: 30) == 0, "serve did not stop on the provider's POST /stop")

        let live = try Self.object(scratch.file("live") + "/live.json")
        let served = try Self.object(scratch.file("serve") + "/serve.json")
        let summary = try Self.row(scratch.file("sim") + "/summary.csv", family.strategy)
        let apns = try Self.row(scratch.file("sim") + "/apns.csv", family.strategy)
        let providerSums = try #require(live["provider"] as? [String: Int])
        let serveSums = try #require(live["serve"] as? [String: Int])
        let figures = try #require(live["figures"] as? [String: [String: Any]])
        #expect(live["simulatedSeconds"] as? Double == served["simulatedSeconds"] as? Double)
        #expect(served["ended"] as? String == "end reached", "serve stopped before the scenario's end")
        for column in family.shows {
            #expect((Double(summary[column] ?? apns[column] ?? "") ?? 0) > 0, "run counts no \(column): the test shows nothing of it")
        }
        // The provider draws the mail from the seed whatever the clocks do.
        #expect(providerSums["messages"].map(String.init) == summary["messages"], "the provider drew other mail than run")

        switch family.agreement {
        case .exact:
            let serveCounts = try #require(served["counts"] as? [String: Int])
            let pushes = (providerSums["sent"] ?? 0) + (providerSums["resent"] ?? 0) + (providerSums["retried"] ?? 0)
            let same: [(String, Int?, String)] = [
                ("mails shown", serveSums["mails_shown"], "delivered"), ("pushes", pushes, "pushes_sent"),
                ("re-requests", serveSums["rerequests"], "rerequests"), ("re-request errors", serveSums["rerequest_errors"], "rerequest_errors"),
                ("re-requests timed out", serveSums["rerequest_timeouts"], "extension_timed_out"),
                ("positions expired", providerSums["positions_expired"], "positions_expired"),
                ("mails dropped in outages", providerSums["dropped_outage"], "lost_provider_outage"),
                ("mails dropped for stale subscriptions", providerSums["dropped_stale_subscription"], "lost_stale_subscription"),
                ("registrations", providerSums["registrations"], "registrations"), ("launches", serveCounts["launches"], "launches"),
                ("token rotations", serveCounts["token_rotations"], "token_rotations"),
            ]
            for (name, value, column) in same {
                #expect(value.map(String.init) == summary[column], "\(name): live \(value ?? -1), run's \(column) \(summary[column] ?? "none")")
            }
            let servedAPNs = try #require(served["apns"] as? [String: Int])
            for (column, value) in apns where column != "strategy" {
                #expect(servedAPNs[column].map(String.init) == value, "APNs's \(column): serve \(servedAPNs[column] ?? -1), run \(value)")
            }
            for figure in LiveFigure.allCases {
                // live.json writes the shortest exact digits; Foundation's reader may land an ulp off.
                let value = try #require(figures[figure.name]?["value"] as? Double)
                let simulated = Self.simulatedValue(figure, summary: summary, apns: apns)
                #expect(abs(value - simulated) <= 4 * simulated.ulp, "\(figure.name): live \(value), run \(simulated)")
            }
            for (figure, column) in [(LiveFigure.deliverability, "deliverability_se"), (.pushesPerMessage, "pushes_per_message_se")] {
                let se = try #require(figures[figure.name]?["se"] as? Double)
                #expect(String(format: "%.6f", se) == summary[column], "\(figure.name)'s standard error: live \(se), run \(summary[column] ?? "")")
            }
        case .withinErrors(let why):
            for figure in LiveFigure.allCases {
                let entry = try #require(figures[figure.name], "live.json has no \(figure.name)")
                let value = try #require(entry["value"] as? Double), se = try #require(entry["se"] as? Double)
                let simulated = Self.simulatedValue(figure, summary: summary, apns: apns)
                let tolerance = se > 0 ? 3 * se : 0.005
                #expect(abs(value - simulated) <= tolerance, "\(figure.name): live \(value) ± \(se), run \(simulated) (\(why))")
            }
        }
    }

    @Test("a provider given another --set or --topic than serve's stops at once, exit 1, with one line naming what differs and no live.json; serve runs on",
          .needs(.curl), .timeLimit(.minutes(2)))
    func mismatchedProviderRefused() throws {
        let binary = try ServeClientTests.require([.curl])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = Self.repository + "/scenarios/two-states.json"
        let sets = ["--set", "devices=3", "--set", "duration=1d"], port = try ServeClientTests.freePort()
        // Seed, strategy, size and end agree: only the mail rate, then only the topic, tells them apart.
        let serve = try RunningServe.start(binary, [scenario, "--clock", "controlled", "--provider", "http://127.0.0.1:\(port)",
                                                    "--out", scratch.file("serve"), "--set", "mail.perDay=30"] + sets)
        defer { ServeClientTests.forceStop(serve) }
        let cases = [(sets, "serve runs another scenario (its digest "),
                     (sets + ["--set", "mail.perDay=30", "--topic", "com.example.other"],
                      "serve's apps have the topics com.example.app, this provider's com.example.other: give both the same --topic")]
        for (arguments, expected) in cases {
            let provider = try ServeClientTests.startBackground(
                [binary, "provider", scenario, "--listen", "127.0.0.1:\(port)", "--serve", "http://127.0.0.1:\(serve.controlPort)",
                 "--out", scratch.file("live"), "--keep-serve"] + arguments, directory: scratch.path, name: "provider")
            provider.waitUntilExit()
            let log = try String(contentsOfFile: scratch.file("provider.log"), encoding: .utf8)
            let errors = log.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(provider.terminationStatus == 1, "\(log)")
            #expect(errors.count == 1 && errors.first?.hasPrefix("error: " + expected) == true, "\(log)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("live") + "/live.json"))
        }
        try ServeClientTests.stop(serve)
    }

    @Test("the provider killed mid-run: the phones' re-requests fail into \"missed messages\" (counted), and serve's books still balance at POST /stop",
          .needs(.curl), .timeLimit(.minutes(4)))
    func killedProviderFailsReRequests() throws {
        try Self.killedProvider()
    }

    static func killedProvider() throws {
        let binary = try ServeClientTests.require([.curl])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let (serve, provider) = try Self.startPair(binary, scenario: Self.repository + "/scenarios/two-states.json", strategy: "queue",
                                                   sets: ["--set", "devices=12", "--set", "duration=2d"],
                                                   port: try ServeClientTests.freePort(), in: scratch)
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
