@testable import Base
@testable import Simulator
import TestSupport
import Testing

/// A scenario's dated steering events (`events`): each is a timeline event of its device
/// app, played in every strategy, through the same actors as the drawn ones.
@Suite("Steering events")
struct SteeringTests {
    /// One day, always online; mail only between 10:00 and 11:00.
    static func mailMorning(events: String = "") -> Scenario {
        WorldFixtures.scenario("""
        { "name": "steered-morning", "seed": 5, "start": "2026-01-05", "duration": "1d", "devices": 200,
          "mail": { "perDay": 2, "diurnal": [\((0..<24).map { $0 == 10 ? "1" : "0" }.joined(separator: ", "))] },
          "strategies": [{ "name": "no-queue" }, { "name": "queue" }]\(events) }
        """)
    }

    static func steps(_ events: some Sequence<TraceEvent>) -> [String] {
        events.map { "\($0.kind.name) \($0.message) \($0.time / TimeUnit.second)" }
    }

    @Test("a dated offline event, two mails, a dated online event: APNs keeps only the newest, shown at the reconnect; the older is lost as coalesced")
    func offlineEventKeepsOnlyTheNewest() throws {
        let plain = Self.mailMorning()
        let user = try #require((0..<plain.devices).first { WiringTests.arrivals(plain, user: $0).count == 2 })
        let arrivals = WiringTests.arrivals(plain, user: user).map { $0 / TimeUnit.second }
        let scenario = Self.mailMorning(events: """
        , "events": [{ "at": "2026-01-05T09:30:00Z", "device": \(user), "action": "offline" },
                     { "at": "2026-01-05T12:30:00Z", "device": \(user), "action": "online" }]
        """)
        let (result, trace) = try Simulation.run(scenario, users: user..<(user + 1), tracing: [user])
        let offline: SimTime = 9 * 3600 + 1800, online: SimTime = 12 * 3600 + 1800
        let noQueue = try #require(trace.stories.first { $0.strategy == 0 })
        #expect(Self.steps(noQueue.events) == [
            "connectivity_changed -1 0", "steered -1 \(offline)", "connectivity_changed -1 \(offline)",
            "mail_arrived 0 \(arrivals[0])", "request_sent 0 \(arrivals[0])", "apns_answered 0 \(arrivals[0])",
            "apns_stored 0 \(arrivals[0])",
            "mail_arrived 1 \(arrivals[1])", "request_sent 1 \(arrivals[1])", "apns_answered 1 \(arrivals[1])",
            "apns_discarded 0 \(arrivals[1])", "apns_stored 1 \(arrivals[1])", "outcome 0 \(arrivals[1])",
            "steered -1 \(online)", "connectivity_changed -1 \(online)", "apns_delivered 1 \(online)",
            "device_received 1 \(online)", "shown 1 \(online)", "outcome 1 \(online)",
        ])
        #expect(noQueue.events[1].name(.steering) == "offline" && noQueue.events[13].name(.steering) == "online")
        #expect(noQueue.events[12].name(.lossReason) == "apns_coalesced")
        // Every strategy meets the same events.
        let queue = try #require(trace.stories.first { $0.strategy == 1 })
        #expect(queue.events.filter { $0.kind == .steered }.map { $0.time / TimeUnit.second } == [offline, online])
        for aggregate in result.aggregates {
            #expect(aggregate[.messages] == 2 && aggregate[.delivered] == 1 && aggregate.lost(.apnsCoalesced) == 1)
        }
        // Without the events the same device is online all day and shows both.
        let unsteered = try Simulation.run(plain, users: user..<(user + 1))
        #expect(unsteered["no-queue"][.delivered] == 2)
    }

    @Test("settings events: notifications off loses to lost_disabled, alerts off and display off to their reasons, until turned on again")
    func settingsEvents() throws {
        let plain = Self.mailMorning()
        let users = (0..<plain.devices).filter { WiringTests.arrivals(plain, user: $0).count >= 1 }
        let (a, b, c) = (users[0], users[1], users[2])
        let scenario = Self.mailMorning(events: """
        , "events": [{ "at": "2026-01-05T08:00Z", "device": \(a), "action": "disableNotifications" },
                     { "at": "2026-01-05T08:00Z", "device": \(b), "action": "disallowAlerts" },
                     { "at": "2026-01-05T08:00Z", "device": \(c), "action": "displayOff" },
                     { "at": "2026-01-05T12:00Z", "device": \(a), "action": "enableNotifications" },
                     { "at": "2026-01-05T12:00Z", "device": \(b), "action": "allowAlerts" },
                     { "at": "2026-01-05T12:00Z", "device": \(c), "action": "displayOn" }]
        """)
        func mails(_ user: Int) -> Int64 { Int64(WiringTests.arrivals(plain, user: user).count) }
        for (user, loss) in [(a, LossReason.disabled), (b, .alertsNotAllowed), (c, .displayOff)] {
            let result = try Simulation.run(scenario, users: user..<(user + 1))
            for aggregate in result.aggregates {
                #expect(aggregate[.messages] == mails(user) && aggregate.lost(loss) == mails(user), "device \(user)")
            }
        }
        // A setting turned on again before the mail changes nothing.
        let later = Self.mailMorning(events: """
        , "events": [{ "at": "2026-01-05T08:00Z", "device": \(a), "action": "disableNotifications" },
                     { "at": "2026-01-05T09:00Z", "device": \(a), "action": "enableNotifications" }]
        """)
        let result = try Simulation.run(later, users: a..<(a + 1))
        #expect(result["no-queue"][.delivered] == mails(a))
    }

    @Test("launch, rotateToken and reinstall events count as the drawn ones do: a launch, and token rotations")
    func appEvents() throws {
        let plain = Self.mailMorning()
        let scenario = Self.mailMorning(events: """
        , "events": [{ "at": "2026-01-05T08:00Z", "device": 7, "action": "rotateToken" },
                     { "at": "2026-01-05T08:30Z", "device": 7, "action": "reinstall" },
                     { "at": "2026-01-05T09:00Z", "device": 7, "action": "launch" }]
        """)
        let (result, trace) = try Simulation.run(scenario, users: 7..<8, tracing: [7])
        #expect(result["no-queue"].chain[.tokenRotations] == 2)
        let story = try #require(trace.stories.first { $0.strategy == 0 })
        let rotations = story.events.filter { $0.kind == .tokenRotated }
        #expect(rotations.map { $0.flag(.reinstall) } == [false, true])
        #expect(story.events.contains { $0.kind == .launched && $0.time == 9 * TimeUnit.hour })
        let unsteered = try Simulation.run(plain, users: 7..<8)
        #expect(unsteered["no-queue"].chain[.tokenRotations] == 0)
    }
}
