@testable import CLI
import Foundation
import Reports
import TestSupport
import Testing
import TestThreads

/// APNs's faults end to end: `pushsim run` reports what each kind cost in summary.csv (and a
/// scenario without faults gets no fault column), and `pushsim serve` plays each kind on the
/// wire to a real HTTP/2 client (the h2 library, Tests/Fixtures/serve/h2_faults.py).
@Suite("APNs faults: run's columns and serve's wire", .ownThread, .serialized)
struct ServeFaultClientTests {
    /// A scenario with a window of 503s (01:00–02:00 on the first day) and slow answers of 400 ms.
    static let scenario = """
    {
      "name": "faults-clients", "seed": 5, "start": "2026-01-05", "duration": "2d", "devices": 30,
      "mail": { "perDay": 24 },
      "provider": { "retries": 2, "backoff": "1s" },
    \(faultsObject)
      "strategies": [ { "name": "no-queue" } ]
    }
    """
    /// The scenario's `apns` line: taken out, the same scenario without faults.
    static let faultsObject = """
      "apns": { "faults": { "scheduled": [ { "kind": "serviceUnavailable", "start": "2026-01-05T01:00", "duration": "1h" } ],
                            "slowLatency": "400ms" } },
    """

    @Test("run on a scenario with faults writes the fault_* columns after every other, with the provider's retries against the 503s; without faults there are none")
    func runShowsFaultColumns() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("faults.json", Self.scenario)
        let result = CapturedConsole.run(["run", file, "--out", scratch.file("out"), "--threads", "2", "--quiet"])
        #expect(result.code == .success, "\(result.err)")
        let text = try String(contentsOfFile: scratch.file("out/summary.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        try #require(rows.count == 2)
        #expect(rows[0] == Reports.summaryColumns + Reports.faultColumns)
        func value(_ column: String) throws -> Int64 {
            let index = try #require(rows[0].firstIndex(of: column))
            return try #require(Int64(rows[1][index]))
        }
        let requests = try value("fault_service_unavailable_requests")
        let retries = try value("fault_service_unavailable_retries"), givenUp = try value("fault_service_unavailable_given_up")
        // 30 devices × 1 mail an hour in the window: each tried three times, nearly all given up.
        #expect(requests > 10 && retries > 0 && givenUp > 0)
        #expect(requests == retries + givenUp)
        #expect(try value("retries") == retries)
        #expect(try value("lost_apns_rejected") == givenUp)
        #expect(try value("fault_slow_requests") == 0)

        let withoutFaults = Self.scenario.replacingOccurrences(of: Self.faultsObject, with: "")
        try #require(withoutFaults != Self.scenario)
        let none = try scratch.write("none.json", withoutFaults)
        let plainRun = CapturedConsole.run(["run", none, "--out", scratch.file("none"), "--quiet"])
        #expect(plainRun.code == .success, "\(plainRun.err) \(withoutFaults)")
        let header = try String(contentsOfFile: scratch.file("none/summary.csv"), encoding: .utf8).split(separator: "\n").first
        #expect(header.map(String.init) == Reports.summaryColumns.joined(separator: ","))
    }

    @Test("serve plays each fault to the h2 library: 503 ServiceUnavailable in the scenario's window, 500, 503 Shutdown then GOAWAY naming its stream, GOAWAY naming stream 0 with no answer, a close without GOAWAY, a slow 200, an idle connection's GOAWAY",
          .needs(.curl, .httpx), .timeLimit(.minutes(2)))
    func h2ClientSeesEachFault() throws {
        let binary = try ServeClientTests.require([.curl, .httpx])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("faults.json", Self.scenario.replacingOccurrences(of: #""perDay": 24"#, with: #""perDay": 0"#))
        let serve = try RunningServe.start(binary, [file, "--clock", "controlled", "--topic", ServeClientTests.topic,
                                                    "--out", scratch.file("out")])
        defer { ServeClientTests.forceStop(serve) }
        let result = try ServeClientTests.json(
            try ServeClientTests.run(["python3", ServeClientTests.fixtures + "/h2_faults.py", String(serve.apnsPort),
                                      String(serve.controlPort), ServeClientTests.topic], seconds: 90), "h2_faults.py")
        func seen(_ name: String) throws -> [String: Any] { try #require(result[name] as? [String: Any], "no \(name): \(result)") }
        func answer(_ name: String, _ stream: String = "1") throws -> [String: Any]? {
            (try seen(name)["answers"] as? [String: Any])?[stream] as? [String: Any]
        }
        func goaway(_ name: String) throws -> [String: Any]? { try seen(name)["goaway"] as? [String: Any] }

        #expect(try answer("scenario-window")?["status"] as? Int == 503)
        #expect(try answer("scenario-window")?["reason"] as? String == "ServiceUnavailable")
        #expect(try answer("internal-error")?["status"] as? Int == 500)
        #expect(try answer("internal-error")?["reason"] as? String == "InternalServerError")

        #expect(try answer("shutdown")?["reason"] as? String == "Shutdown")
        #expect(try answer("shutdown", "3") == nil, "the push after the GOAWAY's stream is not answered")
        #expect(try goaway("shutdown")?["lastStreamId"] as? Int == 1 && goaway("shutdown")?["errorCode"] as? Int == 0)
        #expect(try seen("shutdown")["order"] as? [String] == ["response 1", "goaway"])
        #expect(try seen("shutdown")["closed"] as? Bool == true)

        #expect(try answer("goaway") == nil)
        #expect(try goaway("goaway")?["lastStreamId"] as? Int == 0)
        #expect(try seen("goaway")["closed"] as? Bool == true)

        #expect(try answer("connection-closed") == nil && goaway("connection-closed") == nil)
        #expect(try seen("connection-closed")["closed"] as? Bool == true)

        #expect(try answer("slow")?["status"] as? Int == 200)
        #expect(try (answer("slow")?["after"] as? Double ?? 0) >= 0.35)

        #expect(try answer("idle-closed")?["status"] as? Int == 200)
        #expect(try goaway("idle-closed")?["lastStreamId"] as? Int == 1)
        #expect(try seen("idle-closed")["closed"] as? Bool == true)

        #expect(try answer("after-stop")?["status"] as? Int == 200)
        let counted = try #require((try seen("faults"))["requests"] as? [String: Int])
        #expect(counted == ["internalServerError": 1, "serviceUnavailable": 1, "shutdown": 1, "goaway": 1,
                            "connectionClosed": 1, "slow": 1, "idleClosed": 1])
        try ServeClientTests.stop(serve)
    }
}
