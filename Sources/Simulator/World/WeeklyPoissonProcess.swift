import Base
import FoundationEssentials
import Glibc

/// A non-homogeneous Poisson process whose rate follows the hour of day and the
/// weekday: one user's mail arrivals, or their app launches. Drawn by thinning
/// (Lewis & Shedler): candidates at the peak rate, each kept with probability
/// rate(t) / peak.
package struct WeeklyPoissonProcess {
    /// Rate per microsecond for each hour of the week (7 × 24), Monday 00:00 first.
    private let hourlyRate: ContiguousArray<Double>
    private let peakRate: Double
    private let firstWeekday: Int
    private var time: SimTime = 0
    /// The end of the hour `hourRate` is the rate of: candidates in one hour skip its look-up.
    private var hourEnd: SimTime = 0
    private var hourRate: Double = 0

    package init(model: MailModel, firstWeekday: Int) {
        var rates = ContiguousArray<Double>(repeating: 0, count: 7 * 24)
        for weekday in 0..<7 {
            let dayFactor = weekday >= 5 ? model.weekendFactor : 1
            for hour in 0..<24 {
                rates[weekday * 24 + hour] = model.perDay * model.diurnal[hour] * dayFactor / Double(TimeUnit.day)
            }
        }
        hourlyRate = rates
        let peak = rates.max() ?? 0
        peakRate = peak
        flat = rates.allSatisfy { $0 == peak }
        candidateRate = peak
        self.firstWeekday = firstWeekday
    }

    /// Every hour's rate is the peak: every candidate is kept (`rate == peakRate`), so
    /// the hour need not be looked up.
    private let flat: Bool
    /// The candidates' rate: the peak times `reset`'s multiplier, multiplied once.
    private var candidateRate: Double

    /// Starts over at time 0, with the rate multiplied by `multiplier` (several accounts
    /// into one app: merged Poisson streams).
    package mutating func reset(multiplier: Double = 1) {
        time = 0
        hourEnd = 0
        candidateRate = peakRate * multiplier
    }

    /// The next arrival after the previous one, or nil when no mail ever comes.
    package mutating func next(_ rng: inout SplitMix64) -> SimTime? {
        guard peakRate > 0 else { return nil }
        while true {
            // Scaling the rate only shortens the candidate gaps; the thinning ratio is unchanged.
            let gap = -Glibc.log(rng.nextUnitInterval()) / candidateRate
            // Past the horizon of any run: stop rather than overflow.
            guard gap < 1e15 else { return nil }
            // `gap.rounded(.up)` without libm's call: the gap is at least 0 (-0 rounds to 0 either way).
            var whole = SimTime(gap)
            if Double(whole) < gap { whole += 1 }
            time += max(1, whole)
            if flat { return time }
            if time >= hourEnd { enterHour() }
            if hourRate == peakRate || rng.nextUnitInterval() * peakRate <= hourRate { return time }
        }
    }

    /// Looks up the rate of the hour `time` is in, until that hour's end.
    private mutating func enterHour() {
        let hour = time / TimeUnit.hour
        hourEnd = (hour + 1) * TimeUnit.hour
        hourRate = hourlyRate[(Int(hour) + firstWeekday * 24) % (7 * 24)]
    }
}
