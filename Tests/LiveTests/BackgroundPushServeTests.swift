import Base
import Foundation
@testable import Live
import Simulator
import TestSupport
import Testing
import Transport

/// `pushsim serve` and background pushes: APNs's priority rule on the wire, never drawn in
/// Notification Center, handed to the app within the scenario's budget (the model's), and
/// shown by the inspection API.
@Suite("serve: background pushes")
struct BackgroundPushServeTests {
    /// A population whose phones stay online, with a budget of 2 background pushes an hour.
    static func harness() throws -> LiveHarness {
        try LiveHarness(LiveHarness.scenario(extra: #""background": { "rhythm": { "perDay": 0 }, "budgetPerHour": 2 },"#))
    }

    /// `POST /3/device/<token>` as a background push: `priority` nil leaves the header out.
    static func backgroundPush(_ harness: LiveHarness, _ token: String, priority: String?, id: Int) -> HTTPResponse {
        var headers = [Header("apns-topic", LiveHarness.topic), Header("apns-push-type", "background"),
                       Header("apns-id", String(format: "00000000-0000-4000-8000-%012d", id))]
        if let priority { headers.append(Header("apns-priority", priority)) }
        return harness.service.respond(to: HTTPRequest(method: "POST", path: "/3/device/" + token, authority: "api.push.apple.com",
                                                       headers: headers, body: Array(#"{"aps":{"content-available":1}}"#.utf8),
                                                       listener: LiveHarness.apns, connection: harness.connection))
    }

    @Test("a background push at priority 10, or without apns-priority, is 400 BadPriority, as APNs answers")
    func priorityRule() throws {
        let harness = try Self.harness()
        let token = try #require(try harness.devices().first?["token"]?.string)
        for priority in ["10", nil] as [String?] {
            let response = Self.backgroundPush(harness, token, priority: priority, id: 1)
            #expect(response.status == 400 && response.reason == "BadPriority", "\(priority ?? "absent")")
        }
        #expect(Self.backgroundPush(harness, token, priority: "5", id: 2).status == 200)
    }

    @Test("a background push reaches the app, never Notification Center; past the hour's budget the newest waits for the next hour")
    func neverDrawnAndBudgeted() throws {
        let harness = try Self.harness()
        let device = try #require(try harness.devices().first { $0["online"]?.bool == true })
        let token = try #require(device["token"]?.string)
        let number = Int(try #require(device["device"]?.int))
        for id in 1...4 {
            #expect(Self.backgroundPush(harness, token, priority: "5", id: id).status == 200)
            try harness.advance(seconds: 60)
        }
        var app = try harness.deviceApp(number)
        #expect((app["notificationCenter"]?.array ?? []).isEmpty)
        #expect(app["counts"]?.object?["shown"]?.int == 0 && app["counts"]?.object?["delivered"]?.int == 4)
        var background = try #require(app["background"]?.object)
        #expect(background["budgetPerHour"]?.int == 2)
        func fates(_ background: JSONObject) -> [String] {
            (background["received"]?.array ?? []).reversed().compactMap { $0.object?["fate"]?.string }
        }
        #expect(fates(background) == ["delivered_to_app", "delivered_to_app", "deferred", "throttled", "deferred"])
        #expect(background["held"]?.object?["apnsId"]?.string == "00000000-0000-4000-8000-000000000004")
        #expect(background["counts"]?.object?["throttled"]?.int == 1)
        // The next hour: the held one reaches the app as it begins.
        try harness.advance(seconds: 3600)
        app = try harness.deviceApp(number)
        background = try #require(app["background"]?.object)
        #expect(fates(background).last == "delivered_after_deferral")
        #expect(background["held"]?.value == .null)
        #expect(background["counts"]?.object?["delivered_after_deferral"]?.int == 1)
        #expect((app["notificationCenter"]?.array ?? []).isEmpty)
        #expect(harness.service.population.accountingProblem() == nil)

        // The same fates summed where operators read them: GET /counters, /metrics, serve.json.
        let counters = try #require(try harness.control("GET", "/counters").json.object?["background"]?.object)
        #expect(counters["sent"]?.int == 4 && counters["throttled"]?.int == 1 && counters["delivered_after_deferral"]?.int == 1)
        #expect(counters["delivered_to_app"]?.int == 2)
        let metrics = String(decoding: OperatorAPITests.raw(harness, "GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pushsim_background_throttled_total{strategy=\"no-queue\"} 1\n"))
        let report = try ServeReport.files(harness.service, ending: .stopRequested, command: ["serve"])
        let serveJSON = try #require(report.first { $0.name == "serve.json" })
        let summary = try #require(try JSONParser.parse(Array(serveJSON.contents.utf8)).object)
        #expect(summary["background"]?.object?["sent"]?.int == 4)
    }
}
