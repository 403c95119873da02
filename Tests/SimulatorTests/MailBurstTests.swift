@testable import Base
import Foundation
@testable import Simulator
import TestSupport
import Testing

/// `mailBursts` is a compound Poisson process: bursts start as the mail's weekly rhythm at
/// perDay / m, each holds a geometric number N of mails (mean m). Over a window in which Λ
/// bursts are expected to start, a device app's mail count has mean Λ·m and variance
/// Λ·m·(2m − 1) (docs/model.md, "Mail in bursts"). The draws are checked against both.
@Suite("Mail bursts")
struct MailBurstTests {
    static func scenario(bursts: String, devices: Int = 20_000, accounts: String = "") -> Scenario {
        WorldFixtures.scenario("""
        {
          "name": "bursts", "seed": 5, "start": "2026-01-05", "duration": "7d", "devices": \(devices),
          "mail": { "perDay": 30, "weekendFactor": 0.5,
                    "diurnal": [1, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 2, 2, 2, 1, 1, 0.2] },
          \(bursts)
          \(accounts)
          "strategies": [{ "name": "queue", "repeatMaxCount": 10 }]
        }
        """)
    }

    /// Each user's mail instants, user by user, as the world draws them.
    static func mailTimes(_ scenario: Scenario, users: Range<Int>) -> [[SimTime]] {
        var timeline = UserTimeline(scenario: scenario, outages: [])
        return users.map { user in
            timeline.drawDevice(seed: scenario.seed, user: user)
            timeline.drawLane(0, seed: scenario.seed, user: user)
            return timeline.lanes[0].entries.compactMap { entry in
                if case .mail = entry.event { entry.time } else { nil }
            }
        }
    }

    @Test("A device's weekly mail count has the compound Poisson mean Λm and variance Λm(2m − 1), within 4 standard errors")
    func countMatchesTheClosedForm() {
        let scenario = Self.scenario(bursts: """
        "mailBursts": { "meanSize": 4, "gap": { "distribution": "exponential", "mean": "2m" } },
        """)
        let model = scenario.mailBursts!
        let counts = Self.mailTimes(scenario, users: 0..<scenario.devices).map { Double($0.count) }
        let n = Double(counts.count)
        let mean = counts.reduce(0, +) / n
        let variance = counts.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        let fourth = counts.reduce(0) { $0 + pow($1 - mean, 4) } / n
        // Λ: 5 weekdays and 2 weekend days at half the rate, bursts at perDay / m.
        let expectedBursts = 30 / model.meanSize * (5 + 2 * 0.5)
        let (closedMean, closedVariance) = model.countMoments(expectedBursts: expectedBursts)
        #expect(closedMean == 180 && closedVariance == 1260)
        // The run's end cuts the last bursts short: about this many mails a device, bursts
        // starting before Sunday midnight at 22:00's rate (above 23:00's), half on weekends.
        let cut = model.mailsCutAtEnd(burstsPerDay: 30 / model.meanSize * 0.5 * scenario.mail.diurnal[22])
        #expect(cut < 0.05)
        let meanError = (variance / n).squareRoot()
        let varianceError = ((fourth - variance * variance) / n).squareRoot()
        #expect(abs(mean - closedMean) <= 4 * meanError + cut, "mean \(mean) vs \(closedMean) ± \(4 * meanError)")
        // The cut's effect on the variance is about its mails times twice a burst's dispersion.
        #expect(abs(variance - closedVariance) <= 4 * varianceError + 2 * (2 * model.meanSize - 1) * cut,
                "variance \(variance) vs \(closedVariance) ± \(4 * varianceError)")
        // Far from Poisson's variance (= mean): the bursts are what the model adds.
        #expect(variance > 5 * mean)
    }

    @Test("Bursts of mean size 1 are the Poisson mail, draw for draw")
    func sizeOneIsThePoissonMail() {
        let poisson = Self.scenario(bursts: "", devices: 50)
        let single = Self.scenario(bursts: """
        "mailBursts": { "meanSize": 1, "gap": { "distribution": "constant", "value": "1m" } },
        """, devices: 50)
        #expect(Self.mailTimes(poisson, users: 0..<50) == Self.mailTimes(single, users: 0..<50))
    }

    @Test("A burst's mails follow its start by the gaps: with a constant gap, every burst is a run 1 minute apart")
    func constantGapsSpaceABurst() {
        let scenario = Self.scenario(bursts: """
        "mailBursts": { "meanSize": 3, "gap": { "distribution": "constant", "value": "1m" } },
        """, devices: 200)
        let times = Self.mailTimes(scenario, users: 0..<200)
        let gaps = times.flatMap { zip($0, $0.dropFirst()).map { $1 - $0 } }
        let oneMinute = gaps.filter { $0 == TimeUnit.minute }.count
        // 2 of every 3 mails follow their burst's previous one: about 2/3 of the gaps are exactly 1 minute.
        let share = Double(oneMinute) / Double(gaps.count)
        #expect(abs(share - 2.0 / 3) < 0.02, "share \(share)")
        #expect(times.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 <= $1 } })
    }

    @Test("Accounts multiply the bursts: two accounts draw twice the mean")
    func accountsMultiplyTheBursts() {
        let scenario = Self.scenario(bursts: """
        "mailBursts": { "meanSize": 4, "gap": { "distribution": "exponential", "mean": "2m" } },
        """, devices: 2_000, accounts: """
        "device": { "accounts": { "2": 1 } },
        """)
        let counts = Self.mailTimes(scenario, users: 0..<2_000).map { Double($0.count) }
        let mean = counts.reduce(0, +) / Double(counts.count)
        // 360 ± 4 standard errors of a mean of variance 2 × 1260 over 2,000 devices.
        #expect(abs(mean - 360) <= 4 * (2 * 1260 / 2_000.0).squareRoot(), "mean \(mean)")
    }
}
