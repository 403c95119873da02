import Base
import FakeAPNs
import Foundation
@testable import Live
import ProviderAuth
import Simulator
import TestSupport
import Testing
import Transport

@Suite("serve's APNs endpoint: the wire contract over the live population")
struct APNsEndpointTests {
    @Test("a push to a listed device comes back 200 with its apns-id, lowercase, and shows in Notification Center")
    func pushIsAcceptedAndShown() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let device = try #require(try harness.devices().first { $0["online"]?.bool == true })
        let token = try #require(device["token"]?.string)
        #expect(token.count == 64)
        let id = "A1B2C3D4-0000-4000-8000-00000000000F"
        let response = harness.push(token, id: id)
        #expect(response.status == 200)
        #expect(response.header("apns-id") == id.lowercased())
        #expect(response.body.isEmpty)
        try harness.advance(seconds: 60)
        let shown = try harness.deviceApp(Int(device["device"]!.int!))["notificationCenter"]?.array ?? []
        #expect(shown.count == 1)
        #expect(shown.first?.object?["apnsId"]?.string == id.lowercased())
        #expect(shown.first?.object?["title"]?.string == "Hello")
        #expect(shown.first?.object?["body"]?.string == "A new mail")
    }

    @Test("a request without apns-id gets one made: a version 4 UUID, different per request")
    func madeAPNsIDs() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.devices().first?["token"]?.string)
        let first = try #require(harness.push(token).header("apns-id"))
        let second = try #require(harness.push(token).header("apns-id"))
        #expect(first != second)
        #expect(first.count == 36 && Array(first)[14] == "4")
        #expect(APNsWireRequest.isCanonicalUUID(first))
    }

    @Test("an offline device keeps only the newer of two pushes and shows it when it comes back (controlled clock)")
    func offlineDeviceKeepsTheNewest() throws {
        let harness = try LiveHarness(LiveHarness.scenario(devices: 20, onMean: "2h", offMean: "2h"))
        let offline = try #require(try harness.devices().first { $0["online"]?.bool == false })
        let device = Int(offline["device"]!.int!)
        let token = try #require(offline["token"]?.string)
        #expect(harness.push(token, id: "00000000-0000-4000-8000-000000000001",
                             body: #"{"aps":{"alert":"first"}}"#).status == 200)
        #expect(harness.push(token, id: "00000000-0000-4000-8000-000000000002",
                             body: #"{"aps":{"alert":"second"}}"#).status == 200)
        let holds = try harness.deviceApp(device)["apnsHolds"]?.array ?? []
        #expect(holds.count == 1)
        #expect(holds.first?.object?["apnsId"]?.string == "00000000-0000-4000-8000-000000000002")
        // Minutes at a time until the device is back (bounded: two days).
        var minutes = 0
        while try harness.deviceApp(device)["online"]?.bool == false, minutes < 2 * 24 * 60 {
            try harness.advance(seconds: 60)
            minutes += 1
        }
        try harness.advance(seconds: 60)
        let app = try harness.deviceApp(device)
        let shown = app["notificationCenter"]?.array ?? []
        #expect(shown.count == 1)
        #expect(shown.first?.object?["body"]?.string == "second")
        #expect(app["counts"]?.object?["coalesced"]?.int == 1)
        #expect(app["counts"]?.object?["shown"]?.int == 1)
        #expect(app["apnsHolds"]?.array?.isEmpty == true)
    }

    @Test("unknown tokens, another app's topic, bad headers and wrong methods get Apple's status and reason")
    func refusals() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.devices().first?["token"]?.string)
        let cases: [(HTTPResponse, Int, String)] = [
            (harness.push(String(repeating: "ab", count: 32)), 400, "BadDeviceToken"),
            (harness.push(String(repeating: "ab", count: 100)), 400, "BadDeviceToken"),
            (harness.push("xyz"), 400, "BadDeviceToken"),
            (harness.push(token, topic: "com.example.other"), 400, "DeviceTokenNotForTopic"),
            (harness.push(token, extra: [Header("apns-priority", "7")]), 400, "BadPriority"),
            (harness.push(token, extra: [Header("apns-expiration", "soon")]), 400, "BadExpirationDate"),
            (harness.push(token, extra: [Header("apns-collapse-id", String(repeating: "c", count: 65))]), 400, "BadCollapseId"),
            (harness.push(token, body: ""), 400, "PayloadEmpty"),
            (harness.push(token, body: String(repeating: " ", count: 4097)), 413, "PayloadTooLarge"),
            (harness.push(token, id: "not-a-uuid"), 400, "BadMessageId"),
            (harness.push(""), 400, "MissingDeviceToken"),
        ]
        for (response, status, reason) in cases {
            #expect(response.status == status, "\(reason)")
            #expect(response.reason == reason)
            #expect(response.header("apns-id") != nil)
            #expect(response.header("content-type") == "application/json")
        }
        let get = harness.service.respond(to: HTTPRequest(method: "GET", path: "/3/device/" + token, listener: LiveHarness.apns))
        #expect(get.status == 405 && get.reason == "MethodNotAllowed")
        let elsewhere = harness.service.respond(to: HTTPRequest(method: "POST", path: "/4/device/" + token, body: [1],
                                                                listener: LiveHarness.apns))
        #expect(elsewhere.status == 404 && elsewhere.reason == "BadPath")
        // Of these only the wrong topic named a token: it is its device app's (devices.csv's
        // requests and rejected, rejections.csv) and never reached APNs's storage, whose
        // counters and serve.json's requests stay 0 (docs/serve.md says which counts what).
        let population = harness.service.population
        let totals = PopulationTotals(population)
        #expect(totals.counts[.requests] == 1 && totals.counts[.rejected] == 1)
        #expect(totals.rejections[APNsReason.deviceTokenNotForTopic.index] == 1 && totals.rejections.reduce(0, +) == 1)
        #expect(population.serials == 0 && population.apns.counters == type(of: population.apns.counters).init())
        // A topic with a push type's suffix is the app's.
        #expect(harness.push(token, topic: LiveHarness.topic + ".voip").status == 200)
    }

    @Test("a rotated token gets 410 Unregistered with the millisecond it stopped being valid")
    func rotatedTokenIsUnregistered() throws {
        let scenario = LiveHarness.scenario(devices: 30, extra: #""device": { "tokenRotation": { "perDay": 0.5, "withPrompt": 0 } },"#)
        let harness = try LiveHarness(scenario)
        try harness.advance(seconds: 3 * 86_400)
        let rotated = try #require(try harness.devices().first { !($0["oldTokens"]?.array ?? []).isEmpty })
        let old = try #require(rotated["oldTokens"]?.array?.first?.string)
        let response = harness.push(old)
        #expect(response.status == 410)
        #expect(response.reason == "Unregistered")
        let timestamp = try #require((try JSONParser.parse(response.body)).object?["timestamp"]?.int)
        let startMilliseconds = LiveClock.startEpochSeconds(scenario.start) * 1000
        #expect(timestamp > startMilliseconds && timestamp <= startMilliseconds + 3 * 86_400_000)
        // The current token still works.
        #expect(harness.push(try #require(rotated["token"]?.string)).status == 200)
    }

    @Test("token authentication: a signed JWT is accepted; none, an expired one or a missing topic are refused as APNs does")
    func providerTokens() throws {
        let privateKey = try P256PrivateKey(rawRepresentation: Array(repeating: 0x11, count: 32))
        let key = try ProviderKey(teamID: "TEAM123456", keyID: "KEY1234567", publicKey: privateKey.publicKey)
        let wall: SimTime = 1_800_000_000 * TimeUnit.second
        var harness = try LiveHarness(LiveHarness.scenario(), authentication: .token([key]), wallClock: { wall })
        let token = try #require(try harness.devices().first?["token"]?.string)
        let fresh = ProviderToken.signed(teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_800_000_000 - 60, by: privateKey)
        let stale = ProviderToken.signed(teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_800_000_000 - 7200, by: privateKey)
        #expect(harness.push(token).reason == "MissingProviderToken")
        #expect(harness.push(token).status == 403)
        #expect(harness.push(token, extra: [Header("authorization", "bearer " + fresh)]).status == 200)
        #expect(harness.push(token, topic: nil, extra: [Header("authorization", "bearer " + fresh)]).reason == "MissingTopic")
        harness.connection = 8
        #expect(harness.push(token, extra: [Header("authorization", "bearer " + stale)]).reason == "ExpiredProviderToken")
        #expect(harness.push(token, extra: [Header("authorization", "bearer x.y.z")]).reason == "InvalidProviderToken")
    }

    @Test("certificate authentication: the subject's UID is the topic; another topic is disallowed; no subject, no entry")
    func certificates() throws {
        let harness = try LiveHarness(LiveHarness.scenario(), authentication: .certificate(subjectHeader: "x-client-subject"))
        let token = try #require(try harness.devices().first?["token"]?.string)
        let subject = Header("x-client-subject", "/C=US/O=Example/UID=com.example.mail/CN=Apple Push Services: com.example.mail")
        #expect(harness.push(token, topic: nil, extra: [subject]).status == 200)
        #expect(harness.push(token, topic: "com.example.other", extra: [subject]).reason == "TopicDisallowed")
        #expect(harness.push(token).reason == "MissingProviderToken")
        #expect(harness.push(token, extra: [Header("x-client-subject", "CN=nobody")]).reason == "BadCertificate")
        #expect(CertificateSubject.topic("UID=com.example.mail, CN=x, O=y") == "com.example.mail")
        #expect(CertificateSubject.topic("\"/C=US/UID=com.example.mail/CN=x\"") == "com.example.mail")
    }
}
