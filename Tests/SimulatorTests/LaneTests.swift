@testable import Base
@testable import Simulator
import Testing

/// What a device's apps and accounts are built from: per-lane random streams,
/// merged mail streams (the rate multiplier) and the per-device count draw.
@Suite("Lanes, accounts and counts")
struct LaneTests {
    static let streams: [RandomStream] = [.mail, .connectivity, .providerLatency, .apnsLatency, .rerequestLatency,
                                          .deviceTraits, .laneTraits, .providerNetwork, .powerDeferral,
                                          .extensionMemory, .tokenRotation, .deviceIDChange, .subscriptionChanges,
                                          .launches, .taps, .apnsChoice, .outages]

    static func outputs(_ generator: SplitMix64, count: Int = 16) -> [UInt64] {
        var rng = generator
        return (0..<count).map { _ in rng.next() }
    }

    // MARK: RandomStream lanes

    @Test("lane 0 is the user's own stream, for every purpose, seed and user")
    func laneZeroIsTheUsersStream() {
        for stream in Self.streams {
            for (seed, user) in [(0, 0), (7, 3), (123_456_789, 99_999), (UInt64.max, UInt64.max)] as [(UInt64, UInt64)] {
                #expect(Self.outputs(stream.generator(seed: seed, user: user, lane: 0))
                        == Self.outputs(stream.generator(seed: seed, user: user)))
            }
        }
    }

    @Test("a lane's stream repeats exactly for the same (seed, user, lane)")
    func lanesAreDeterministic() {
        for stream in Self.streams {
            for lane in 1..<4 {
                #expect(Self.outputs(stream.generator(seed: 7, user: 3, lane: lane))
                        == Self.outputs(stream.generator(seed: 7, user: 3, lane: lane)))
            }
        }
    }

    @Test("lanes differ from each other, and lane k differs by seed, by user and by purpose")
    func lanesDiffer() {
        let firstByLane = (0..<20).map { Self.outputs(RandomStream.mail.generator(seed: 7, user: 3, lane: $0), count: 1)[0] }
        #expect(Set(firstByLane).count == 20)
        let lane = 1
        let bySeed = Self.outputs(RandomStream.mail.generator(seed: 8, user: 3, lane: lane))
        let byUser = Self.outputs(RandomStream.mail.generator(seed: 7, user: 4, lane: lane))
        let byPurpose = Self.outputs(RandomStream.launches.generator(seed: 7, user: 3, lane: lane))
        let reference = Self.outputs(RandomStream.mail.generator(seed: 7, user: 3, lane: lane))
        #expect(bySeed != reference && byUser != reference && byPurpose != reference)
    }

    @Test("no two lanes, purposes or nearby users share any of their first outputs")
    func lanesDoNotOverlap() {
        var seen = Set<UInt64>()
        var total = 0
        for user in 0..<6 as Range<UInt64> {
            for lane in 0..<4 {
                for stream in Self.streams {
                    for value in Self.outputs(stream.generator(seed: 7, user: user, lane: lane), count: 100) {
                        seen.insert(value)
                        total += 1
                    }
                }
            }
        }
        // 40,800 random 64-bit values collide with probability ~4.5e-11; a shifted copy of
        // another stream would repeat values.
        #expect(seen.count == total)
    }

    // MARK: WeeklyPoissonProcess

    /// Night hours 0–5 get no mail; the evening weighs twice the day.
    static let shapedMail = MailModel(perDay: 10, diurnal: Array(repeating: 0, count: 6) + Array(repeating: 1, count: 12)
                                      + Array(repeating: 2, count: 6), weekendFactor: 0.5)

    /// Arrivals before `horizon` after `reset(multiplier:)`, and how many fell in hours 0–5.
    static func arrivals(multiplier: Double, seed: UInt64, horizon: SimTime) -> (count: Int, atNight: Int) {
        var process = WeeklyPoissonProcess(model: shapedMail, firstWeekday: 0)
        process.reset(multiplier: multiplier)
        var rng = SplitMix64(seed: seed)
        var count = 0, atNight = 0
        while let time = process.next(&rng), time < horizon {
            count += 1
            if time % TimeUnit.day < 6 * TimeUnit.hour { atNight += 1 }
        }
        return (count, atNight)
    }

    @Test("reset(multiplier: m) gives m times the arrivals, keeping the daily and weekly shape",
          arguments: [0.5, 1.0, 2.0, 3.0])
    func multiplierScalesArrivals(multiplier: Double) {
        // 100 weeks of 10 a weekday and 5 a weekend day: 6,000 m expected; Poisson SE √(6000 m); tolerance 4 SE.
        let expected = 100 * (5 * 10 + 2 * 5) * multiplier
        let (count, atNight) = Self.arrivals(multiplier: multiplier, seed: 11, horizon: 700 * TimeUnit.day)
        #expect(abs(Double(count) - expected) < 4 * expected.squareRoot())
        // Thinning still follows the hours: a zero-weight hour never gets mail.
        #expect(atNight == 0)
    }

    @Test("reset starts over at 0 and its default multiplier is 1 again")
    func resetStartsOver() {
        var reused = WeeklyPoissonProcess(model: Self.shapedMail, firstWeekday: 0)
        var rng = SplitMix64(seed: 3)
        reused.reset(multiplier: 3)
        for _ in 0..<50 { _ = reused.next(&rng) }
        reused.reset()
        var fresh = WeeklyPoissonProcess(model: Self.shapedMail, firstWeekday: 0)
        var a = SplitMix64(seed: 5), b = SplitMix64(seed: 5)
        #expect((0..<50).map { _ in reused.next(&a) } == (0..<50).map { _ in fresh.next(&b) })
    }

    @Test("with a flat day, m times the rate is the same draws m times faster, up to the microsecond rounding")
    func multiplierCompressesTime() {
        // No thinning when the rate is flat: gaps are −ln u / (m λ), rounded up to 1 µs each.
        var single = WeeklyPoissonProcess(model: MailModel(perDay: 24), firstWeekday: 0)
        var triple = WeeklyPoissonProcess(model: MailModel(perDay: 24), firstWeekday: 0)
        triple.reset(multiplier: 3)
        var a = SplitMix64(seed: 9), b = SplitMix64(seed: 9)
        for index in 1...200 {
            let slow = single.next(&a)!, fast = triple.next(&b)!
            // Each of the `index` gaps rounds up by less than 1 µs on either side.
            #expect(abs(Double(slow) / 3 - Double(fast)) <= Double(index))
        }
    }

    // MARK: CountShares

    @Test("count(for:) switches exactly at the cumulative shares")
    func countAtBoundaries() {
        let shares = CountShares(shares: [0.5, 0.25, 0.25])
        #expect(shares.count(for: 0x1.0p-53) == 1)
        #expect(shares.count(for: 0.5) == 1)
        #expect(shares.count(for: 0.5.nextUp) == 2)
        #expect(shares.count(for: 0.75) == 2)
        #expect(shares.count(for: 0.75.nextUp) == 3)
        #expect(shares.count(for: 1) == 3)
        // A count with share 0 is never drawn.
        let gap = CountShares(shares: [0.5, 0, 0.5])
        #expect(gap.count(for: 0.5) == 1)
        #expect(gap.count(for: 0.5.nextUp) == 3)
        #expect(CountShares(shares: [0, 1]).count(for: 0x1.0p-53) == 2)
        // Shares that sum to just under 1 in floating point still give the last count at u = 1.
        let inexact = CountShares(shares: [0.7, 0.2, 0.1])
        #expect(0.7 + 0.2 + 0.1 < 1)
        #expect(inexact.count(for: 1) == 3)
        #expect(CountShares.one.count(for: 1) == 1 && CountShares.one.count(for: 0x1.0p-53) == 1)
        #expect(CountShares(exactly: 3).count(for: 0x1.0p-53) == 3 && CountShares(exactly: 3).count(for: 1) == 3)
    }

    @Test("mean is Σ k · share(k)")
    func meanCount() {
        #expect(CountShares(shares: [0.5, 0.25, 0.25]).mean == 1.75)
        #expect(CountShares(shares: [0.5, 0, 0.5]).mean == 2)
        #expect(CountShares.one.mean == 1)
        #expect(CountShares(exactly: 4).mean == 4)
        #expect(CountShares(exactly: 4).shares == [0, 0, 0, 1])
    }
}
