import FakeAPNs
import Foundation
import Testing
@testable import Simulator

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
        // Simulation.run itself checks the identity and the in-flight reconciliation and throws if broken.
        let result = try Simulation.run(scenario, threads: 2)
        for aggregate in result.aggregates {
            #expect(aggregate.delivered + aggregate.summarized + aggregate.lost + aggregate.pending == aggregate.messages)
            #expect(aggregate.lost(.apnsExpired) > 0)
            #expect(aggregate.pending > 0)
        }
        #expect(result["queue"].summarized > 0)
        #expect(result["no-collapse"].duplicatesShown > 0)
        #expect(result.checkIdentity() == nil)
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
            #expect(aggregate.messages > 0)
            #expect(aggregate.lost(.apnsRejected) == aggregate.messages)
            #expect(aggregate.delivered == 0)
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
        #expect(result["no-queue"].delivered == result["no-queue"].messages)
        #expect(result["queue"].lost(.apnsRejected) == result["queue"].messages)
        #expect(result["off"].delivered == result["off"].messages)
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
        #expect(ledger.fold(into: &aggregate) != nil)
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
        #expect(aggregate.delivered == 1 && aggregate.lost == 0)
        #expect(aggregate.latency.quantile(0.5) == LatencyHistogram.lowerBound(of: LatencyHistogram.bucket(of: 5_000_000)))
        #expect(aggregate.checkIdentity() == nil)
    }
}
