import FakeAPNs
import Simulator

/// A result built by hand with every field set, so each column of a report can be
/// checked to the digit.
package enum HandBuilt {
    /// Two days from Monday 2026-03-02, three strategies; also the partials' embedded scenario.
    package static let scenarioJSON = """
    { "name": "hand", "seed": 5, "start": "2026-03-02", "duration": "2d", "devices": 10,
      "mail": { "perDay": 1 },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 4 },
                     { "name": "queue-as-published", "repeatMaxCount": 4 }] }
    """
    package static let scenario = WorldFixtures.scenario(scenarioJSON)

    /// Every field nonzero and the identity holding, each count multiplied by `scale`,
    /// so `handBuilt(1)` merged with `handBuilt(2)` must be exactly `handBuilt(3)`.
    package static func aggregate(_ scale: Int64) -> StrategyAggregate {
        var aggregate = StrategyAggregate(days: 2)
        aggregate[.messages] = 100 * scale
        aggregate[.delivered] = 70 * scale
        aggregate[.summarized] = 10 * scale
        aggregate.pending = 5 * scale
        for reason in LossReason.allCases { aggregate.lostByReason[Int(reason.rawValue)] = scale }
        aggregate.lostByReason[Int(LossReason.apnsCoalesced.rawValue)] = 5 * scale      // 15 lost in all
        aggregate[.pushesSent] = 130 * scale
        aggregate.rerequests = 12 * scale
        aggregate.duplicatesShown = 3 * scale
        aggregate.collapsed = 4 * scale
        for _ in 0..<scale {
            for _ in 0..<60 { aggregate.latency.record(2_000_000) }     // bucket from 1,998,848 µs
            for _ in 0..<10 { aggregate.latency.record(30_000_000) }    // bucket from 29,884,416 µs
        }
        aggregate.daily[0] = DayCounts([.messages: 60 * scale, .delivered: 42 * scale, .summarized: 6 * scale, .lost: 9 * scale,
                                       .pending: 3 * scale, .measuredSent: 50 * scale, .measuredReceived: 38 * scale,
                                       .launches: 7 * scale, .consoleReceived: 70 * scale, .consoleDelivered: 60 * scale])
        aggregate.daily[1] = DayCounts([.messages: 40 * scale, .delivered: 28 * scale, .summarized: 4 * scale, .lost: 6 * scale,
                                       .pending: 2 * scale, .measuredSent: 30 * scale, .measuredReceived: 22 * scale,
                                       .launches: 5 * scale, .consoleReceived: 50 * scale, .consoleDelivered: 50 * scale])
        // Day 1 lost apns_coalesced (5×) and the next four reasons (9 in all), day 2 the other six.
        for reason in LossReason.allCases {
            aggregate.dailyLostByReason[StrategyAggregate.dailyLostIndex(day: reason.rawValue <= 5 ? 0 : 1,
                                                                         reasonRawValue: Int(reason.rawValue))]
                = aggregate.lost(reason)
        }
        aggregate[.providerSent] = 98 * scale
        aggregate[.apnsAccepted] = 95 * scale
        aggregate[.reachedDevice] = 85 * scale
        aggregate[.logged] = 66 * scale
        aggregate[.uploaded] = 60 * scale
        aggregate[.opened] = 20 * scale
        aggregate[.measuredSent] = 80 * scale
        aggregate[.measuredReceived] = 60 * scale
        for counter in ChainCounter.allCases { aggregate.chain[counter] = Int64(counter.rawValue + 1) * scale }
        // The chain's launches (12×), by day.
        aggregate[.launches] = 12 * scale
        aggregate.apns = APNsCounters(values: [120, 7, 3, 90, 20, 6, 25, 2, 4, 1, 1, 5].map { $0 * scale })!
        // The Console's days: APNs's accepted (120×) and handed out (90× + 20×), by day.
        aggregate[.consoleReceived] = 120 * scale
        aggregate[.consoleDelivered] = 110 * scale
        aggregate.countAllInBlock()
        return aggregate
    }

}
