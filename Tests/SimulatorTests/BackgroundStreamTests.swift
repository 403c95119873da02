@testable import Base
import Device
@testable import FakeAPNs
import Foundation
@testable import Simulator
import TestSupport
import Testing

/// A scenario of always-online devices (unless `connectivity` says otherwise) with mail and a
/// flat background stream of `perHour` an hour.
private func scenario(devices: Int, days: Int, perHour: Double, budget: Int, forceQuit: Double,
                      connectivity: String = "", strategies: String = #"{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 5 }"#)
    -> Scenario {
    WorldFixtures.scenario("""
    {
      "name": "background", "seed": 11, "start": "2026-03-02", "duration": "\(days)d", "devices": \(devices),
      "mail": { "perDay": 24 },
      \(connectivity)
      "background": { "rhythm": { "perDay": \(perHour * 24) }, "budgetPerHour": \(budget), "forceQuit": \(forceQuit) },
      "strategies": [\(strategies)]
    }
    """)
}

@Suite("Background pushes in the model")
struct BackgroundStreamTests {
    @Test("the phone's hourly budget throttles as its closed form says (Poisson arrivals, 200,000 hours, within 0.02 an hour: about 4–6 standard errors)",
          arguments: [(4.0, 3, 0.0), (2.5, 2, 0.2), (6.0, 3, 0.1)])
    func budgetMatchesTheClosedForm(lambda: Double, budget: Int, forceQuit: Double) {
        let hours = 200_000
        let model = BackgroundBudget(perHour: Int32(budget), forceQuitShare: forceQuit)
        var updates = BackgroundUpdates()
        var effects: OwnedBuffer<DeviceEffect> = []
        var random = SplitMix64(seed: 0xbac6_2024)
        var counts = [BackgroundFate: Int](), serial: Int64 = 0
        var time: SimTime = 0
        let horizon = SimTime(hours) * TimeUnit.hour
        while true {
            time += max(1, SimTime((-log(random.nextUnitInterval()) / lambda * Double(TimeUnit.hour)).rounded(.up)))
            guard time < horizon else { break }
            let forceQuit = model.isForceQuit(base: 77, serial: serial)
            serial += 1
            updates.arrive(messageIndex: Int32(truncatingIfNeeded: serial), appForceQuit: forceQuit, budget: model, at: time,
                           into: &effects)
            for index in 0..<effects.count { if case .background(_, let fate) = effects[index] { counts[fate, default: 0] += 1 } }
            effects.removeAll()
        }
        let expected = BackgroundClosedForm(perHour: lambda, budget: budget, forceQuit: forceQuit)
        func perHour(_ fate: BackgroundFate) -> Double { Double(counts[fate] ?? 0) / Double(hours) }
        // Each hour's counts have a variance below about 2 (Poisson-like, μ ≤ 6 past a budget
        // of 2 or 3) and the chain forgets its state within a few hours: a standard error of at
        // most about √(2 × 2 / 200,000) ≈ 0.0045 an hour, so 0.02 is some 4–6 of them.
        let tolerance = 0.02
        #expect(abs(perHour(.deliveredToApp) - expected.deliveredToApp) < tolerance)
        #expect(abs(perHour(.deferred) - expected.deferred) < tolerance)
        #expect(abs(perHour(.throttled) - expected.throttled) < tolerance)
        #expect(abs(perHour(.deliveredAfterDeferral) - expected.deliveredAfterDeferral) < tolerance)
        #expect(abs(perHour(.discardedForceQuit) - expected.discardedForceQuit) < tolerance)
        // What reaches the app in an hour never exceeds the budget.
        #expect(perHour(.deliveredToApp) + perHour(.deliveredAfterDeferral) <= Double(budget))
    }

    @Test("a run's background.csv counts follow the closed form (always online, 150 devices × 14 days = 50,400 device-hours, within 0.04 an hour: 5–7 standard errors)")
    func runMatchesTheClosedForm() throws {
        let (lambda, budget, forceQuit) = (4.0, 3, 0.1)
        let result = try Simulation.run(scenario(devices: 150, days: 14, perHour: lambda, budget: budget, forceQuit: forceQuit),
                                        threads: 2)
        let hours = Double(150 * 14 * 24)
        let expected = BackgroundClosedForm(perHour: lambda, budget: budget, forceQuit: forceQuit)
        for aggregate in result.aggregates {
            let background = aggregate.background
            func perHour(_ counter: BackgroundCounter) -> Double { Double(background[counter]) / hours }
            // SE ≈ √(2 × 2 / 50,400) ≈ 0.009 an hour (the draws are per device: independent hours).
            let tolerance = 0.04
            #expect(abs(perHour(.sent) - lambda) < tolerance)
            #expect(abs(perHour(.deliveredToApp) - expected.deliveredToApp) < tolerance)
            #expect(abs(perHour(.deferred) - expected.deferred) < tolerance)
            #expect(abs(perHour(.throttled) - expected.throttled) < tolerance)
            #expect(abs(perHour(.deliveredAfterDeferral) - expected.deliveredAfterDeferral) < tolerance)
            #expect(abs(perHour(.discardedForceQuit) - expected.discardedForceQuit) < tolerance)
            // Always online: nothing waits at APNs, nothing is discarded there, no mail loses its slot.
            #expect(background[.apnsDiscarded] == 0 && background[.mailReplaced] == 0 && background[.rejected] == 0)
            #expect(background[.received] == background[.deliveredToApp] + background[.deferred] + background[.discardedForceQuit])
        }
    }

    @Test("a background push never reaches Notification Center: always online, the mail's outcomes are those of a run without the stream")
    func neverDrawnInARun() throws {
        let with = try Simulation.run(scenario(devices: 60, days: 7, perHour: 6, budget: 3, forceQuit: 0), threads: 2)
        var plain = scenario(devices: 60, days: 7, perHour: 6, budget: 3, forceQuit: 0)
        plain.chain.background = nil
        let without = try Simulation.run(plain, threads: 2)
        for (a, b) in zip(with.aggregates, without.aggregates) {
            // The stream draws from the APNs → device latencies too: a mail may still be on its way at the end.
            #expect(a[.messages] == b[.messages] && a[.delivered] + a.pending == b[.delivered] + b.pending)
            #expect(a.lost == 0 && b.lost == 0 && a.duplicatesShown == b.duplicatesShown && a.collapsed == b.collapsed)
            #expect(a.chain[.extensionNotRun] == 0)
            // APNs handed out the background pushes too; the phone received them, never showed them.
            #expect(a.apns[.accepted] == b.apns[.accepted] + a.background[.sent])
            #expect(a.background[.received] > 0)
            #expect(b.background == BackgroundCounts())
        }
    }

    @Test("offline, a background push takes the mail's one APNs slot: the mail loses more to coalescing, and a rollout keeps the books")
    func costsTheMailItsSlot() throws {
        let connectivity = """
        "connectivity": { "online": { "distribution": "exponential", "mean": "3h" }, "offline": { "distribution": "exponential", "mean": "1h" } },
        "apns": { "priority5Deferral": { "distribution": "exponential", "mean": "10m" } },
        """
        let strategies = #"{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 5, "label": "rollout", "from": "2026-03-05" }"#
        let with = try Simulation.run(scenario(devices: 80, days: 7, perHour: 4, budget: 3, forceQuit: 0.1,
                                               connectivity: connectivity, strategies: strategies), threads: 2)
        var plain = scenario(devices: 80, days: 7, perHour: 4, budget: 3, forceQuit: 0.1, connectivity: connectivity,
                             strategies: strategies)
        plain.chain.background = nil
        let without = try Simulation.run(plain, threads: 2)
        let noQueue = with["no-queue"]
        #expect(noQueue.background[.mailReplaced] > 0)
        #expect(noQueue.background[.apnsDiscarded] > 0)
        #expect(noQueue.lost(.apnsCoalesced) > without["no-queue"].lost(.apnsCoalesced))
        #expect(BalanceRules.violation(in: with["rollout"]) == nil)
        #expect(with["rollout"].background[.sent] == noQueue.background[.sent])
    }
}
