import Base
import Foundation

/// A send log drawn from known parameters of the bursty mail model (docs/model.md, "Mail
/// in bursts"), written independently of the simulator's draw: per user, bursts start in
/// each local hour as a Poisson count at perDay / meanSize × the hour's weight (× the
/// weekend factor on Saturdays and Sundays), spread uniformly within the hour; each burst
/// is one thread with a geometric number of pushes of mean `meanSize`, exponential gaps of
/// mean `gapSeconds` between them. Pushes past the last day are left out. For describe-log's
/// recovery test.
package struct SyntheticBurstLog {
    package var users = 1_500
    package var start = CivilDate(year: 2026, month: 3, day: 2)!
    package var days = 28
    package var perDay = 8.0
    package var weekendFactor = 0.5
    /// 24 weights, normalised to mean 1 here.
    package var diurnal: [Double] = [0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 1.0, 1.6, 1.8, 1.7, 1.6,
                                     1.5, 1.6, 1.6, 1.5, 1.4, 1.3, 1.2, 1.1, 1.0, 0.8, 0.6, 0.4]
    package var meanSize = 3.0
    package var gapSeconds = 600.0
    package var seed: UInt64 = 1
    /// Whether the rows name their thread (else the thread column is empty).
    package var writesThreads = true

    package init() {}

    /// The weights as the model reads them: mean 1.
    package var normalisedDiurnal: [Double] {
        let mean = diurnal.reduce(0, +) / 24
        return diurnal.map { $0 / mean }
    }

    /// One push: user id (hashed-looking), thread id, local wall time (µs since 1970-01-01T00:00 local).
    package struct Row: Equatable {
        package var user: String
        package var thread: String
        package var wall: Int64
    }

    /// Every push, in time order.
    package func rows() -> [Row] {
        // Mixed: neighbouring seeds start far apart in the generator's sequence.
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x6c6f_6773))
        let weights = normalisedDiurnal
        let firstWall = Int64(start.daysSinceEpoch) * TimeUnit.day
        let end = firstWall + Int64(days) * TimeUnit.day
        var rows: [Row] = []
        var threadNumber = 0
        for user in 0..<users {
            let id = String(SplitMix64.mix(seed &+ UInt64(user)), radix: 16)
            for day in 0..<days {
                let weekend = start.adding(days: day).weekday >= 5
                for hour in 0..<24 {
                    let rate = perDay / meanSize * weights[hour] * (weekend ? weekendFactor : 1) / 24
                    for _ in 0..<Self.poisson(rate, &random) {
                        var time = firstWall + Int64(day) * TimeUnit.day + Int64(hour) * TimeUnit.hour
                            + Int64(random.nextUnitInterval() * Double(TimeUnit.hour - 1))
                        threadNumber += 1
                        while time < end {
                            rows.append(Row(user: id, thread: writesThreads ? "t\(threadNumber)" : "", wall: time))
                            guard random.nextUnitInterval() <= 1 - 1 / meanSize else { break }
                            time += max(1, Int64(-log(random.nextUnitInterval()) * gapSeconds * Double(TimeUnit.second)))
                        }
                    }
                }
            }
        }
        return rows.sorted { $0.wall < $1.wall }
    }

    /// The log as a send log's CSV (time,user,topic,thread), times at offset +03:00.
    package func csv(topic: String = "ru.yandex.mail") -> String {
        var text = "time,user,topic,thread\n"
        for row in rows() {
            text += Self.timeText(row.wall) + "," + row.user + "," + topic + "," + row.thread + "\n"
        }
        return text
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffff+03:00` for local wall time `wall`.
    package static func timeText(_ wall: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: Int(wall / TimeUnit.day))
        var rest = wall % TimeUnit.day
        let hour = rest / TimeUnit.hour
        rest %= TimeUnit.hour
        let minute = rest / TimeUnit.minute
        rest %= TimeUnit.minute
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06d+03:00", date.year, date.month, date.day,
                      Int(hour), Int(minute), Int(rest / TimeUnit.second), Int(rest % TimeUnit.second))
    }

    /// A Poisson count of mean `mean` (Knuth's product of uniforms: the means here are small).
    static func poisson(_ mean: Double, _ random: inout SplitMix64) -> Int {
        let limit = exp(-mean)
        var product = random.nextUnitInterval()
        var count = 0
        while product > limit {
            count += 1
            product *= random.nextUnitInterval()
        }
        return count
    }
}
