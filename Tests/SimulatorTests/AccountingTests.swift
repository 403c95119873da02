@testable import FakeAPNs
import Foundation
@testable import Reports
@testable import Simulator
import TestSupport
import Testing

@Suite("Accounting")
struct AccountingTests {
    @Test("with every mechanism on, each message ends in exactly one bucket for every strategy")
    func identityHoldsUnderStress() throws {
        // Heavy jitter (reordering, bounces off devices that just went offline), a TTL shorter
        // than many offline periods, a short apns-expiration, and an extension limit close to
        // the re-request round trip so some invocations time out.
        let scenario = WorldFixtures.twoStates(perDay: 60, onMean: "40m", offMean: "30m", devices: 120, days: 5, extra: """
            "latency": {
              "providerToAPNs": { "distribution": "lognormal", "median": "100ms", "sigma": 2 },
              "apnsToDevice": { "distribution": "lognormal", "median": "2s", "sigma": 2 },
              "rerequestRoundTrip": { "distribution": "lognormal", "median": "300ms", "sigma": 1.5 }
            },
            "provider": { "payloadTTL": "20m" },
            "apns": { "expiration": "25m" },
            "device": { "extensionTimeLimit": "500ms" },
            """, strategies: """
            { "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 3 },
            { "name": "queue-as-published", "repeatMaxCount": 3 },
            { "name": "queue", "label": "no-collapse", "collapseID": false }
            """)
        // Simulation.run checks the identity and the in-flight reconciliation and throws
        // when either breaks: not throwing under this stress is the test. (That the checks
        // fire on a broken ledger or aggregate is tested below and in MetricsTests.)
        let result = try Simulation.run(scenario, threads: 2)
        for aggregate in result.aggregates {
            #expect(aggregate.lost(.apnsExpired) > 0)
            #expect(aggregate.pending > 0)
        }
        #expect(result["queue"][.summarized] > 0)
        #expect(result["no-collapse"].duplicatesShown > 0)
    }

    typealias Corruption = @Sendable (inout StrategyAggregate) -> Void

    /// Ways a result can stop adding up, each with what `checkIdentity` (and `PartialChecks`) says about it.
    static let corruptions: [(String, Corruption, String)] = [
        ("a message in no bucket", { $0[.messages] += 1; $0.daily[0][.messages] += 1 }, "≠ messages"),
        ("a day not adding up", { $0.daily[0][.delivered] += 1; $0.daily[1][.delivered] -= 1 },
         "day 1: delivered"),
        ("days adding up, but not to the totals", { $0.daily[0][.delivered] -= 1; $0.daily[0][.summarized] += 1 },
         "the daily delivered add up to"),
        ("a latency without its delivery", { $0.latency.record(1_000) }, "latency was recorded for"),
        ("a loss without a reason", { $0.lostByReason[0] += 1; $0.lostByReason[Int(LossReason.apnsCoalesced.rawValue)] -= 1 },
         "a loss without a reason was counted"),
        // The last of each long array: found by the check's pass over all of them at once.
        ("a negative day's loss", { $0.dailyLostByReason[$0.dailyLostByReason.count - 1] -= 1 }, "lost by reason -1 < 0"),
        ("a negative block count", { $0.blocks[$0.blocks.count - 1] -= 1 }, "block 63 "),
        ("a negative day's block count", { $0.dailyBlocks[$0.dailyBlocks.count - 1] -= 1 }, "block count -1 < 0"),
    ]

    @Test("the checks a run and a merge end with fire on a real result corrupted after the fact", arguments: corruptions)
    func identityCheckFiresOnCorruptedResult(name: String, corrupt: Corruption, message: String) throws {
        let scenario = WorldFixtures.twoStates(perDay: 30, onMean: "2h", offMean: "2h", devices: 20, days: 2,
                                               strategies: #"{ "name": "no-queue" }, { "name": "queue" }"#)
        var result = try Simulation.run(scenario)
        #expect(result.aggregates[1].lost(.apnsCoalesced) > 0 && result.aggregates[1][.delivered] > 0)
        #expect(result.aggregates[1].daily.count == 2 && result.aggregates[1].daily.allSatisfy { $0[.delivered] > 0 })
        corrupt(&result.aggregates[1])
        let broken = try #require(result.checkIdentity()?.description, "\(name)")
        #expect(broken.hasPrefix("strategy queue: ") && broken.contains(message), "\(name): \(broken)")
        // One set of rules: merge names a damaged part with the words the run's own check uses.
        let merged = try #require(PartialChecks.violation(in: result.aggregates[1]), "\(name)")
        #expect(broken == "strategy queue: " + merged, "\(name)")
    }

    @Test("a payload over 4096 bytes loses every message as apns_rejected")
    func payloadTooLargeIsRejected() throws {
        let scenario = WorldFixtures.scenario("""
        { "name": "big", "start": "2026-01-05", "duration": "2d", "devices": 20, "mail": { "perDay": 20 },
          "push": { "alertBodyBytes": 4000 },
          "strategies": [{ "name": "no-queue" }, { "name": "queue" }] }
        """)
        let result = try Simulation.run(scenario)
        for aggregate in result.aggregates {
            #expect(aggregate[.messages] > 0)
            #expect(aggregate.lost(.apnsRejected) == aggregate[.messages])
            #expect(aggregate[.delivered] == 0)
        }
    }

    @Test("a bundle id that makes the collapse id longer than 64 bytes breaks only the queue strategies")
    func longCollapseIDIsRejected() throws {
        // 36-byte device id + "+" + 30-byte bundle id + "/" + position > 64 bytes.
        let scenario = WorldFixtures.scenario("""
        { "name": "long", "start": "2026-01-05", "duration": "2d", "devices": 20, "mail": { "perDay": 20 },
          "push": { "app": "com.example.enterprise.mailapp" },
          "strategies": [{ "name": "no-queue" }, { "name": "queue" }, { "name": "queue", "label": "off", "collapseID": false }] }
        """)
        let result = try Simulation.run(scenario)
        #expect(result["no-queue"][.delivered] == result["no-queue"][.messages])
        #expect(result["queue"].lost(.apnsRejected) == result["queue"][.messages])
        #expect(result["off"][.delivered] == result["off"][.messages])
    }

    @Test("the ledger refuses a message that was neither shown, summarised, lost nor in flight")
    func ledgerCatchesAnUnaccountedMessage() {
        var ledger = Ledger()
        _ = ledger.newMessage(at: 0)
        var aggregate = StrategyAggregate(days: 1)
        #expect(ledger.fold(into: &aggregate)?.contains("neither shown") == true)
    }

    @Test("the ledger refuses a copy that ends twice")
    func ledgerCatchesADoubleEnd() {
        var ledger = Ledger()
        let message = ledger.newMessage(at: 0)
        let push = PushNotification(token: DeviceToken(0), payload: PushPayload(messageIndex: message, byteCount: 100))
        ledger.pushSent(push)
        ledger.presented(push, replacedExisting: false, at: 1)
        ledger.lost(push, .apnsCoalesced)
        var aggregate = StrategyAggregate(days: 1)
        #expect(ledger.fold(into: &aggregate) == "message 0 had a copy end that was never sent")
    }

    @Test("the ledger refuses a copy that ends without having been sent")
    func ledgerCatchesAnEndWithoutSend() {
        var ledger = Ledger()
        let message = ledger.newMessage(at: 0)
        let push = PushNotification(token: DeviceToken(0), payload: PushPayload(messageIndex: message, byteCount: 100))
        ledger.lost(push, .apnsExpired)
        var aggregate = StrategyAggregate(days: 1)
        #expect(ledger.fold(into: &aggregate) == "message 0 had a copy end that was never sent")
        #expect(aggregate == StrategyAggregate(days: 1))
    }

    @Test("a message shown late still counts delivered once, with its latency from mail arrival")
    func deliveredLatencyIsFromArrival() {
        var ledger = Ledger()
        let message = ledger.newMessage(at: 1_000)
        let push = PushNotification(token: DeviceToken(0), payload: PushPayload(messageIndex: message, byteCount: 100))
        ledger.pushSent(push)
        ledger.lost(push, .apnsCoalesced)
        var resend = push
        resend.isResend = true
        ledger.pushSent(resend)
        ledger.presented(resend, replacedExisting: false, at: 5_001_000)
        var aggregate = StrategyAggregate(days: 1)
        #expect(ledger.fold(into: &aggregate) == nil)
        #expect(aggregate[.delivered] == 1 && aggregate.lost == 0)
        #expect(aggregate.latency.quantile(0.5) == LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 5_000_000)))
        #expect(aggregate.checkIdentity() == nil)
    }
}
