import Base
import Foundation
import Kernel
@testable import Live
import Simulator
import TestSupport
import Testing
import Transport

@Suite("serve's control API: the clock, the devices, the counters")
struct ControlAPITests {
    @Test("the index lists every route; an unknown path is 404 and a wrong method 405, both in JSON")
    func routes() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let (status, index) = try harness.control("GET", "/")
        #expect(status == 200)
        let listed = index.object?["routes"]?.array?.compactMap { $0.object?["route"]?.string } ?? []
        #expect(listed == ControlRoute.allCases.map(\.pattern))
        #expect(try harness.control("GET", "/nothing").status == 404)
        #expect(try harness.control("DELETE", "/clock").status == 405)
        #expect(try harness.control("POST", "/devices").status == 405)
        #expect(try harness.control("GET", "/devices/99/apps/0").status == 404)
        #expect(try harness.control("GET", "/devices/x/apps/0").json.object?["error"]?.string != nil)
    }

    @Test("a controlled clock moves only when told, never back, and stops the run at its end")
    func controlledClock() throws {
        let scenario = LiveHarness.scenario(days: 2)
        let harness = try LiveHarness(scenario)
        var (status, clock) = try harness.control("GET", "/clock")
        #expect(status == 200)
        #expect(clock.object?["simulatedSeconds"]?.value == .number(JSONNumber(text: "0.0", isInteger: false, int64Value: nil, doubleValue: 0)))
        #expect(clock.object?["now"]?.string == "2026-01-05T00:00:00.000Z")
        (status, clock) = try harness.control("POST", "/clock", body: #"{"advanceSeconds": 90.5}"#)
        #expect(status == 200)
        #expect(clock.object?["now"]?.string == "2026-01-05T00:01:30.500Z")
        #expect(try harness.control("POST", "/clock", body: #"{"toSeconds": 10}"#).status == 400)
        #expect(try harness.control("POST", "/clock", body: #"{"advanceSeconds": -1}"#).status == 400)
        #expect(try harness.control("POST", "/clock", body: #"{"later": 1}"#).status == 400)
        #expect(try harness.control("POST", "/clock", body: "not json").status == 400)
        #expect(harness.service.ending == nil)
        #expect(try harness.control("POST", "/clock", body: #"{"toSeconds": 999999}"#).status == 200)
        #expect(harness.service.ending == .endReached)
        #expect(harness.service.population.now == scenario.duration)
    }

    @Test("the clock's numbers are bounded each in its own unit: past 11.6 days in microseconds is taken, past ten years refused")
    func clockBoundsPerUnit() throws {
        let scenario = LiveHarness.scenario(days: 28)
        let harness = try LiveHarness(scenario)
        // 12 days in microseconds (1.04e12): past the old shared bound of 1e12, which stopped a 28-day run at day 11.57.
        let twelveDays = 12 * TimeUnit.day
        var (status, clock) = try harness.control("POST", "/clock", body: "{\"toMicroseconds\": \(twelveDays)}")
        #expect(status == 200)
        #expect(clock.object?["error"] == nil)
        #expect(harness.service.population.now == twelveDays)
        // Ten years is the bound in either unit; one past it is refused with the bounds named.
        (status, clock) = try harness.control("POST", "/clock", body: #"{"toMicroseconds": 315576000000001}"#)
        #expect(status == 400)
        #expect(clock.object?["error"]?.string?.contains("315576000000000") == true)
        #expect(try harness.control("POST", "/clock", body: #"{"advanceSeconds": 315576001}"#).status == 400)
        #expect(try harness.control("POST", "/clock", body: #"{"toSeconds": 315576000}"#).status == 200)
        #expect(harness.service.population.now == scenario.duration)
    }

    @Test("a scaled clock refuses to be advanced by hand")
    func scaledClockRefusesAdvance() throws {
        let harness = try LiveHarness(LiveHarness.scenario(), clock: .scaled(speed: 60))
        let (status, json) = try harness.control("POST", "/clock", body: #"{"advanceSeconds": 1}"#)
        #expect(status == 409)
        #expect(json.object?["error"]?.string?.contains("scaled") == true)
    }

    @Test("POST /stop ends the run; /counters adds up the device apps and APNs's counters")
    func countersAndStop() throws {
        let harness = try LiveHarness(LiveHarness.scenario())
        let token = try #require(try harness.devices().first?["token"]?.string)
        _ = harness.push(token)
        _ = harness.push(token, topic: "com.example.other")
        try harness.advance(seconds: 60)
        let counters = try harness.control("GET", "/counters").json.object
        #expect(counters?["deviceApps"]?.object?["requests"]?.int == 2)
        #expect(counters?["deviceApps"]?.object?["accepted"]?.int == 1)
        #expect(counters?["deviceApps"]?.object?["shown"]?.int == 1)
        #expect(counters?["apns"]?.object?["accepted"]?.int == 1)
        #expect(counters?["answers"]?.object?["200"]?.int == 1)
        #expect(counters?["answers"]?.object?["400"]?.int == 1)
        #expect(try harness.control("POST", "/stop").status == 202)
        #expect(harness.service.ending == .stopRequested)
    }
}

@Suite("serve's live population: determinism and accounting")
struct LivePopulationTests {
    /// A busy day of requests: every device app, every 7 minutes, half of them with a collapse id.
    static func play(_ harness: LiveHarness) throws -> [HTTPResponse] {
        let tokens = try harness.devices().compactMap { $0["token"]?.string }
        var answers: [HTTPResponse] = []
        for step in 0..<200 {
            let token = tokens[step % tokens.count]
            answers.append(harness.push(token, extra: step % 2 == 0 ? [Header("apns-collapse-id", "thread-\(step % 3)")] : [],
                                        body: #"{"aps":{"alert":"mail \#(step)","mutable-content":1}}"#))
            try harness.advance(seconds: 7 * 60)
        }
        return answers
    }

    static let busy = LiveHarness.scenario(devices: 12, days: 3, onMean: "3h", offMean: "1h", seed: 11,
                                           extra: #""device": { "tokenRotation": { "perDay": 0.3, "withPrompt": 0.3 }, "launches": { "perDay": 4 } },"#)

    @Test("the same requests in the same order give the same answers and the same report bytes (controlled clock)")
    func deterministic() throws {
        let first = try LiveHarness(Self.busy), second = try LiveHarness(Self.busy)
        #expect(try Self.play(first) == Self.play(second))
        let a = try ServeReport.files(first.service, ending: .stopRequested, command: ["serve"])
        let b = try ServeReport.files(second.service, ending: .stopRequested, command: ["serve"])
        #expect(a.map(\.name) == ServeReport.fileNames)
        #expect(a.map(\.contents) == b.map(\.contents))
        // Not a constant: some pushes were coalesced, some refused with 410, most shown.
        let counts = try JSONParser.parse(Array(a[3].contents.utf8)).object?["counts"]?.object
        #expect((counts?["coalesced"]?.int ?? 0) > 0)
        #expect((counts?["shown"]?.int ?? 0) > 50)
        #expect((counts?["rejected"]?.int ?? 0) > 0)
    }

    @Test("every accepted push is delivered, dropped for one reason, held or travelling; the report's rows add up")
    func accounted() throws {
        let harness = try LiveHarness(Self.busy)
        _ = try Self.play(harness)
        #expect(harness.service.population.accountingProblem() == nil)
        let files = try ServeReport.files(harness.service, ending: .endReached, command: ["serve"])
        let rows = files[0].contents.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let columns = ServeReport.deviceColumns
        func column(_ name: String) -> Int64 { rows.reduce(0) { $0 + Int64($1[columns.firstIndex(of: name)!])! } }
        #expect(column("requests") == 200)
        #expect(column("accepted") + column("rejected") == 200)
        #expect(column("accepted") == column("delivered") + column("coalesced") + column("expired")
                + column("discarded_unregistered") + column("discarded_disabled") + column("held")
                + harness.service.population.lanes.indices.reduce(0) { $0 + harness.service.population.travelling(lane: Int32($1)) })
        let rejectionRows = files[1].contents.split(separator: "\n").dropFirst()
        #expect(rejectionRows.reduce(0) { $0 + Int64($1.split(separator: ",").last!)! } == column("rejected"))
    }

    @Test("the population's merged timeline is every lane's own entries, in (time, phase, lane) order, without the provider's")
    func mergedTimeline() throws {
        let scenario = Self.busy
        let sources = LaneDraw.Sources(scenario: scenario, outages: [[]])
        var draws = ContiguousArray<LaneDraw>()
        var expected: [(SimTime, UInt8, Int32)] = []
        for user in 0..<scenario.devices {
            var lane = LaneDraw(sources: sources, seed: scenario.seed, user: user, lane: 0, accounts: 1)
            draws.append(lane)
            var entries = ContiguousArray<TimelineEntry>()
            lane.fill(&entries, upTo: .max)
            for entry in entries {
                switch entry.event {
                case .mail, .outage, .backgroundPush: continue
                case .deviceIDChange, .tokenRotation, .subscriptionChange, .connectivity, .launch, .steered:
                    expected.append((entry.time, entry.event.phase.rawValue, Int32(user)))
                }
            }
        }
        expected.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        var merged = PopulationDraw(draws: draws)
        var out = ContiguousArray<Timed<LaneOccurrence>>()
        while !merged.isFinished { merged.fill(&out, upTo: out.count + 100) }
        #expect(out.count == expected.count)
        #expect(out.count > 500)
        let got: [(SimTime, UInt8, Int32)] = out.map { ($0.time, $0.event.event.phase.rawValue, $0.event.lane) }
        #expect(zip(got, expected).allSatisfy { $0 == $1 })
    }
}
