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
            time += max(1, Self.roundedUp(gap))
            if flat { return time }
            if time >= hourEnd { enterHour() }
            if hourRate == peakRate || rng.nextUnitInterval() * peakRate <= hourRate { return time }
        }
    }

    /// Looks up the rate of the hour `time` is in, until that hour's end.
    private mutating func enterHour() {
        // Unsigned, wrapping: `time` is at least 1 (each candidate moves it on by 1 or more)
        // and below the horizon plus one capped gap (1e15), far from either end. The same
        // hour and index as signed division, without its sign fix-ups and overflow checks.
        let hour = UInt64(truncatingIfNeeded: time) / Self.hourLength
        hourEnd = SimTime(truncatingIfNeeded: (hour &+ 1) &* Self.hourLength)
        hourRate = hourlyRate[Int(truncatingIfNeeded: (hour &+ weekOffset) % Self.hoursInWeek)]
    }

    /// `SimTime(gap.rounded(.up))` for a gap in [0, 1e15) (-0 too), without libm's call or
    /// the conversion's checks: below 2⁵², `gap + 2⁵²` is the gap rounded to the nearest whole
    /// number, read from its bits, then up by one if that is below the gap.
    /// - Complexity: O(1).
    @inline(__always)
    package static func roundedUp(_ gap: Double) -> SimTime {
        let nearest = Int64(bitPattern: (gap + twoTo52).bitPattern &- twoTo52.bitPattern)
        return Double(nearest) < gap ? nearest &+ 1 : nearest
    }

    private static let twoTo52: Double = 0x1p52
    private static let hourLength = UInt64(TimeUnit.hour)
    private static let hoursInWeek: UInt64 = 7 * 24
    /// The hours of the week before the run's first day (`firstWeekday` × 24).
    private var weekOffset: UInt64 { UInt64(truncatingIfNeeded: firstWeekday) &* 24 }
}
