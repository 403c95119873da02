import Base
import Foundation
@testable import Live
import ProviderAuth
import Simulator
import TestSupport
import Testing
import Transport

/// A serve service driven without sockets: requests go straight to `respond`.
struct LiveHarness {
    let service: ServeService
    static let apns = 0, control = 1
    static let topic = "com.example.mail"
    var connection = 7

    /// A population where devices stay online for days (`onMean`) and go offline briefly.
    static func scenario(devices: Int = 4, days: Int = 7, onMean: String = "1000d", offMean: String = "1m", seed: Int = 3,
                         extra: String = "") -> Scenario {
        WorldFixtures.twoStates(perDay: 24, onMean: onMean, offMean: offMean, devices: devices, days: days, seed: seed,
                                extra: extra, strategies: #"{ "name": "no-queue" }"#)
    }

    init(_ scenario: Scenario, authentication: ProviderAuthentication = .none, clock: ClockMode = .controlled,
         end: SimTime? = nil, provider: ProviderTarget? = nil, origin: SimTime = 0,
         wallClock: @escaping () -> SimTime = { 1_800_000_000 * TimeUnit.second }) throws {
        service = try ServeService(scenario: scenario, strategy: scenario.strategies[0], topics: [Self.topic],
                                   end: end ?? scenario.duration, clock: clock, origin: origin, authentication: authentication,
                                   apnsListener: Self.apns, controlListener: Self.control, provider: provider, wallClock: wallClock)
    }

    /// `POST /3/device/<token>` with the usual headers, and `extra` ones.
    func push(_ token: String, topic: String? = LiveHarness.topic, id: String? = nil, extra: [Header] = [],
              body: String = #"{"aps":{"alert":{"title":"Hello","body":"A new mail"}}}"#,
              clientCertificateChain: [[UInt8]] = []) -> HTTPResponse {
        var headers = extra
        if let topic { headers.append(Header("apns-topic", topic)) }
        if let id { headers.append(Header("apns-id", id)) }
        headers.append(Header("apns-push-type", "alert"))
        var request = HTTPRequest(method: "POST", path: "/3/device/" + token, authority: "api.push.apple.com", headers: headers,
                                  body: Array(body.utf8), listener: Self.apns, connection: connection)
        request.clientCertificateChain = clientCertificateChain
        return service.respond(to: request)
    }

    /// A control API call; the answer's status and JSON.
    func control(_ method: String, _ path: String, body: String = "") throws -> (status: Int, json: JSONNode) {
        let response = service.respond(to: HTTPRequest(method: method, path: path, body: Array(body.utf8), version: .http1_1,
                                                       listener: Self.control, connection: 1))
        return (response.status, try JSONParser.parse(response.body))
    }

    func advance(seconds: Double) throws {
        let (status, _) = try control("POST", "/clock", body: #"{"advanceSeconds": \#(seconds)}"#)
        #expect(status == 200)
    }

    /// `POST /clock` answered later (the clock waits for the provider): true when it was.
    func advanceHeld(seconds: Double) -> Bool {
        service.respond(to: HTTPRequest(method: "POST", path: "/clock", body: Array(#"{"advanceSeconds": \#(seconds)}"#.utf8),
                                        version: .http1_1, listener: Self.control, connection: 1)).isLater
    }

    /// The device apps the API lists.
    func devices() throws -> [JSONObject] {
        let (status, json) = try control("GET", "/devices")
        #expect(status == 200)
        return json.object?["devices"]?.array?.compactMap(\.object) ?? []
    }

    func deviceApp(_ device: Int, _ app: Int = 0) throws -> JSONObject {
        let (status, json) = try control("GET", "/devices/\(device)/apps/\(app)")
        #expect(status == 200)
        return try #require(json.object)
    }
}

extension JSONNode {
    var object: JSONObject? { if case .object(let object) = value { object } else { nil } }
    var array: [JSONNode]? { if case .array(let array) = value { array } else { nil } }
    var string: String? { if case .string(let text) = value { text } else { nil } }
    var int: Int64? { if case .number(let number) = value { number.int64Value } else { nil } }
    var bool: Bool? { if case .bool(let flag) = value { flag } else { nil } }
    var number: Double? { if case .number(let number) = value { number.doubleValue } else { nil } }
}

extension HTTPResponse {
    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    var reason: String? { (try? JSONParser.parse(body))?.object?["reason"]?.string }
}
