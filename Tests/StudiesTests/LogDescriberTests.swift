import Base
import Simulator
@testable import Studies
import TestSupport
import Testing

/// describe-log's estimates recover the parameters a synthetic log was drawn from
/// (`SyntheticBurstLog`: 1,500 users, 28 days, bursts of mean 3 pushes 10 minutes apart).
@Suite("Describing a send log")
struct LogDescriberTests {
    static func describe(_ log: SyntheticBurstLog, burstGap: SimDuration? = nil) throws -> LogDescription {
        var describer = LogDescriber(burstGap: burstGap)
        for row in log.rows() { try describer.add(user: row.user, thread: row.thread, wall: row.wall) }
        return describer.describe()
    }

    static func covers(_ estimate: Estimate, _ truth: Double, confidence: Double = 0.95) -> Bool {
        estimate.interval(confidence: confidence).map { $0.contains(truth) } ?? false
    }

    @Test("Over 3 logs, perDay, weekendFactor, meanSize and the gap's mean are inside their 99% intervals, 11 of 12 inside their 95%")
    func recoversTheParameters() throws {
        var inside95 = 0
        for seed in UInt64(1)...3 {
            var log = SyntheticBurstLog()
            log.seed = seed
            let description = try Self.describe(log)
            #expect(description.users == log.users)
            #expect(description.weekdays == 20 && description.weekendDays == 8)
            let checks = [("perDay", description.perDay, log.perDay), ("weekendFactor", description.weekendFactor, log.weekendFactor),
                          ("meanSize", description.meanSize, log.meanSize), ("gap", description.gapSeconds, log.gapSeconds)]
            for (name, estimate, truth) in checks {
                // Each 95% interval misses with chance 5%: of 12, one may; at 99% none should.
                #expect(Self.covers(estimate, truth, confidence: 0.99), "seed \(seed) \(name): \(estimate) vs \(truth)")
                if Self.covers(estimate, truth) { inside95 += 1 }
            }
            // 24 weights: at 95% one or two would miss by chance; at 99.9% all should hold.
            for (hour, weight) in log.normalisedDiurnal.enumerated() {
                #expect(Self.covers(description.diurnal[hour], weight, confidence: 0.999),
                        "seed \(seed) diurnal[\(hour)] \(description.diurnal[hour]) vs \(weight)")
            }
            // Geometric sizes: E[N²] = m(2m − 1) = 15.
            #expect(Self.covers(description.meanSquareSize, 15, confidence: 0.999), "E[N²] \(description.meanSquareSize)")
            // Narrow enough to tell bursts from Poisson.
            #expect(description.meanSize.interval()!.upperBound - description.meanSize.interval()!.lowerBound < 0.1)
            #expect(description.hasBursts)
        }
        #expect(inside95 >= 11, "\(inside95) of 12 inside their 95% intervals")
    }

    @Test("The printed fields decode as a scenario's mail and mailBursts, at the estimates")
    func fieldsAreAScenario() throws {
        var log = SyntheticBurstLog()
        log.users = 200
        let description = try Self.describe(log)
        let scenario = WorldFixtures.scenario("""
        { "name": "described", "start": "2026-03-02", "duration": "7d", "devices": 10,
          \(description.fields.dropFirst().dropLast()),
          "strategies": [{ "name": "queue", "repeatMaxCount": 5 }] }
        """)
        #expect(abs(scenario.mail.perDay - description.perDay.value) < 0.01)
        #expect(abs(scenario.mailBursts!.meanSize - description.meanSize.value) < 0.01)
        #expect(abs(scenario.mailBursts!.gap.mean - description.gapSeconds.value * 1e6) < 1e3)
        #expect(description.setArguments.count == 2 && description.setArguments[1].hasPrefix("--set 'mailBursts={"))
    }

    @Test("Without threads every push is its own burst; --burst-gap joins a user's close pushes back into bursts")
    func burstGapJoinsThreadlessPushes() throws {
        var log = SyntheticBurstLog()
        log.users = 400
        log.writesThreads = false
        let alone = try Self.describe(log)
        #expect(alone.meanSize.value == 1 && !alone.hasBursts && alone.mailBurstsField == nil)
        // Joined at 1 hour: most of a burst's gaps (mean 10 min: 99.8% under an hour) and a few
        // bursts' starts (mean 3 h apart) join, so the size reads near 3, a little over.
        let joined = try Self.describe(log, burstGap: TimeUnit.hour)
        #expect(joined.meanSize.value > 2.7 && joined.meanSize.value < 4, "\(joined.meanSize)")
    }

    @Test("--burst-gap needs each user's threadless pushes in time order")
    func burstGapRefusesOutOfOrderPushes() throws {
        var describer = LogDescriber(burstGap: TimeUnit.minute)
        try describer.add(user: "a", thread: nil, wall: 10 * TimeUnit.second)
        #expect(throws: LogDescriber.OutOfOrder(wall: TimeUnit.second)) {
            try describer.add(user: "a", thread: nil, wall: TimeUnit.second)
        }
    }
}
