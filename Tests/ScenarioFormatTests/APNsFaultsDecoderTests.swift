@testable import Base
@testable import FakeAPNs
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// `apns.faults`: scheduled and random windows of each kind, the slow and idle kinds' times,
/// and the errors a file gets for what the decoder cannot read.
@Suite("Scenario decoder: apns.faults")
struct APNsFaultsDecoderTests {
    static func text(_ faults: String) -> String {
        ScenarioChainDecoderTests.scenario(#""apns": { "faults": \#(faults) },"#)
    }

    static func decode(_ faults: String) throws -> Scenario {
        try ScenarioDecoder.decode(Array(text(faults).utf8), file: "s.json")
    }

    @Test("scheduled windows from the start's midnight, sorted; random ones per kind; the latencies")
    func decodesEveryField() throws {
        let scenario = try Self.decode("""
            { "scheduled": [ { "kind": "shutdown", "start": "2026-01-06T03:30", "duration": "10m" },
                             { "kind": "slow", "start": "2026-01-05T12:00", "duration": "1h" } ],
              "random": [ { "kind": "goaway", "between": { "distribution": "exponential", "mean": "1d" },
                            "duration": { "distribution": "constant", "value": "2m" } } ],
              "slowLatency": "3s", "reconnect": "250ms" }
            """)
        let hour = TimeUnit.hour, minute = TimeUnit.minute
        #expect(scenario.chain.apns.faults == APNsFaultModel(
            scheduled: [APNsFaultWindow(kind: .slow, start: 12 * hour, duration: hour),
                        APNsFaultWindow(kind: .shutdown, start: 27 * hour + 30 * minute, duration: 10 * minute)],
            random: [RandomAPNsFaults(kind: .goaway, between: .exponential(mean: TimeUnit.day), duration: .constant(2 * minute))],
            slowLatency: .constant(3 * TimeUnit.second), reconnect: .constant(250 * TimeUnit.millisecond)))
    }

    @Test("{} is faults named, none in force: the fault columns are written, all 0")
    func emptyObject() throws {
        #expect(try Self.decode("{}").chain.apns.faults == APNsFaultModel())
    }

    @Test("what the decoder cannot read is an error naming the field", arguments: [
        (#"{ "scheduled": [ { "kind": "outage", "start": "2026-01-05T01:00", "duration": "1h" } ] }"#,
         "apns.faults.scheduled[0].kind", "fault kind"),
        (#"{ "scheduled": [ { "kind": "slow", "start": "2026-01-04T01:00", "duration": "1h" } ] }"#,
         "apns.faults.scheduled[0].start", "starts before the run"),
        (#"{ "scheduled": [ { "kind": "slow", "start": "2026-01-05T01:00" } ] }"#,
         "apns.faults.scheduled[0].duration", "duration"),
        (#"{ "random": [ { "kind": "slow", "between": "1h", "duration": "1m" }, { "kind": "slow", "between": "1h", "duration": "1m" } ] }"#,
         "apns.faults.random[1].kind", "named twice"),
        (#"{ "random": [ { "kind": "slow", "between": "1s", "duration": "1s" } ] }"#,
         "apns.faults.random", "random faults over the run"),
        (#"{ "slowness": "1s" }"#, "apns.faults.slowness", "slowness"),
    ])
    func refusesWhatItCannotRead(faults: String, path: String, words: String) {
        do {
            _ = try Self.decode(faults)
            Issue.record("decoded: \(faults)")
        } catch let error as ScenarioError {
            #expect(error.path == path, "\(error)")
            #expect(error.description.contains(words), "\(error)")
        } catch {
            Issue.record("not a scenario error: \(error)")
        }
    }
}
