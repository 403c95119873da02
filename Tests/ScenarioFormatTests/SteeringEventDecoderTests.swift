import Base
import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// The `events` list of a scenario file: dated steering actions, read as written, every
/// mistake located with its field.
@Suite("Scenario decoder: events entries")
struct SteeringEventDecoderTests {
    /// A valid scenario of 5 devices over 3 days from 2026-01-05 whose `events` list opens
    /// on line 8; `entries` are its items, one a line (lines 9, 10, …).
    static func scenario(_ entries: [String]) -> String {
        """
        {
          "name": "steered",
          "start": "2026-01-05",
          "duration": "3d",
          "devices": 5,
          "mail": { "perDay": 24 },
          "strategies": [ { "name": "no-queue" } ],
          "events": [
        \(entries.map { "    " + $0 }.joined(separator: ",\n"))
          ]
        }
        """
    }

    static func decode(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: "steered.json")
    }

    static func failure(_ text: String) -> ScenarioError? {
        do { _ = try decode(text); return nil } catch { return error }
    }

    @Test("events read as written: the instant on the run's clock, to the microsecond; app 0 by default")
    func entriesDecode() throws {
        let scenario = try Self.decode(Self.scenario([
            #"{ "at": "2026-01-05T09:00:00Z", "device": 3, "app": 0, "action": "offline" }"#,
            #"{ "at": "2026-01-06T10:30Z", "device": 4, "action": "launch" }"#,
            #"{ "at": "2026-01-07T23:59:59.25Z", "device": 0, "app": 1, "action": "disallowAlerts" }"#,
            #"{ "at": "2026-01-05T00:00:00Z", "device": 2, "action": "reinstall" }"#,
        ]))
        #expect(scenario.events == [
            SteeringEvent(at: 9 * TimeUnit.hour, device: 3, app: 0, action: .offline),
            SteeringEvent(at: TimeUnit.day + 10 * TimeUnit.hour + 30 * TimeUnit.minute, device: 4, app: 0, action: .launch),
            SteeringEvent(at: 3 * TimeUnit.day - TimeUnit.second + 250 * TimeUnit.millisecond, device: 0, app: 1,
                          action: .disallowAlerts),
            SteeringEvent(at: 0, device: 2, app: 0, action: .reinstall),
        ])
    }

    @Test("every action name decodes to its action")
    func everyActionDecodes() throws {
        let scenario = try Self.decode(Self.scenario(SteeringAction.allCases.map {
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "action": "\#($0.name)" }"#
        }))
        #expect(scenario.events.map(\.action) == SteeringAction.allCases)
    }

    @Test("a scenario without events has none")
    func absentIsEmpty() throws {
        let text = Self.scenario([]).replacingOccurrences(of: ",\n  \"events\": [\n\n  ]", with: "")
        #expect(!text.contains("events"))
        #expect(try Self.decode(text).events.isEmpty)
    }

    @Test("every mistake in events is reported in one pass with its field path and a message naming it")
    func mistakesLocated() throws {
        let error = try #require(Self.failure(Self.scenario([
            #"{ "at": "2026-01-05T09:00:00Z", "device": 5, "action": "offline" }"#,
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "action": "explode" }"#,
            #"{ "at": "2026-01-08T00:00:00Z", "device": 1, "action": "online" }"#,
            #"{ "at": "2026-01-04T23:00:00Z", "device": 1, "action": "online" }"#,
            #"{ "at": "2026-01-05 09:00", "device": 1, "action": "online" }"#,
            #"{ "at": "2026-02-30T09:00:00Z", "device": 1, "action": "online" }"#,
            #"{ "at": "2026-01-05T24:00:00Z", "device": 1, "action": "online" }"#,
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "app": 20, "action": "launch" }"#,
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "action": "launch", "when": 3 }"#,
            #"{ "device": 1, "action": "launch" }"#,
        ])))
        #expect(error.all.map(\.path) == [
            "events[0].device", "events[1].action", "events[2].at", "events[3].at", "events[4].at", "events[5].at",
            "events[6].at", "events[7].app", "events[8].when", "events[9].at",
        ])
        let messages = error.description
        #expect(messages.contains("events[0].device: no device 5: the scenario has 5 devices, numbered from 0"))
        #expect(messages.contains("events[1].action: unknown action \"explode\"; expected one of: online, offline, launch, "))
        #expect(messages.contains(#"events[2].at: "2026-01-08T00:00:00Z" is outside the run, which starts 2026-01-05T00:00:00Z and lasts 3 days"#))
        #expect(messages.contains(#"events[3].at: "2026-01-04T23:00:00Z" is outside the run"#))
        #expect(messages.contains(#"events[4].at: not an instant: "2026-01-05 09:00" (write YYYY-MM-DDTHH:MM:SSZ"#))
        #expect(messages.contains(#"events[5].at: not a calendar date: "2026-02-30""#))
        #expect(messages.contains(#"events[6].at: not an instant"#))
        #expect(messages.contains("events[7].app: must be between 0 and 19, found 20"))
    }

    @Test("an empty events list is refused: it would steer nothing")
    func emptyListRefused() throws {
        let text = Self.scenario([]).replacingOccurrences(of: "\"events\": [\n\n  ]", with: "\"events\": []")
        let error = try #require(Self.failure(text))
        #expect(error.path == "events")
        #expect(error.description.contains("an empty events list steers nothing"))
    }

    @Test("an event for an app the device does not have under the seed is named with its index")
    func appBeyondTheDevice() throws {
        let scenario = try Self.decode(Self.scenario([
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "action": "offline", "app": 3 }"#,
            #"{ "at": "2026-01-05T09:00:00Z", "device": 1, "app": 2, "action": "launch" }"#,
        ]))
        // Online and offline act on the device, whatever app they name.
        #expect(scenario.steeringProblem(seed: 0)
                == "events[1].app: device 1 has 1 app under seed 0 (device.apps draws them), so app 2 does not exist; apps count from 0")
    }
}
