@testable import Base
import Device
import FakeAPNs
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// What `--trace` records, held to the run it watched: the story of a traced device
/// adds up to that device's own counts, a small known case reads as it must, and
/// watching changes nothing.
@Suite("Trace recorder", .ownThread(.computing))
struct TraceRecorderTests {
    /// One day; mail only between 10:00 and 11:00; every day offline from 09:30 for 3 h.
    static let offlineMorning = WorldFixtures.scenario("""
    { "name": "offline-morning", "seed": 5, "start": "2026-01-05", "duration": "1d", "devices": 200,
      "mail": { "perDay": 2, "diurnal": [\((0..<24).map { $0 == 10 ? "1" : "0" }.joined(separator: ", "))] },
      "connectivity": { "offlineWindows": [{ "start": "09:30", "duration": { "distribution": "constant", "value": "3h" },
                                             "probability": 1 }] },
      "strategies": [{ "name": "no-queue" }, { "name": "queue" }] }
    """)

    /// The events of `story` as (kind, message, seconds into the day), for reading sequences.
    static func steps(_ events: some Sequence<TraceEvent>) -> [String] {
        events.map { "\($0.kind.name) \($0.message) \($0.time / TimeUnit.second)" }
    }

    @Test("an offline device gets two pushes: APNs keeps only the newest, which is shown when it reconnects; the older is lost as coalesced")
    func offlineDeviceKeepsOnlyTheNewest() throws {
        let scenario = Self.offlineMorning
        // A device whose two mails of the run both fall in its offline morning.
        let user = try #require((0..<scenario.devices).first { WiringTests.arrivals(scenario, user: $0).count == 2 })
        let exact = WiringTests.arrivals(scenario, user: user)
        let arrivals = exact.map { $0 / TimeUnit.second }
        let (_, trace) = try Simulation.run(scenario, users: user..<(user + 1), tracing: [user])
        #expect(trace.devices == [user])
        let noQueue = try #require(trace.stories.first { $0.strategy == 0 })
        let offline: SimTime = 9 * 3600 + 1800, online: SimTime = 12 * 3600 + 1800
        #expect(Self.steps(noQueue.events) == [
            "connectivity_changed -1 0", "connectivity_changed -1 \(offline)",
            "mail_arrived 0 \(arrivals[0])", "request_sent 0 \(arrivals[0])", "apns_answered 0 \(arrivals[0])",
            "apns_stored 0 \(arrivals[0])",
            "mail_arrived 1 \(arrivals[1])", "request_sent 1 \(arrivals[1])", "apns_answered 1 \(arrivals[1])",
            "apns_discarded 0 \(arrivals[1])", "apns_stored 1 \(arrivals[1])", "outcome 0 \(arrivals[1])",
            "connectivity_changed -1 \(online)", "apns_delivered 1 \(online)", "device_received 1 \(online)",
            "shown 1 \(online)", "outcome 1 \(online)",
        ])
        let events = noQueue.events
        #expect(events[1].flag(.online) == false && events[12].flag(.online))
        #expect(events[9].name(.discardReason) == "replaced")
        #expect(events[13].name(.via) == "storage")
        #expect(events[11].name(.outcome) == "lost" && events[11].name(.lossReason) == "apns_coalesced")
        #expect(events[16].name(.outcome) == "delivered" && events[16].value(.lossReason) == nil)
        #expect(events[4].value(.status) == 200 && events[4].value(.apnsReason) == nil)
        #expect(events[5].value(.until) == exact[0] + APNsServer.maximumStorage)
        // The queue numbers both; the extension has no position saved yet, so position 2 is
        // its first (step 5 of the talk's code): it saves it and finds no gap; 1 is lost too.
        let queue = try #require(trace.stories.first { $0.strategy == 1 })
        #expect(queue.events.filter { $0.kind == .requestSent }.map { $0.value(.position) } == [1, 2])
        #expect(queue.events.filter { $0.kind == .positionSaved }.map { $0.value(.position) } == [2])
        #expect(!queue.events.contains { $0.kind == .gapDetected })
        #expect(queue.events.filter { $0.kind == .outcome }.map { $0.name(.lossReason) ?? $0.name(.outcome) }
                == ["apns_coalesced", "delivered"])
    }

    /// What a story counts, to set against the run's aggregate of that device alone.
    struct StoryCounts: Equatable, CustomStringConvertible {
        var messages = 0, delivered = 0, summarized = 0, pending = 0, pushesSent = 0, rerequests = 0, collapsed = 0
        var lost: [String: Int] = [:]
        var stored = 0, replaced = 0, expired = 0, fromStorage = 0, handedOut = 0, bounced = 0, launches = 0
        var rotations = 0, killed = 0, notRun = 0, timedOut = 0, hashMismatches = 0

        init(_ events: some Sequence<TraceEvent>) {
            let events = Array(events)
            func count(_ kind: TraceKind, where holds: (TraceEvent) -> Bool = { _ in true }) -> Int {
                events.filter { $0.kind == kind && holds($0) }.count
            }
            func shownWith(_ run: ExtensionRun) -> Int { count(.shown) { $0.value(.run, as: ExtensionRun.self) == run } }
            func outcome(_ outcome: TraceOutcome) -> Int { count(.outcome) { $0.value(.outcome, as: TraceOutcome.self) == outcome } }
            messages = count(.mailArrived)
            pushesSent = count(.requestSent)
            rerequests = count(.rerequestSent)
            stored = count(.apnsStored)
            bounced = count(.bounced)
            launches = count(.launched)
            rotations = count(.tokenRotated)
            replaced = count(.apnsDiscarded) { $0.value(.discardReason, as: APNsDiscardReason.self) == .replaced }
            expired = count(.apnsDiscarded) { $0.value(.discardReason, as: APNsDiscardReason.self) == .expired }
            fromStorage = count(.apnsDelivered) { $0.value(.via, as: DeliveryRoute.self) == .storage }
            handedOut = count(.apnsDelivered) { $0.value(.via, as: DeliveryRoute.self) != .storage }
            collapsed = count(.shown) { $0.flag(.replaced) } + count(.summaryShown) { $0.flag(.replaced) }
            killed = shownWith(.killed)
            notRun = shownWith(.notRun)
            timedOut = shownWith(.timedOut)
            hashMismatches = shownWith(.hashMismatch)
            delivered = outcome(.delivered)
            summarized = outcome(.summarized)
            pending = outcome(.pending)
            for event in events where event.value(.outcome, as: TraceOutcome.self) == .lost {
                lost[event.name(.lossReason) ?? "?", default: 0] += 1
            }
        }

        init(_ aggregate: StrategyAggregate) {
            messages = Int(aggregate[.messages])
            delivered = Int(aggregate[.delivered])
            summarized = Int(aggregate[.summarized])
            pending = Int(aggregate.pending)
            pushesSent = Int(aggregate[.pushesSent])
            rerequests = Int(aggregate.rerequests)
            collapsed = Int(aggregate.collapsed)
            for reason in LossReason.allCases where aggregate.lost(reason) > 0 { lost[reason.columnName] = Int(aggregate.lost(reason)) }
            stored = Int(aggregate.apns[.storedOffline])
            replaced = Int(aggregate.apns[.discardedReplaced])
            expired = Int(aggregate.apns[.discardedExpired])
            fromStorage = Int(aggregate.apns[.deliveredFromStorage])
            handedOut = Int(aggregate.apns[.delivered])
            bounced = Int(aggregate.apns[.bounced])
            launches = Int(aggregate.chain[.launches])
            rotations = Int(aggregate.chain[.tokenRotations])
            killed = Int(aggregate.chain[.extensionKilled])
            notRun = Int(aggregate.chain[.extensionNotRun])
            timedOut = Int(aggregate.chain[.extensionTimedOut])
            hashMismatches = Int(aggregate.chain[.hashMismatches])
        }

        var description: String { "\(self.messages) messages, \(delivered) delivered, lost \(lost), …" }
    }

    @Test("a traced device's story adds up to what a run of that device alone reports, for every strategy: messages, outcomes by reason, requests, re-requests, collapses, APNs's storage and the extension's runs")
    func storyMatchesTheDevicesOwnCounts() throws {
        var scenario = WorldFixtures.shipped("mail-january-february.json")
        scenario.devices = 40
        let traced = [0, 13, 39]
        let (result, trace) = try Simulation.run(scenario, threads: 2, tracing: traced)
        #expect(trace.devices == traced)
        #expect(trace.stories.count == traced.count * scenario.strategies.count)
        var families = StoryCounts([TraceEvent]())
        for device in traced {
            let alone = try Simulation.run(scenario, users: device..<(device + 1))
            for story in trace.stories where story.device == device {
                let counts = StoryCounts(story.events)
                #expect(counts == StoryCounts(alone.aggregates[story.strategy]),
                        "device \(device), \(scenario.strategies[story.strategy].label)")
                families.messages += counts.messages
                families.stored += counts.stored
                families.replaced += counts.replaced
                families.rerequests += counts.rerequests
                families.launches += counts.launches
            }
        }
        // The comparison means something only if the devices saw each of these.
        #expect(families.messages > 100 && families.stored > 0 && families.replaced > 0 && families.rerequests > 0
                && families.launches > 0)
        // And the whole run is the same as without the trace.
        #expect(result == (try Simulation.run(scenario, threads: 2)))
    }

    @Test("the trace is the same for any number of threads and any range of users that holds the device; devices outside the range are not traced")
    func traceIsDeterministic() throws {
        var scenario = WorldFixtures.shipped("two-states.json")
        scenario.devices = 150
        let one = try Simulation.run(scenario, threads: 1, tracing: [70, 3]).trace
        let two = try Simulation.run(scenario, threads: 2, tracing: [3, 70, 70]).trace
        #expect(one == two)
        #expect(one.devices == [3, 70])
        let slice = try Simulation.run(scenario, users: 64..<128, threads: 2, tracing: [3, 70]).trace
        #expect(slice.devices == [70])
        #expect(slice.stories == one.stories.filter { $0.device == 70 })
    }

    @Test("a long lane traced keeps every record and tells every message's outcome, and its run reports the same counts as untraced")
    func longLaneTracedCountsTheSame() throws {
        let scenario = WorldFixtures.scenario("""
        { "name": "long", "seed": 3, "start": "2026-01-05", "duration": "2d", "devices": 3, "mail": { "perDay": 300 },
          "connectivity": { "online": { "distribution": "exponential", "mean": "40m" },
                            "offline": { "distribution": "exponential", "mean": "20m" } },
          "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1s", "sigma": 1 } },
          "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 3 }] }
        """)
        // Windows of 64 entries and 32 records: every lane is long and folds as it plays, unless traced.
        let memory = Simulation.Memory(timelineWindow: 64, recordsHeld: 32)
        let plain = try Simulation.run(scenario, threads: 1, memory: memory)
        let (traced, trace) = try Simulation.run(scenario, threads: 1, memory: memory, tracing: [1])
        #expect(traced == plain)
        for story in trace.stories {
            let counts = StoryCounts(story.events)
            let alone = try Simulation.run(scenario, users: 1..<2, threads: 1, memory: memory)
            #expect(counts == StoryCounts(alone.aggregates[story.strategy]))
            #expect(counts.messages > 500)
        }
    }
}
