import Foundation
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// The `expect` list of a scenario file: what it means, and every mistake located.
@Suite("Scenario decoder: expect entries")
struct ExpectationDecoderTests {
    /// A valid scenario whose `expect` list opens on line 12; `entries` are its items,
    /// one a line (lines 13, 14, …).
    static func scenario(_ entries: [String]) -> String {
        """
        {
          "name": "gate",
          "start": "2026-01-05",
          "duration": "3d",
          "devices": 20,
          "mail": { "perDay": 24 },
          "connectivity": {
            "online": { "distribution": "exponential", "mean": "3h" },
            "offline": { "distribution": "exponential", "mean": "1h" }
          },
          "strategies": [ { "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 5 } ],
          "expect": [
        \(entries.map { "    " + $0 }.joined(separator: ",\n"))
          ]
        }
        """
    }

    static func decode(_ text: String) throws(ScenarioError) -> Scenario {
        try ScenarioDecoder.decode(Array(text.utf8), file: "gate.json")
    }

    static func failure(_ text: String) -> ScenarioError? {
        do { _ = try decode(text); return nil } catch { return error }
    }

    @Test("expect entries read as written: a rate, a difference, an upper bound, both bounds, a confidence")
    func entriesDecode() throws {
        let scenario = try Self.decode(Self.scenario([
            #"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.85 }"#,
            #"{ "metric": "deliverability", "strategy": "queue", "minus": "no-queue", "atLeast": 0.03 }"#,
            #"{ "metric": "pushes_per_message", "strategy": "queue", "atMost": 1.2 }"#,
            #"{ "metric": "lost_apns_coalesced_share", "strategy": "no-queue", "atLeast": -0.5, "atMost": 0.2, "confidence": 0.99 }"#,
        ]))
        #expect(scenario.expectations == [
            Expectation(metric: .deliverability, strategy: "queue", atLeast: 0.85),
            Expectation(metric: .deliverability, strategy: "queue", minus: "no-queue", atLeast: 0.03),
            Expectation(metric: .pushesPerMessage, strategy: "queue", atMost: 1.2),
            Expectation(metric: .lostShare(.apnsCoalesced), strategy: "no-queue", atLeast: -0.5, atMost: 0.2, confidence: 0.99),
        ])
        #expect(scenario.expectations[0].confidence == 0.95)
        #expect(scenario.expectations[1].title == "deliverability of queue − no-queue ≥ 0.03 (95% interval)")
        #expect(scenario.expectations[3].title
                == "lost_apns_coalesced_share of no-queue ≥ -0.5 and ≤ 0.2 (99% interval)")
    }

    @Test("a scenario without expect has no expectations")
    func absentIsEmpty() throws {
        let full = Self.scenario([#"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.5 }"#])
        let text = String(full[..<full.range(of: ",\n  \"expect\"")!.lowerBound]) + "\n}\n"
        #expect(!text.contains("expect"))
        #expect(try Self.decode(text).expectations.isEmpty)
    }

    @Test("every mistake in expect is reported in one pass with its field path and line:column")
    func mistakesLocated() throws {
        let error = try #require(Self.failure(Self.scenario([
            #"{ "metric": "delivrability", "strategy": "queue", "atLeast": 0.85 }"#,
            #"{ "metric": "deliverability", "strategy": "fifo", "atLeast": 0.85 }"#,
            #"{ "metric": "deliverability", "strategy": "queue", "minus": "queue", "atLeast": 0 }"#,
            #"{ "metric": "deliverability", "strategy": "queue" }"#,
            #"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.9, "atMost": 0.8 }"#,
            #"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.9, "confidence": 1 }"#,
            #"{ "metric": "deliverability", "strategy": "queue", "atleast": 0.9 }"#,
        ])))
        let found = error.all.map { "\($0.path) \($0.location?.description ?? "-")" }
        #expect(found == [
            "expect[0].metric 13:17",
            "expect[1].strategy 14:47",
            "expect[2].minus 15:65",
            "expect[3] 16:5",
            "expect[4].atMost 17:82",
            "expect[5].confidence 18:86",
            "expect[6].atleast 19:56",
        ])
        let messages = error.description
        #expect(messages.contains("gate.json:13:17: expect[0].metric: unknown metric \"delivrability\"; expected one of: deliverability, informed_rate"))
        #expect(messages.contains("gate.json:14:47: expect[1].strategy: no strategy labelled \"fifo\"; the scenario has: no-queue, queue"))
        #expect(messages.contains("expect[3]: an expectation needs a bound: atLeast, atMost or both"))
        #expect(messages.contains("expect[4].atMost: atMost 0.8 is below atLeast 0.9"))
        #expect(messages.contains("expect[5].confidence: a confidence is above 0 and at most 0.999999"))
        // A misspelt bound is one error naming the bound, not also "needs a bound".
        #expect(messages.contains("expect[6].atleast: unknown field; did you mean atLeast?"))
    }

    @Test("an empty expect list is refused: it would check nothing")
    func emptyListRefused() throws {
        let text = Self.scenario([]).replacingOccurrences(of: "\"expect\": [\n\n  ]", with: "\"expect\": []")
        let error = try #require(Self.failure(text))
        #expect(error.path == "expect")
        #expect(error.description.contains("an empty expect list checks nothing"))
    }

    @Test("labels are not checked against a strategy list that is itself broken (one error, not two)")
    func brokenStrategiesNoSecondError() throws {
        let text = Self.scenario([#"{ "metric": "deliverability", "strategy": "queue", "atLeast": 0.5 }"#])
            .replacingOccurrences(of: #"{ "name": "queue", "repeatMaxCount": 5 }"#, with: #"{ "name": "fifo" }"#)
        let error = try #require(Self.failure(text))
        #expect(error.all.map(\.path) == ["strategies[1].name"])
    }
}
