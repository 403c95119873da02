@testable import Base
@testable import FakeAPNs
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// APNs's faults (`apns.faults`) in `run`'s model: each kind costs the in-process provider
/// what its retry policy says, counted per kind, against the closed form where there is one.
@Suite("APNs faults", .ownThread(.computing))
struct APNsFaultTests {
    /// An always-online population with flat Poisson mail, the provider retrying `retries`
    /// times after `backoff`, under `faults` (the `apns.faults` object's JSON).
    static func scenario(devices: Int = 40, days: Int = 2, retries: Int = 2, backoff: String = "1s", faults: String,
                         provider: String = "") -> Scenario {
        WorldFixtures.scenario("""
            {"name": "faults", "seed": 5, "start": "2027-06-01", "duration": "\(days)d", "devices": \(devices),
             "mail": {"perDay": 24},
             "provider": {"retries": \(retries), "backoff": "\(backoff)"\(provider)},
             "apns": {"faults": \(faults)},
             "strategies": [{"name": "no-queue"}]}
            """)
    }

    /// One window of `kind` over the whole run.
    static func wholeRun(_ kind: APNsFaultKind, extra: String = "") -> String {
        #"{"scheduled": [{"kind": "\#(kind.name)", "start": "2027-06-01T00:00", "duration": "2d"}]\#(extra)}"#
    }

    static func run(_ scenario: Scenario) throws -> StrategyAggregate {
        try Simulation.run(scenario, threads: 2).aggregates[0]
    }

    @Test("error answers over the whole run: every message is tried 1 + r times and given up, lost to APNs's refusal",
          arguments: [APNsFaultKind.internalServerError, .serviceUnavailable, .shutdown])
    func errorAnswersOverTheWholeRun(kind: APNsFaultKind) throws {
        let aggregate = try Self.run(Self.scenario(faults: Self.wholeRun(kind)))
        let messages = aggregate[.messages]
        #expect(messages > 1000)
        #expect(aggregate.pending == 0)
        #expect(aggregate.faults[kind, .requests] == 3 * messages)
        #expect(aggregate.faults[kind, .retries] == 2 * messages)
        #expect(aggregate.faults[kind, .givenUp] == messages)
        #expect(aggregate.chain[.retries] == 2 * messages)
        #expect(aggregate.lost(.apnsRejected) == messages)
        #expect(aggregate[.pushesSent] == 3 * messages)
        // No other kind counted anything.
        for other in APNsFaultKind.allCases where other != kind {
            #expect(APNsFaultMeasure.allCases.allSatisfy { aggregate.faults[other, $0] == 0 })
        }
    }

    @Test("dropped connections over the whole run: retried as requests without an answer, lost to the network",
          arguments: [APNsFaultKind.goaway, .connectionClosed])
    func droppedConnectionsOverTheWholeRun(kind: APNsFaultKind) throws {
        let aggregate = try Self.run(Self.scenario(faults: Self.wholeRun(kind)))
        let messages = aggregate[.messages]
        #expect(aggregate.faults[kind, .requests] == 3 * messages)
        #expect(aggregate.faults[kind, .retries] == 2 * messages)
        #expect(aggregate.faults[kind, .givenUp] == messages)
        #expect(aggregate.lost(.providerNetwork) == messages)
        #expect(aggregate[.delivered] == 0)
    }

    @Test("a window of 503s: r retries b, 2b, 4b … apart lose the mail of the window's first W − b(2^r − 1)")
    func windowOfUnavailableMatchesTheClosedForm() throws {
        // λ = 200 devices × 24 a day = 200 mails an hour; W = 6 h, b = 10 min, r = 2.
        let faults = #"{"scheduled": [{"kind": "serviceUnavailable", "start": "2027-06-01T09:00", "duration": "6h"}]}"#
        let aggregate = try Self.run(Self.scenario(devices: 200, backoff: "10m", faults: faults))
        let rate = 200.0, window = 6.0, backoff = 10.0 / 60
        let expected: [(APNsFaultMeasure, Double)] = [
            (.requests, rate * (3 * window - 4 * backoff)),
            (.retries, rate * (2 * window - backoff)),
            (.givenUp, rate * (window - 3 * backoff)),
        ]
        for (measure, mean) in expected {
            let count = Double(aggregate.faults[.serviceUnavailable, measure])
            // Poisson counts: within 5 standard deviations (the whole test is one seed, so fixed).
            #expect(abs(count - mean) < 5 * (3 * mean).squareRoot(), "\(measure): \(count) against \(mean)")
        }
        #expect(aggregate.lost(.apnsRejected) == aggregate.faults[.serviceUnavailable, .givenUp])
        #expect(aggregate.lost == aggregate.lost(.apnsRejected))
    }

    @Test("slow answers under the provider's timeout cost only time; past it they are retried like dropped connections")
    func slowAnswers() throws {
        let quick = try Self.run(Self.scenario(faults: Self.wholeRun(.slow, extra: #", "slowLatency": "2s""#)))
        #expect(quick.faults[.slow, .requests] == quick[.messages])
        #expect(quick.faults[.slow, .retries] == 0 && quick.lost == 0)
        // The histogram's buckets are 1% wide.
        #expect(abs(quick.latency.quantile(0.5)! - 2 * TimeUnit.second) < 2 * TimeUnit.second / 50)
        let late = try Self.run(Self.scenario(faults: Self.wholeRun(.slow, extra: #", "slowLatency": "11s""#)))
        #expect(late.faults[.slow, .requests] == 3 * late[.messages])
        #expect(late.faults[.slow, .givenUp] == late[.messages])
        #expect(late.lost(.providerNetwork) == late[.messages])
        // The provider's own timeout decides: at 20 s the same answers are only late.
        let patient = try Self.run(Self.scenario(faults: Self.wholeRun(.slow, extra: #", "slowLatency": "11s""#),
                                                 provider: #", "network": {"failureProbability": 0, "timeout": "20s"}"#))
        #expect(patient.lost == 0 && patient.faults[.slow, .retries] == 0)
    }

    @Test("idle connections closed: every request opens a new connection first, nothing is lost")
    func idleConnectionsClosed() throws {
        let aggregate = try Self.run(Self.scenario(faults: Self.wholeRun(.idleClosed, extra: #", "reconnect": "300ms""#)))
        #expect(aggregate.faults[.idleClosed, .requests] == aggregate[.messages])
        #expect(aggregate.lost == 0 && aggregate.chain[.retries] == 0)
        #expect(abs(aggregate.latency.quantile(0.5)! - 300 * TimeUnit.millisecond) < 300 * TimeUnit.millisecond / 50)
    }

    @Test("random faults are drawn per block of users: the same seed gives the same counts, and they cost something")
    func randomFaults() throws {
        let faults = """
            {"random": [{"kind": "internalServerError", "between": {"distribution": "exponential", "mean": "6h"},
                         "duration": {"distribution": "exponential", "mean": "30m"}}]}
            """
        let scenario = Self.scenario(devices: 128, faults: faults)
        let first = try Self.run(scenario), second = try Self.run(scenario)
        #expect(first == second)
        #expect(first.faults[.internalServerError, .requests] > 0)
        #expect(first.faults[.internalServerError, .retries] > 0)
    }

    @Test("overlapping windows: the one that began last is in force until it ends, then the earlier one again")
    func overlappingWindows() {
        let windows = [APNsFaultWindow(kind: .serviceUnavailable, start: 10, duration: 30),
                       APNsFaultWindow(kind: .slow, start: 20, duration: 5),
                       APNsFaultWindow(kind: .goaway, start: 50, duration: 100)]
        let segments = APNsFaultSchedule.segments(windows, horizon: 100)
        func kind(_ time: SimTime) -> APNsFaultKind? { APNsFaultSchedule.kind(at: time, in: segments) }
        #expect(kind(0) == nil && kind(9) == nil)
        #expect(kind(10) == .serviceUnavailable && kind(19) == .serviceUnavailable)
        #expect(kind(20) == .slow && kind(24) == .slow)
        #expect(kind(25) == .serviceUnavailable && kind(39) == .serviceUnavailable)
        #expect(kind(40) == nil && kind(49) == nil)
        #expect(kind(50) == .goaway && kind(99) == .goaway && kind(100) == nil)
    }

    @Test("a scenario without faults counts none")
    func noFaultsNoCounts() throws {
        var scenario = Self.scenario(faults: "{}")
        scenario.chain.apns.faults = nil
        #expect(try Self.run(scenario).faults.isZero)
    }
}
