import Base
import FakeAPNs
import Foundation
@testable import Live
import Simulator
import Testing
import Transport

@Suite("serve for operators: /metrics, /openapi.json, paged /devices, pushes expired on arrival")
struct OperatorAPITests {
    /// The answer's text, and its status and content type.
    static func raw(_ harness: LiveHarness, _ method: String, _ path: String) -> HTTPResponse {
        harness.service.respond(to: HTTPRequest(method: method, path: path, body: [], version: .http1_1,
                                                listener: LiveHarness.control, connection: 1))
    }

    /// The sample lines of `text` as `name{labels}` → value.
    static func samples(_ text: String) -> [String: Int64] {
        var values: [String: Int64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Int64(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }

    @Test("GET /metrics has a counter for every APNs and device app count, with HELP and TYPE, equal to GET /counters")
    func metricsFollowTheCounters() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.devices().first?["token"]?.string)
        _ = harness.push(token)
        _ = harness.push(token, topic: "com.example.other")
        try harness.advance(seconds: 60)
        let answer = Self.raw(harness, "GET", "/metrics")
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = String(decoding: answer.body, as: UTF8.self)
        let values = Self.samples(text)
        let counters = try #require(try harness.control("GET", "/counters").json.object)
        let label = "{strategy=\"no-queue\"}"
        for counter in APNsCounter.allCases {
            let name = "pushsim_apns_\(counter.columnName)_total"
            #expect(text.contains("# TYPE \(name) counter\n") && text.contains("# HELP \(name) "))
            #expect(values[name + label] == counters["apns"]?.object?[counter.columnName]?.int, "\(name)")
        }
        for count in DeviceAppCount.allCases {
            let name = "pushsim_device_apps_\(count.columnName)_total"
            #expect(text.contains("# TYPE \(name) counter\n"))
            #expect(values[name + label] == counters["deviceApps"]?.object?[count.columnName]?.int, "\(name)")
        }
        let refused = try #require(counters["rejections"]?.object?.members.first)
        #expect(refused.value.int == 1)
        let reason = try #require(APNsReason.allCases.first { $0.name == refused.key })
        #expect(values["pushsim_rejections_total{strategy=\"no-queue\",reason=\"\(reason.name)\",status=\"\(reason.status)\"}"] == 1)
        #expect(APNsReason.allCases.allSatisfy { text.contains("reason=\"\($0.name)\"") })
        #expect(values["pushsim_answers_total{status=\"200\"}"] == 1)
        #expect(values["pushsim_clock_microseconds"] == 60 * TimeUnit.second)
        #expect(text.hasSuffix("\n"))
    }

    @Test("Prometheus text escapes HELP (backslash, line feed) and label values (backslash, quote, line feed) as 0.0.4 says")
    func prometheusEscaping() {
        var text = PrometheusText()
        text.family("a_total", help: "back\\slash\nnew \"quoted\"", kind: .counter,
                    samples: [([("topic", "a\\b\"c\nd"), ("x", "é")], 3), ([], -1)])
        #expect(text.text == """
        # HELP a_total back\\\\slash\\nnew "quoted"
        # TYPE a_total counter
        a_total{topic="a\\\\b\\"c\\nd",x="é"} 3
        a_total -1

        """)
        #expect(PrometheusText.isMetricName("pushsim_apns:rate_total") && !PrometheusText.isMetricName("9a") && !PrometheusText.isMetricName("a-b"))
        #expect(PrometheusText.isLabelName("_reason") && !PrometheusText.isLabelName("a:b"))
    }

    @Test("the OpenAPI document has every declared route, and only those; serve answers it and ships it byte for byte")
    func openAPIFollowsTheRoutes() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let answer = Self.raw(harness, "GET", "/openapi.json")
        #expect(answer.status == 200)
        #expect(answer.body == Array(ControlAPIDocument.text.utf8))
        let document = try #require(try JSONParser.parse(answer.body).object)
        #expect(document["openapi"]?.string == "3.1.0")
        let paths = try #require(document["paths"]?.object)
        var documented: Set<String> = []
        for path in paths.members {
            for method in path.value.object?.members ?? [] { documented.insert(method.key.uppercased() + " " + path.key) }
        }
        #expect(documented == Set(ControlRoute.allCases.map(\.pattern)))
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schema/pushsim-control-api.openapi.json")
        #expect(try Data(contentsOf: shipped) == Data(ControlAPIDocument.text.utf8),
                "schema/pushsim-control-api.openapi.json differs: swift run pushsim schema control-api > schema/pushsim-control-api.openapi.json")
    }

    @Test("a known path with another method is 405 with Allow listing the methods it takes; an unknown path 404")
    func methodNotAllowedSaysAllow() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let clock = Self.raw(harness, "DELETE", "/clock")
        #expect(clock.status == 405)
        #expect(clock.header("allow") == "GET, HEAD, POST")
        #expect(Self.raw(harness, "PATCH", "/metrics").header("allow") == "GET, HEAD")
        #expect(Self.raw(harness, "GET", "/stop").header("allow") == "POST")
        #expect(Self.raw(harness, "GET", "/metrics/x").status == 404)
        #expect(Self.raw(harness, "GET", "/devices?=&%03=x&=").status == 200)
    }

    @Test("GET /devices pages with limit and after; next is null on the last page; bad values are 400")
    func devicesArePaged() throws {
        let harness = try LiveHarness(LiveHarness.scenario(devices: 5))
        var seen: [Int64] = []
        var after: Int64? = nil
        var pages = 0
        repeat {
            let (status, page) = try harness.control("GET", "/devices?limit=2&counts=true" + (after.map { "&after=\($0)" } ?? ""))
            #expect(status == 200)
            let devices = page.object?["devices"]?.array ?? []
            #expect(devices.count <= 2)
            #expect(devices.allSatisfy { $0.object?["counts"]?.object?["requests"] != nil })
            seen += devices.compactMap { $0.object?["device"]?.int }
            after = page.object?["next"]?.int
            pages += 1
        } while after != nil && pages < 10
        #expect(seen == [0, 1, 2, 3, 4])
        #expect(pages == 3)
        let whole = try harness.control("GET", "/devices").json.object
        #expect(whole?["devices"]?.array?.count == 5)
        #expect(whole?["next"]?.value == .null)
        let past = try harness.control("GET", "/devices?after=99").json.object
        #expect(past?["devices"]?.array?.isEmpty == true && past?["next"]?.value == .null)
        #expect(try harness.control("GET", "/devices?topic=nothing").json.object?["devices"]?.array?.isEmpty == true)
        for bad in ["limit=0", "limit=10001", "limit=x", "after=-1", "after=2147483648", "counts=yes"] {
            let (status, json) = try harness.control("GET", "/devices?" + bad)
            #expect(status == 400, "\(bad)")
            #expect(json.object?["error"]?.string != nil)
        }
    }

    /// 2026-01-05 00:00 UTC, the fixtures' start, in epoch seconds.
    static let startEpoch: Int64 = 1_767_571_200

    @Test("a push whose apns-expiration is already past on the simulated clock is answered 200, counted and flagged")
    func expiredOnArrivalIsSaidAloud() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.devices().first?["token"]?.string)
        try harness.advance(seconds: 3600)
        let expired = harness.push(token, extra: [Header("apns-expiration", String(Self.startEpoch + 60))])
        let fresh = harness.push(token, extra: [Header("apns-expiration", String(Self.startEpoch + 7200))])
        let immediate = harness.push(token, extra: [Header("apns-expiration", "0")])
        #expect(expired.status == 200 && fresh.status == 200 && immediate.status == 200)
        try harness.advance(seconds: 60)
        let counters = try #require(try harness.control("GET", "/counters").json.object)
        #expect(counters["deviceApps"]?.object?["expired_on_arrival"]?.int == 1)
        let metrics = String(decoding: Self.raw(harness, "GET", "/metrics").body, as: UTF8.self)
        #expect(Self.samples(metrics)["pushsim_device_apps_expired_on_arrival_total{strategy=\"no-queue\"}"] == 1)
        let app = try harness.deviceApp(0)
        #expect(app["counts"]?.object?["expired_on_arrival"]?.int == 1)
        let steps = app["extensionLog"]?.array?.compactMap { $0.object?["step"]?.string } ?? []
        #expect(steps.contains { $0.hasPrefix("arrived already expired") })
        let report = try ServeReport.files(harness.service, ending: .stopRequested, command: ["serve"])
        let serveJSON = try #require(report.first { $0.name == "serve.json" })
        let summary = try JSONParser.parse(Array(serveJSON.contents.utf8)).object
        #expect(summary?["counts"]?.object?["expired_on_arrival"]?.int == 1)
        #expect(report[0].contents.split(separator: "\n")[0].contains("expired_on_arrival"))
    }

    @Test("a clock started at the wall clock's time reads it, and a wall-clock expiration a day ahead is not expired")
    func clockStartsNow() throws {
        let wall: SimTime = (Self.startEpoch + 11 * 3600 + 5 * 60) * TimeUnit.second
        let scenario = LiveHarness.scenario()
        let startDay = SimTime(scenario.start.daysSinceEpoch) * TimeUnit.day
        let origin = wall - startDay
        let harness = try LiveHarness(scenario, origin: origin)
        #expect(try harness.control("GET", "/clock").json.object?["now"]?.string == "2026-01-05T11:05:00.000Z")
        let token = try #require(try harness.devices().first?["token"]?.string)
        let tomorrow = wall / TimeUnit.second + 86_400
        #expect(harness.push(token, extra: [Header("apns-expiration", String(tomorrow))]).status == 200)
        #expect(try harness.control("GET", "/counters").json.object?["deviceApps"]?.object?["expired_on_arrival"]?.int == 0)
        let scaled = LiveClock(mode: .scaled(speed: 2), origin: origin)
        #expect(scaled.reading(elapsed: .seconds(3)) == origin + 6 * TimeUnit.second)
    }
}
