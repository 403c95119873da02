import Base
import FakeAPNs
@testable import Live
import Simulator
import TestSupport
import Testing
import Transport

/// serve's APNs faults without sockets: what `POST /faults` and the scenario's windows make of
/// an APNs request, and what the control API answers (what reaches the wire: ServeFaultClientTests).
@Suite("serve: APNs faults")
struct ServeFaultTests {
    static func harness(faults: String = #"{"scheduled": [{"kind": "internalServerError", "start": "2026-01-05T01:00", "duration": "1h"}]}"#)
        throws -> LiveHarness {
        try LiveHarness(LiveHarness.scenario(devices: 2, extra: #""apns": {"faults": \#(faults)},"#))
    }

    func firstToken(_ harness: LiveHarness) throws -> String {
        try #require(try harness.devices().first?["token"]?.string)
    }

    @Test("the scenario's window answers 500 InternalServerError on the simulated clock, and only inside it")
    func scenarioWindow() throws {
        let harness = try Self.harness()
        let token = try firstToken(harness)
        #expect(harness.push(token).status == 200)
        try harness.advance(seconds: 3700)
        let failed = harness.push(token)
        #expect(failed.status == 500 && failed.reason == "InternalServerError")
        #expect(failed.header("apns-id") != nil)
        let (_, faults) = try harness.control("GET", "/faults")
        #expect(faults.object?["inForce"]?.string == "internalServerError")
        #expect(faults.object?["scenario"]?.string == "internalServerError")
        #expect(faults.object?["requests"]?.object?["internalServerError"]?.int == 1)
        try harness.advance(seconds: 3600)
        #expect(harness.push(token).status == 200)
    }

    @Test("POST /faults starts a fault for simulated seconds, over the scenario's, and {\"stop\": true} ends it")
    func startAndStop() throws {
        let harness = try Self.harness()
        let token = try firstToken(harness)
        let (status, started) = try harness.control("POST", "/faults", body: #"{"kind": "serviceUnavailable", "seconds": 30}"#)
        #expect(status == 200)
        #expect(started.object?["started"]?.object?["kind"]?.string == "serviceUnavailable")
        #expect(started.object?["started"]?.object?["until"]?.string == "2026-01-05T00:00:30.000Z")
        #expect(harness.push(token).reason == "ServiceUnavailable")
        try harness.advance(seconds: 31)
        #expect(harness.push(token).status == 200)
        // Without seconds it lasts until stopped, and stands over the scenario's window.
        _ = try harness.control("POST", "/faults", body: #"{"kind": "shutdown"}"#)
        try harness.advance(seconds: 3700)
        let shutdown = harness.push(token)
        #expect(shutdown.status == 503 && shutdown.reason == "Shutdown")
        // The loop's next turn: the connection's GOAWAY is gone out (its later streams are above it).
        _ = harness.service.tick(elapsed: .seconds(1))
        let (_, stopped) = try harness.control("POST", "/faults", body: #"{"stop": true}"#)
        #expect(stopped.object?["started"]?.value == .null)
        #expect(stopped.object?["inForce"]?.string == "internalServerError")
        #expect(harness.push(token).status == 500)
    }

    @Test("the connection kinds leave the request unanswered here (the transport drops the connection); slow answers it later")
    func connectionKindsAnswerLater() throws {
        let harness = try Self.harness(faults: #"{"slowLatency": "10ms"}"#)
        let token = try firstToken(harness)
        for kind in ["goaway", "connectionClosed", "slow"] {
            _ = try harness.control("POST", "/faults", body: #"{"kind": "\#(kind)"}"#)
            #expect(harness.push(token).isLater, "\(kind)")
            _ = harness.service.tick(elapsed: .seconds(1))
        }
        _ = try harness.control("POST", "/faults", body: #"{"kind": "idleClosed"}"#)
        #expect(harness.push(token).status == 200)
        let (_, faults) = try harness.control("GET", "/faults")
        let requests = try #require(faults.object?["requests"]?.object)
        #expect(["goaway", "connectionClosed", "slow", "idleClosed"].allSatisfy { requests[$0]?.int == 1 })
    }

    @Test("a body POST /faults cannot read is 400 with what it expects", arguments: [
        "", "[]", #"{"kind": "nope"}"#, #"{"kind": "slow", "seconds": 0}"#, #"{"kind": "slow", "seconds": "5"}"#,
        #"{"kind": "slow", "for": 5}"#, #"{"stop": false}"#, #"{"stop": true, "kind": "slow"}"#,
    ])
    func badBodies(body: String) throws {
        let harness = try Self.harness()
        let (status, answer) = try harness.control("POST", "/faults", body: body)
        #expect(status == 400)
        #expect(answer.object?["error"]?.string?.contains("internalServerError") == true
                || answer.object?["error"]?.string?.contains("seconds") == true)
    }
}
