@testable import Base
import Foundation
import Testing

@Suite("Random numbers and distributions")
struct RandomTests {
    /// SplitMix64's increment (the golden gamma).
    private static let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// Undoes `z ^= z >> shift`.
    private static func unXorShift(_ value: UInt64, _ shift: UInt64) -> UInt64 {
        var x = value
        for _ in 0..<(64 / shift + 1) { x = value ^ (x >> shift) }
        return x
    }

    /// The inverse of an odd number modulo 2^64 (Newton's iteration).
    private static func inverse(_ odd: UInt64) -> UInt64 {
        var inverse = odd                     // correct to 3 bits
        for _ in 0..<5 { inverse &*= 2 &- odd &* inverse }
        return inverse
    }

    /// The inverse of `SplitMix64.mix`, computed independently of it.
    private static func unmix(_ value: UInt64) -> UInt64 {
        var z = unXorShift(value, 31)
        z &*= inverse(0x94d0_49bb_1331_11eb)
        z = unXorShift(z, 27)
        z &*= inverse(0xbf58_476d_1ce4_e5b9)
        return unXorShift(z, 30)
    }

    // MARK: SplitMix64

    @Test("SplitMix64 seeded with 0 gives the reference outputs")
    func splitMixReferenceOutputs() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xe220_a839_7b1d_cdaf)
        #expect(rng.next() == 0x6e78_9e6a_a1b9_65f4)
        #expect(rng.next() == 0x06c4_5d18_8009_454f)
    }

    @Test("the same seed gives the same sequence and a different seed a different one")
    func splitMixIsDeterministic() {
        var a = SplitMix64(seed: 12_345), b = SplitMix64(seed: 12_345), c = SplitMix64(seed: 12_346)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        let other = (0..<100).map { _ in c.next() }
        #expect(Set(first).isDisjoint(with: other))
    }

    @Test("mix is a bijection: the independently computed inverse undoes it")
    func mixIsInvertible() {
        #expect(SplitMix64.mix(0) == 0)
        var rng = SplitMix64(seed: 99)
        for _ in 0..<1_000 {
            let value = rng.next()
            #expect(Self.unmix(SplitMix64.mix(value)) == value)
        }
    }

    @Test("nextUnitInterval maps the smallest raw output to 2^-53 and the largest to exactly 1")
    func unitIntervalEndpoints() {
        // A state one gamma before 0 makes next() return mix(0) = 0.
        var lowest = SplitMix64(seed: 0 &- Self.gamma)
        #expect(lowest.nextUnitInterval() == 0x1.0p-53)

        // A state one gamma before mix⁻¹(UInt64.max) makes next() return UInt64.max.
        var highest = SplitMix64(seed: Self.unmix(.max) &- Self.gamma)
        var probe = highest
        #expect(probe.next() == UInt64.max)
        #expect(highest.nextUnitInterval() == 1.0)
    }

    @Test("nextUnitInterval stays in (0, 1] and averages 1/2")
    func unitIntervalRange() {
        var rng = SplitMix64(seed: 7)
        let n = 100_000
        var sum = 0.0
        for _ in 0..<n {
            let u = rng.nextUnitInterval()
            #expect(u > 0 && u <= 1)
            sum += u
        }
        // Uniform(0,1]: σ = 1/√12 ≈ 0.2887, SE = σ/√n ≈ 0.000913; 5 SE ≈ 0.0046.
        #expect(abs(sum / Double(n) - 0.5) < 0.0046)
    }

    // MARK: Random streams

    @Test("each (seed, user, stream) has its own generator that repeats exactly")
    func streamsRepeatForTheSameTriple() {
        for stream in [RandomStream.mail, .connectivity, .providerLatency, .apnsLatency, .rerequestLatency, .deviceTraits] {
            var a = stream.generator(seed: 7, user: 3)
            var b = stream.generator(seed: 7, user: 3)
            #expect((0..<20).map { _ in a.next() } == (0..<20).map { _ in b.next() })
        }
    }

    @Test("generators differ by stream, by user and by seed")
    func streamsDiffer() {
        let streams: [RandomStream] = [.mail, .connectivity, .providerLatency, .apnsLatency, .rerequestLatency, .deviceTraits]
        var byStream = streams.map { $0.generator(seed: 7, user: 3) }
        let firstByStream = byStream.indices.map { byStream[$0].next() }
        #expect(Set(firstByStream).count == streams.count)

        let firstByUser = (0..<1_000 as Range<UInt64>).map { user -> UInt64 in
            var rng = RandomStream.mail.generator(seed: 7, user: user)
            return rng.next()
        }
        #expect(Set(firstByUser).count == 1_000)

        var seed7 = RandomStream.mail.generator(seed: 7, user: 0)
        var seed8 = RandomStream.mail.generator(seed: 8, user: 0)
        #expect(seed7.next() != seed8.next())
    }

    @Test("no two streams of nearby users share any of their first outputs")
    func streamsDoNotOverlap() {
        let streams: [RandomStream] = [.mail, .connectivity, .providerLatency, .apnsLatency, .rerequestLatency, .deviceTraits]
        var seen = Set<UInt64>()
        var total = 0
        for user in 0..<20 as Range<UInt64> {
            for stream in streams {
                var rng = stream.generator(seed: 7, user: user)
                for _ in 0..<200 {
                    seen.insert(rng.next())
                    total += 1
                }
            }
        }
        // Overlapping (shifted) sequences would repeat values; 24,000 random 64-bit
        // values collide with probability ~1.6e-11.
        #expect(seen.count == total)
    }

    // MARK: Distributions

    private func sampleMean(_ distribution: Distribution, n: Int, seed: UInt64,
                            check: (SimDuration) -> Void = { _ in }) -> Double {
        var rng = SplitMix64(seed: seed)
        var sum = 0.0
        for _ in 0..<n {
            let value = distribution.sample(&rng)
            check(value)
            sum += Double(value)
        }
        return sum / Double(n)
    }

    @Test("the closed-form means of the distributions")
    func distributionMeans() {
        #expect(Distribution.constant(5).mean == 5)
        #expect(Distribution.exponential(mean: 1_000).mean == 1_000)
        #expect(Distribution.uniform(min: 1_000, max: 3_000).mean == 2_000)
        #expect(abs(Distribution.lognormal(median: 1_000_000, sigma: 0.5).mean - 1_133_148.453) < 0.001)
    }

    @Test("constant draws its value every time and consumes no randomness")
    func constantSamples() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<100 { #expect(Distribution.constant(250_000).sample(&rng) == 250_000) }
        var fresh = SplitMix64(seed: 1)
        #expect(rng.next() == fresh.next())
    }

    @Test("exponential samples average the mean and are never negative")
    func exponentialSampleMean() {
        let mean = 1_000_000.0
        // σ = mean = 1e6 µs; n = 100,000: SE = 1e6/√1e5 ≈ 3,162 µs. Tolerance 5 SE ≈ 15,811 µs.
        let average = sampleMean(.exponential(mean: 1_000_000), n: 100_000, seed: 11) { #expect($0 >= 0) }
        #expect(abs(average - mean) < 15_811)
    }

    @Test("exponential samples fall below the mean with probability 1 - 1/e")
    func exponentialShape() {
        var rng = SplitMix64(seed: 12)
        let n = 100_000
        var below = 0
        for _ in 0..<n where Distribution.exponential(mean: 1_000_000).sample(&rng) <= 1_000_000 { below += 1 }
        // p = 1 - e^-1 ≈ 0.632121; SE = √(p(1-p)/n) ≈ 0.001525. Tolerance 5 SE ≈ 0.0076.
        #expect(abs(Double(below) / Double(n) - (1 - exp(-1.0))) < 0.0076)
    }

    @Test("uniform samples stay within [min, max] and average the midpoint")
    func uniformSampleMean() {
        var lowest = SimDuration.max, highest = SimDuration.min
        // σ = (3000-1000)/√12 ≈ 577.35 µs; n = 100,000: SE ≈ 1.826 µs. Tolerance 5 SE ≈ 9.13 µs.
        let average = sampleMean(.uniform(min: 1_000, max: 3_000), n: 100_000, seed: 13) {
            lowest = min(lowest, $0)
            highest = max(highest, $0)
        }
        #expect(lowest >= 1_000 && highest <= 3_000)
        // 100,000 draws over 2,001 values reach both ends.
        #expect(lowest == 1_000 && highest == 3_000)
        #expect(abs(average - 2_000) < 9.13)
    }

    @Test("uniform with min == max always draws that value")
    func degenerateUniform() {
        var rng = SplitMix64(seed: 14)
        for _ in 0..<100 { #expect(Distribution.uniform(min: 42, max: 42).sample(&rng) == 42) }
    }

    @Test("lognormal samples average median·e^(σ²/2) and split half and half at the median")
    func lognormalSampleMean() {
        let distribution = Distribution.lognormal(median: 1_000_000, sigma: 0.5)
        // Mean = 1e6·e^0.125 ≈ 1,133,148 µs; variance = (e^σ² - 1)·e^(2μ+σ²) = (e^0.25 - 1)·e^0.25·1e12
        // ≈ 3.6465e11, σ ≈ 603,860 µs; n = 100,000: SE ≈ 1,910 µs. Tolerance 5 SE ≈ 9,548 µs.
        var below = 0
        let average = sampleMean(distribution, n: 100_000, seed: 15) {
            #expect($0 > 0)
            if $0 < 1_000_000 { below += 1 }
        }
        #expect(abs(average - distribution.mean) < 9_548)
        // P(X < median) = 1/2; SE = √(0.25/n) ≈ 0.00158. Tolerance 5 SE ≈ 0.0079.
        #expect(abs(Double(below) / 100_000 - 0.5) < 0.0079)
    }
}
