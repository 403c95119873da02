import Base
import FakeAPNs
@testable import Live
import Simulator
import TestSupport
import Testing
import Transport

@Suite("Payload fields the extension reads")
struct ProviderFieldsTests {
    @Test("the talk's XIVA fields by default: position, device-id hash (hex or a number) and the mail's id")
    func xiva() {
        let fields = ProviderFields.xiva
        let read = fields.read(Array(#"{"aps":{"alert":"x"},"xiva":{"pos":17,"device_id_hash":"5be1a0c3"},"mid":412}"#.utf8))
        #expect(read == ProviderFields.Reading(fromProvider: true, xiva: XivaInfo(position: 17, deviceIDHash: 0x5be1_a0c3), message: 412))
        let number = fields.read(Array(#"{"xiva":{"pos":2,"device_id_hash":255}}"#.utf8))
        #expect(number.xiva == XivaInfo(position: 2, deviceIDHash: 255) && number.message == nil && number.fromProvider)
    }

    @Test("a payload without them is not the provider's; a mail id alone is the provider's, unnumbered; bad values are absent")
    func absentOrBad() {
        let fields = ProviderFields.xiva
        #expect(fields.read(Array(#"{"aps":{"alert":"x"}}"#.utf8)) == ProviderFields.Reading())
        #expect(fields.read(Array(#"{"mid":3}"#.utf8)) == ProviderFields.Reading(fromProvider: true, xiva: nil, message: 3))
        for bad in [#"{"xiva":{"pos":0,"device_id_hash":"1"}}"#, #"{"xiva":{"pos":"3","device_id_hash":"1"}}"#,
                    #"{"xiva":{"pos":1.5,"device_id_hash":"1"}}"#, #"{"xiva":{"pos":1,"device_id_hash":"xyz"}}"#,
                    #"{"xiva":{"pos":1,"device_id_hash":"123456789"}}"#, #"{"xiva":{"pos":1,"device_id_hash":"+1"}}"#,
                    #"{"xiva":[1]}"#, #"not json "xiva""#] {
            #expect(fields.read(Array(bad.utf8)).xiva == nil, "\(bad)")
        }
    }

    @Test("other paths: fields anywhere in the payload, as dotted keys; an empty key is refused")
    func otherPaths() throws {
        let fields = try #require(ProviderFields(position: "q.n", deviceIDHash: "q.h", message: "meta.id"))
        let read = fields.read(Array(#"{"q":{"n":5,"h":"00000abc"},"meta":{"id":9},"xiva":{"pos":1}}"#.utf8))
        #expect(read.xiva == XivaInfo(position: 5, deviceIDHash: 0xabc) && read.message == 9)
        #expect(ProviderFields(position: "a..b", deviceIDHash: "h", message: "m") == nil)
        #expect(ProviderFields(position: "a.", deviceIDHash: "h", message: "m") == nil)
    }
}

/// The population's calls to the provider, driven in-process: the calls wait in
/// `population.calls` (no transport), and the test answers them.
@Suite("serve's phones call the provider")
struct ProviderLinkTests {
    static func harness() throws -> LiveHarness {
        let scenario = WorldFixtures.twoStates(perDay: 24, onMean: "1000d", offMean: "1m", devices: 1, days: 2, seed: 3,
                                               strategies: #"{ "name": "queue", "repeatMaxCount": 5 }"#)
        let target = ProviderTarget(url: try #require(EndpointURL("http://127.0.0.1:9")), timeout: .seconds(1), fields: .xiva)
        return try LiveHarness(scenario, provider: target)
    }

    static func payload(_ position: Int, hash: UInt32, mail: Int) -> String {
        let hex = String(hash, radix: 16)
        return #"{"aps":{"alert":{"title":"t","body":"mail \#(mail)"},"mutable-content":1},"xiva":{"pos":\#(position),"device_id_hash":"\#(String(repeating: "0", count: 8 - hex.count) + hex)"},"mid":\#(mail)}"#
    }

    @Test("every app registers at install; a controlled clock does not move until the provider answered")
    func installRegistrationsHoldTheClock() throws {
        let harness = try Self.harness()
        let calls = harness.service.population.calls
        #expect(calls.count == 1 && harness.service.population.unanswered == 1)
        guard case .register(let token, _, let hash, let atInstall)? = calls.first?.kind else { Issue.record("\(calls)"); return }
        #expect(atInstall && token == harness.service.population.lanes[0].phone.token
                && hash == harness.service.population.lanes[0].phone.deviceIDHash)
        #expect(harness.advanceHeld(seconds: 60))
        #expect(harness.service.population.now == 0 && harness.service.population.pendingTarget == 60 * TimeUnit.second)
        for call in harness.service.population.takeCalls() { harness.service.population.answered(call, ok: true) }
        #expect(harness.service.population.now == 60 * TimeUnit.second && harness.service.population.pendingTarget == nil)
    }

    @Test("a gap makes the extension re-request (position 3, gap 1); the clock stands still at that instant, the re-sent push arrives there, and after the answer all three mails show")
    func rerequestHoldsTheClockUntilAnswered() throws {
        let harness = try Self.harness()
        for call in harness.service.population.takeCalls() { harness.service.population.answered(call, ok: true) }
        let lane = harness.service.population.lanes[0]
        #expect(lane.phone.isOnline)
        let token = harness.service.population.tokens.hex(lane.phone.token)
        let hash = lane.phone.deviceIDHash
        #expect(harness.push(token, body: Self.payload(1, hash: hash, mail: 1)).status == 200)
        try harness.advance(seconds: 60)
        #expect(harness.push(token, body: Self.payload(3, hash: hash, mail: 3)).status == 200)
        #expect(harness.advanceHeld(seconds: 60), "the re-request did not hold the clock")
        let calls = harness.service.population.takeCalls()
        guard calls.count == 1, case .rerequest(_, let position, let gap, _, _, _) = calls[0].kind else {
            Issue.record("expected one re-request, got \(calls)")
            return
        }
        #expect(position == 3 && gap == 1)
        let held = harness.service.population.now
        #expect(held >= 60 * TimeUnit.second && held < 120 * TimeUnit.second)
        #expect(harness.push(token, body: Self.payload(2, hash: hash, mail: 2)).status == 200)
        #expect(harness.service.population.now == held, "a push while held moved the clock")
        #expect(harness.service.population.records.record(messageIndex: 2)?.acceptedAt == held)
        harness.service.population.answered(calls[0], ok: true)
        #expect(harness.service.population.now == 120 * TimeUnit.second)
        try harness.advance(seconds: 60)
        let counts = harness.service.population.lanes[0].counts
        #expect(counts[.mailsShown] == 3 && counts[.rerequests] == 1 && counts[.rerequestErrors] == 0 && counts[.summariesShown] == 0)
        #expect(harness.service.population.accountingProblem() == nil)
    }

    @Test("a re-request that fails shows \"you have missed messages\" and counts an error")
    func failedRerequestShowsSummary() throws {
        let harness = try Self.harness()
        for call in harness.service.population.takeCalls() { harness.service.population.answered(call, ok: true) }
        let lane = harness.service.population.lanes[0]
        let token = harness.service.population.tokens.hex(lane.phone.token)
        #expect(harness.push(token, body: Self.payload(1, hash: lane.phone.deviceIDHash, mail: 1)).status == 200)
        try harness.advance(seconds: 60)
        #expect(harness.push(token, body: Self.payload(3, hash: lane.phone.deviceIDHash, mail: 3)).status == 200)
        #expect(harness.advanceHeld(seconds: 60))
        for call in harness.service.population.takeCalls() { harness.service.population.answered(call, ok: false) }
        let counts = harness.service.population.lanes[0].counts
        #expect(counts[.rerequestErrors] == 1 && counts[.summariesShown] == 1 && counts[.mailsShown] == 1)
        #expect(harness.service.population.accountingProblem() == nil)
    }
}

@Suite("Live counters")
struct LiveCounterTests {
    @Test("every live kind of counter fits its set's inline storage")
    func capacities() {
        #expect(DeviceAppCount.allCases.count <= DeviceAppCounts.capacity)
        #expect(ProviderLaneCount.allCases.count <= ProviderLaneCounts.capacity)
    }

    @Test("the ratio's standard error over devices: the closed form on a small case, NaN with one device or no mail")
    func ratio() {
        // r = 6/10; residuals y − r·x: 1 − 0.6·4 = −1.4, 5 − 0.6·6 = 1.4; n/(n−1) Σ = 2 · 3.92 = 7.84; √ = 2.8; / 10.
        let (value, se) = LiveFigure.ratio([(y: 1, x: 4), (y: 5, x: 6)])
        #expect(value == 0.6 && abs(se - 0.28) < 1e-12)
        #expect(LiveFigure.ratio([(y: 1, x: 4)]).se.isNaN)
        #expect(LiveFigure.ratio([(y: 0, x: 0), (y: 0, x: 0)]).value.isNaN)
    }
}
