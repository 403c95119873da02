import Foundation
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// A lane longer than the timeline's window is drawn a window at a time and its
/// ledger folds each message once its fate can no longer change, so a device with
/// a million mails a day holds a bounded number of entries and records. The
/// reports must not notice: the same counts as a lane held whole.
@Suite("Long lanes: bounded memory, the same counts", .ownThread(.computing))
struct LongLaneTests {
    /// Windows of three entries and a ledger that folds at every mail.
    static let tight = Simulation.Memory(timelineWindow: 3, recordsHeld: 1)

    @Test("Every shipped scenario gives the same aggregates played window by window and folded",
          arguments: ["apns-rate-limit.json", "apns-storage-priority.json", "busy-device.json", "extension-limits.json",
                      "identity-and-apps.json", "mail-january-february.json", "measurement.json",
                      "notification-settings.json", "provider-network.json", "provider-outage.json",
                      "regression-gate.json", "scale-1m.json", "stale-subscription.json", "token-rotation.json",
                      "two-states.json"])
    func shippedScenariosAreUnchanged(name: String) throws {
        var scenario = WorldFixtures.shipped(name)
        scenario.devices = min(scenario.devices, 60)
        scenario.mail.perDay = min(scenario.mail.perDay, 2_000)
        let whole = try Simulation.run(scenario, threads: 2)
        let folded = try Simulation.run(scenario, threads: 2, memory: Self.tight)
        #expect(whole == folded)
        #expect(whole.aggregates.allSatisfy { $0[.messages] > 0 })
    }
}

extension LongLaneTests {
    /// One device, a mail a minute for two days, queue with a payload TTL.
    static let busyDevice = WorldFixtures.scenario("""
    {
      "name": "busy", "seed": 5, "start": "2026-01-05", "duration": "2d", "devices": 1,
      "mail": { "perDay": 1440 },
      "connectivity": {
        "online": { "distribution": "exponential", "mean": "3h" },
        "offline": { "distribution": "exponential", "mean": "1h" }
      },
      "provider": { "payloadTTL": "1h" },
      "device": { "launches": { "perDay": 6 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 5 },
                     { "name": "queue-as-published", "repeatMaxCount": 5 }]
    }
    """)

    @Test("a long lane holds one timeline window, a bounded ledger and a bounded Notification Center, whatever its length")
    func longLaneHoldsBoundedState() throws {
        let scenario = Self.busyDevice
        let plans = scenario.strategies.map { StrategyPlan(strategy: $0, scenario: scenario) }
        var world = World(scenario: scenario, timelineWindow: 64, recordsHeld: 16)
        var held = World(scenario: scenario)
        for plan in plans {
            var folded = StrategyAggregate(days: scenario.dayCount), kept = StrategyAggregate(days: scenario.dayCount)
            try world.run(user: 0, plan: plan, seed: scenario.seed, into: &folded)
            try held.run(user: 0, plan: plan, seed: scenario.seed, into: &kept)
            #expect(folded == kept, "\(plan.strategy.label)")
            #expect(kept[.messages] > 2_500)
            // The lane is long: only its first window is kept for the next strategy.
            #expect(world.timeline.lanes[0].longDraw != nil && world.timeline.lanes[0].entries.count == 64)
            #expect(held.timeline.lanes[0].longDraw == nil && held.timeline.lanes[0].entries.count > 2_500)
            // Nearly every message was folded as the lane played; the records left are few.
            #expect(world.ledger.foldedBelow > 2_400, "\(plan.strategy.label)")
            #expect(world.ledger.records.count < 200, "\(plan.strategy.label)")
            #expect(held.ledger.foldedBelow == 0)
            // Notification Center keeps the collapse ids a copy may still match: those
            // above the saved position, or of messages held.
            if plan.provider.sendsCollapseID && plan.strategy.kind.numbersPushes {
                #expect(world.phone.notificationCenterCount < 100, "\(plan.strategy.label)")
                #expect(held.phone.notificationCenterCount > 2_000, "\(plan.strategy.label)")
            }
        }
    }
}

extension LongLaneTests {
    /// Found by the property test: the device id changes twice, and the extension saves
    /// position 1 under the new id as it had under the old one.
    static let idChangeSavingTheSamePosition = WorldFixtures.scenario("""
    {
      "name": "property-74", "seed": 964560, "start": "2026-03-17", "duration": "2d", "devices": 12,
      "mail": { "perDay": 6, "weekendFactor": 1.707 },
      "connectivity": { "online": { "distribution": "uniform", "min": "0s", "max": "2h" },
                        "offline": { "distribution": "uniform", "min": "0s", "max": "3h" } },
      "provider": { "network": { "failureProbability": 0.244, "timeout": "10s" },
                    "subscriptions": { "changesPerDay": 0.870, "mailShare": 0.146, "syncOn": "launch" } },
      "apns": { "expiration": 0, "priority5Deferral": { "distribution": "exponential", "mean": "1m" } },
      "device": { "tokenRotation": { "perDay": 0.455, "withPrompt": 0.765 }, "deviceIDChangesPerDay": 0.430,
                  "launches": { "perDay": 1 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "label": "s0", "repeatMaxCount": 11 }]
    }
    """)

    @Test("a position saved again under a new device id keeps what it covers open (a lane folded at every mail)")
    func positionSavedAgainUnderANewID() throws {
        let scenario = Self.idChangeSavingTheSamePosition
        #expect(try Simulation.run(scenario) == Simulation.run(scenario, memory: Self.tight))
    }
}
