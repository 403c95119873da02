import Base
import Foundation
@testable import Live
import Simulator
import TestSupport
import Testing
import Transport

@Suite("serve's control API: phones a test steers")
struct SteeringRouteTests {
    static func act(_ harness: LiveHarness, _ device: Int, _ app: Int = 0, _ action: String) throws -> (status: Int, json: JSONNode) {
        try harness.control("POST", "/devices/\(device)/apps/\(app)/actions", body: #"{"action": "\#(action)"}"#)
    }

    static func shownBodies(_ deviceApp: JSONObject) -> [String] {
        deviceApp["notificationCenter"]?.array?.compactMap { $0.object?["body"]?.string } ?? []
    }

    static func log(_ deviceApp: JSONObject) -> [String] {
        deviceApp["extensionLog"]?.array?.compactMap { $0.object?["step"]?.string } ?? []
    }

    @Test("offline, two pushes, online: APNs held only the newest, and Notification Center shows only it")
    func offlineKeepsOnlyTheNewest() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.deviceApp(1)["token"]?.string)
        var (status, answer) = try Self.act(harness, 1, 0, "offline")
        #expect(status == 200)
        #expect(answer.object?["online"]?.bool == false)
        #expect(harness.push(token, body: #"{"aps":{"alert":{"title":"1","body":"first"}}}"#).status == 200)
        try harness.advance(seconds: 10)
        #expect(harness.push(token, body: #"{"aps":{"alert":{"title":"2","body":"second"}}}"#).status == 200)
        let holding = try harness.deviceApp(1)
        #expect(holding["apnsHolds"]?.array?.count == 1)
        #expect(holding["apnsHolds"]?.array?.first?.object?["body"]?.string == "second")
        (status, answer) = try Self.act(harness, 1, 0, "online")
        #expect(status == 200 && answer.object?["online"]?.bool == true)
        try harness.advance(seconds: 10)
        let after = try harness.deviceApp(1)
        #expect(Self.shownBodies(after) == ["second"])
        #expect(after["counts"]?.object?["coalesced"]?.int == 1)
        #expect(Self.log(after).contains("steered: offline (control API)"))
        #expect(Self.log(after).contains("steered: online (control API)"))
        #expect(harness.service.population.steerings.map(\.action) == [.offline, .online])
    }

    @Test("notification settings: disabled drops at APNs, alerts and display off draw nothing, and each turns back on")
    func settings() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.deviceApp(0)["token"]?.string)
        #expect(try Self.act(harness, 0, 0, "disableNotifications").status == 200)
        #expect(harness.push(token).status == 200)
        try harness.advance(seconds: 1)
        var counts = try #require(try harness.deviceApp(0)["counts"]?.object)
        #expect(counts["discarded_disabled"]?.int == 1 && counts["delivered"]?.int == 0)
        #expect(try Self.act(harness, 0, 0, "enableNotifications").status == 200)
        #expect(try Self.act(harness, 0, 0, "disallowAlerts").status == 200)
        _ = harness.push(token)
        try harness.advance(seconds: 1)
        #expect(Self.log(try harness.deviceApp(0)).contains("not shown: alerts not allowed"))
        #expect(try Self.act(harness, 0, 0, "allowAlerts").status == 200)
        #expect(try Self.act(harness, 0, 0, "displayOff").status == 200)
        _ = harness.push(token)
        try harness.advance(seconds: 1)
        #expect(Self.log(try harness.deviceApp(0)).contains("not shown: display off"))
        #expect(try Self.act(harness, 0, 0, "displayOn").status == 200)
        _ = harness.push(token, body: #"{"aps":{"alert":{"title":"t","body":"seen"}}}"#)
        try harness.advance(seconds: 1)
        let deviceApp = try harness.deviceApp(0)
        counts = try #require(deviceApp["counts"]?.object)
        #expect(counts["delivered"]?.int == 3 && counts["not_shown"]?.int == 2 && counts["shown"]?.int == 1)
        #expect(Self.shownBodies(deviceApp) == ["seen"])
    }

    @Test("launch registers and uploads the log; rotateToken and reinstall give a new token, the old one kept as old")
    func appActions() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let before = try harness.deviceApp(2)
        let launches = before["counts"]?.object?["launches"]?.int ?? -1
        var (status, answer) = try Self.act(harness, 2, 0, "launch")
        #expect(status == 200)
        #expect(answer.object?["counts"]?.object?["launches"]?.int == launches + 1)
        #expect(Self.log(try #require(answer.object)).contains("the app uploaded its log"))
        #expect(Self.log(try #require(answer.object)).contains("the app registered its token"))
        let first = try #require(before["token"]?.string)
        (status, answer) = try Self.act(harness, 2, 0, "rotateToken")
        let second = try #require(answer.object?["token"]?.string)
        #expect(status == 200 && second != first)
        (status, answer) = try Self.act(harness, 2, 0, "reinstall")
        let third = try #require(answer.object?["token"]?.string)
        #expect(status == 200 && third != second && third != first)
        #expect(Self.log(try #require(answer.object)).contains("token changed (reinstall)"))
        let listed = try #require(try harness.devices().first { $0["device"]?.int == 2 })
        #expect(listed["oldTokens"]?.array?.compactMap(\.string) == [first, second])
        // The new token takes pushes.
        #expect(harness.push(third).status == 200)
    }

    @Test("steering refuses what it cannot do: an unknown action or body is 400, an unknown device app 404, GET 405")
    func refusals() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        var (status, answer) = try Self.act(harness, 0, 0, "explode")
        #expect(status == 400)
        #expect(answer.object?["error"]?.string?.hasPrefix("unknown action \"explode\"; expected one of: online, offline") == true)
        (status, answer) = try harness.control("POST", "/devices/0/apps/0/actions", body: #"{"action": "online", "also": 1}"#)
        #expect(status == 400)
        #expect(try harness.control("POST", "/devices/0/apps/0/actions", body: "no").status == 400)
        #expect(try Self.act(harness, 99, 0, "online").status == 404)
        #expect(try Self.act(harness, 0, 5, "online").status == 404)
        #expect(try harness.control("GET", "/devices/0/apps/0/actions").status == 405)
        #expect(harness.service.population.steerings.isEmpty)
    }

    @Test("a team's own test token: registered for a topic, it takes pushes, shows them, and can be steered")
    func testToken() throws {
        let harness = try LiveHarness(LiveHarness.scenario(devices: 4))
        let token = String(repeating: "ab", count: 32)
        var (status, answer) = try harness.control("POST", "/tokens", body: #"{"token": "\#(token.uppercased())", "topic": "\#(LiveHarness.topic)"}"#)
        #expect(status == 201)
        #expect(answer.object?["device"]?.int == 4 && answer.object?["app"]?.int == 0)
        #expect(answer.object?["token"]?.string == token)
        #expect(harness.push(token, body: #"{"aps":{"alert":{"title":"t","body":"to the test token"}}}"#).status == 200)
        try harness.advance(seconds: 1)
        #expect(Self.shownBodies(try harness.deviceApp(4)) == ["to the test token"])
        #expect(try Self.act(harness, 4, 0, "offline").status == 200)
        // Refusals: the same token again, another topic, a token that is not 32 bytes, a body without a topic.
        (status, answer) = try harness.control("POST", "/tokens", body: #"{"token": "\#(token)", "topic": "\#(LiveHarness.topic)"}"#)
        #expect(status == 409)
        #expect(answer.object?["error"]?.string == "token: device 4 app 0 already holds it")
        (status, answer) = try harness.control("POST", "/tokens", body: #"{"token": "\#(String(repeating: "cd", count: 32))", "topic": "org.other"}"#)
        #expect(status == 404)
        #expect(answer.object?["error"]?.string?.hasPrefix("topic: serve serves") == true)
        #expect(try harness.control("POST", "/tokens", body: #"{"token": "abcd", "topic": "\#(LiveHarness.topic)"}"#).status == 400)
        #expect(try harness.control("POST", "/tokens", body: #"{"token": "\#(token)"}"#).status == 400)
        #expect(try harness.devices().count == 5)
    }

    @Test("a scenario's events happen on serve's clock, and serve's reports list every steering action with its time and source")
    func scenarioEventsInServe() throws {
        let scenario = LiveHarness.scenario(extra: """
        "events": [{ "at": "2026-01-05T01:00:00Z", "device": 3, "action": "offline" },
                   { "at": "2026-01-05T02:00:00Z", "device": 3, "action": "online" }],
        """)
        func play() throws -> [(name: String, contents: String)] {
            let harness = try LiveHarness(scenario)
            let token = try #require(try harness.deviceApp(3)["token"]?.string)
            try harness.advance(seconds: 3600)
            #expect(try harness.deviceApp(3)["online"]?.bool == false)
            _ = harness.push(token, body: #"{"aps":{"alert":{"title":"1","body":"first"}}}"#)
            _ = harness.push(token, body: #"{"aps":{"alert":{"title":"2","body":"second"}}}"#)
            #expect(try Self.act(harness, 0, 0, "launch").status == 200)
            try harness.advance(seconds: 3600)
            #expect(Self.shownBodies(try harness.deviceApp(3)) == ["second"])
            return try ServeReport.files(harness.service, ending: .endReached, command: ["serve"])
        }
        let files = try play()
        let steering = try #require(files.first { $0.name == "steering.csv" }?.contents)
        #expect(steering == """
        time,microseconds,device,app,action,source
        2026-01-05T01:00:00.000Z,3600000000,3,0,offline,scenario
        2026-01-05T01:00:00.000Z,3600000000,0,0,launch,control API
        2026-01-05T02:00:00.000Z,7200000000,3,0,online,scenario

        """)
        // The same requests give the same reports, byte for byte.
        let again = try play()
        #expect(again.map(\.name) == files.map(\.name))
        #expect(again.map(\.contents) == files.map(\.contents))
    }
}
