@testable import CLI
import Foundation
import TestSupport
import Testing
import TestThreads

/// issue 35's "Done when" for phones a test steers: a test written only against serve's
/// control API and a real client (Python's httpx over h2c) switches a phone offline, sends
/// two pushes, switches it online and sees only the newest, the same on every run.
@Suite("serve: a phone a test steers, with a real client", .ownThread, .serialized)
struct ServeSteeringClientTests {
    /// Always online, nothing rotating: what happens to the phone is only what the test steers.
    static let scenario = """
    {
      "name": "serve-steering", "seed": 9, "start": "2026-01-05", "duration": "7d", "devices": 3,
      "mail": { "perDay": 24 },
      "strategies": [ { "name": "no-queue" } ]
    }
    """

    /// One run: serve started afresh, the script, `POST /stop`; the script's JSON, and as texts its
    /// line and the reports serve wrote.
    static func play(_ binary: String) throws -> (result: [String: Any], texts: [String: String]) {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("steering.json", Self.scenario)
        let serve = try RunningServe.start(binary, [file, "--clock", "controlled", "--topic", ServeClientTests.topic,
                                                    "--out", scratch.file("out")])
        defer { ServeClientTests.forceStop(serve) }
        let script = try ServeClientTests.run(["python3", ServeClientTests.fixtures + "/steer_httpx.py", String(serve.apnsPort),
                                               String(serve.controlPort), ServeClientTests.topic], seconds: 90)
        let result = try ServeClientTests.json(script, "steer_httpx.py")
        try ServeClientTests.stop(serve)
        // The script's line itself (its keys sorted), so that two runs compare as text.
        var reports = ["steer_httpx.py": script.out]
        for name in ["devices.csv", "rejections.csv", "steering.csv"] {
            reports[name] = try String(contentsOfFile: scratch.file("out/" + name), encoding: .utf8)
        }
        return (result, reports)
    }

    @Test("httpx over h2c: offline through the control API, two pushes, online: Notification Center shows only the newest, and a second run says the same byte for byte",
          .needs(.curl, .httpx), .timeLimit(.minutes(3)))
    func offlinePhoneShowsOnlyTheNewest() throws {
        let binary = try ServeClientTests.require([.curl, .httpx])
        let (result, reports) = try Self.play(binary)
        #expect((result["first"] as? [String: Any])?["status"] as? Int == 200, "\(result)")
        #expect((result["second"] as? [String: Any])?["status"] as? Int == 200)
        #expect((result["first"] as? [String: Any])?["httpVersion"] as? String == "HTTP/2")
        #expect(result["onlineWhenOff"] as? Bool == false)
        #expect(result["held"] as? [String] == ["second"])
        #expect(result["online"] as? Bool == true)
        #expect(result["shown"] as? [String] == ["second"])
        #expect(result["offlineAt"] as? String == "2026-01-05T00:00:00.000Z")
        #expect(result["onlineAt"] as? String == "2026-01-05T00:01:00.000Z")
        #expect(result["shownAt"] as? [String] == ["2026-01-05T00:01:00.000Z"])
        let counts = try #require(result["counts"] as? [String: Int])
        #expect(counts == ["accepted": 2, "delivered": 1, "shown": 1, "coalesced": 1])
        #expect(result["steps"] as? [String] == ["steered: online (control API)", "steered: offline (control API)"])
        let device = try #require(result["device"] as? Int)
        #expect(reports["steering.csv"] == """
        time,microseconds,device,app,action,source
        2026-01-05T00:00:00.000Z,0,\(device),0,offline,control API
        2026-01-05T00:01:00.000Z,60000000,\(device),0,online,control API

        """)
        // The same requests again: the same answers and the same reports, byte for byte.
        let (again, againReports) = try Self.play(binary)
        #expect(againReports == reports)
        #expect(again["shown"] as? [String] == ["second"])
    }
}
