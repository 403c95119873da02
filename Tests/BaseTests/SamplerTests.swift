@testable import Base
import Foundation
import Testing

@Suite("Table sampler")
struct SamplerTests {
    @Test("the table-driven log-normal stays within 0.05% of the exact inverse for every uniform, and uses one per draw")
    func tableMatchesExactInverse() {
        let distribution = Distribution.lognormal(median: 400_000, sigma: 1)
        let sampler = Sampler(distribution)
        var a = SplitMix64(seed: 9), b = SplitMix64(seed: 9)
        for _ in 0..<100_000 {
            let table = sampler.sample(&a)
            let exact = distribution.sample(&b)
            // Linear interpolation between 4096 quantiles where the curve is gentle; the outer
            // 1/64 at each end, where it bends fast, is exact (2% off there before that rule).
            #expect(abs(Double(table - exact)) <= 0.0005 * Double(exact) + 1)
        }
        // Same number of uniforms consumed: the streams are still aligned.
        #expect(a.next() == b.next())
    }

    @Test("a table draw is the interpolation at u × 4096, to the bit, and a batch of draws is the draws one by one")
    func tableDrawsAreTheInterpolationAtTheUniform() {
        let distribution = Distribution.lognormal(median: 400_000, sigma: 1)
        let sampler = Sampler(distribution)
        var drawn = SplitMix64(seed: 12), uniforms = SplitMix64(seed: 12)
        for _ in 0..<100_000 {
            // The interpolation as first written: from the double u, converted.
            let u = uniforms.nextUnitInterval()
            let x = u * Double(Sampler.points)
            let index = Int(x)
            let expected = index >= Sampler.exactBins && index < Sampler.points - Sampler.exactBins
                ? Distribution.rounded(sampler.table[index] + (sampler.table[index + 1] - sampler.table[index]) * (x - Double(index)))
                : Distribution.rounded(400_000 * Foundation.exp(standardNormalQuantile(u)))
            #expect(sampler.sample(&drawn) == expected)
        }
        for sampled in [sampler, Sampler(.exponential(mean: 1_000)), Sampler(.uniform(min: 5, max: 9))] {
            var one = SplitMix64(seed: 5), batch = SplitMix64(seed: 5)
            var draws = OwnedBuffer<SimDuration>(capacity: 1)
            sampled.sample(37, into: &draws, &batch)
            #expect(Array(draws) == (0..<37).map { _ in sampled.sample(&one) })
            #expect(one.next() == batch.next())
        }
    }

    @Test("no draw passes longestPossibleDraw, which the extreme uniforms reach", arguments: [
        Distribution.constant(7), .exponential(mean: 1_000_000), .uniform(min: 10, max: 20),
        .lognormal(median: 400_000, sigma: 1), .lognormal(median: 400_000, sigma: 0),
    ])
    func longestPossibleDrawBoundsDraws(distribution: Distribution) {
        let longest = distribution.longestPossibleDraw
        let sampler = Sampler(distribution)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<100_000 {
            #expect(sampler.sample(&rng) <= longest)
            #expect(distribution.sample(&rng) <= longest)
        }
        // The uniforms closest to 0 and 1 give the extremes; neither passes the bound.
        for u in [0x1.0p-53, 1.0] {
            let draw: SimDuration = switch distribution {
            case .constant(let value): value
            case .exponential(let mean): Distribution.rounded(-Double(mean) * Foundation.log(u))
            case .uniform(let low, let high): low + SimDuration(Double(high - low) * (1 - u) + 0.5)
            case .lognormal(let median, let sigma): Distribution.rounded(Double(median) * Foundation.exp(sigma * standardNormalQuantile(u)))
            }
            #expect(draw <= longest)
        }
    }

    @Test("the table-driven log-normal keeps the distribution's mean")
    func tableKeepsMean() {
        // σ = 0.5: mean = median·e^(σ²/2) ≈ 1.1331 × median; SD/mean ≈ 0.53, so the SE of
        // a 200k-draw mean is ≈ 0.12%; tolerance 0.6% (5 SE).
        let distribution = Distribution.lognormal(median: 1_000_000, sigma: 0.5)
        let sampler = Sampler(distribution)
        var rng = SplitMix64(seed: 4)
        var sum = 0.0
        for _ in 0..<200_000 { sum += Double(sampler.sample(&rng)) }
        #expect(abs(sum / 200_000 / distribution.mean - 1) < 0.006)
    }

    @Test("a heavy tail is capped at the longest draw instead of overflowing the clock")
    func heavyTailIsCapped() {
        // 100 years, σ = 5 (the largest allowed): a draw passes the 1,000-year cap
        // when e^(5·z) > 10, z > 0.46; the exact tails reach 10^34 µs.
        let distribution = Distribution.lognormal(median: 100 * 365 * TimeUnit.day, sigma: 5)
        let sampler = Sampler(distribution)
        var a = SplitMix64(seed: 9), b = SplitMix64(seed: 9)
        var capped = 0
        for _ in 0..<10_000 {
            let table = sampler.sample(&a), exact = distribution.sample(&b)
            #expect(table > 0 && table <= Distribution.longestDraw)
            #expect(exact > 0 && exact <= Distribution.longestDraw)
            if table == Distribution.longestDraw { capped += 1 }
        }
        // P(z > ln 10 / 5) = 0.3226: 3,226 expected, SE 47; tolerance 250 (5 SE).
        #expect(abs(capped - 3_226) < 250)
        // Below the cap, draws are untouched: rounding to the microsecond only.
        var c = SplitMix64(seed: 9), d = SplitMix64(seed: 9)
        let light = Distribution.lognormal(median: 1_000_000, sigma: 1)
        let unit = c.nextUnitInterval()
        #expect(light.sample(&d) == SimDuration(1_000_000 * Foundation.exp(standardNormalQuantile(unit)) + 0.5))
    }

    @Test("other distributions are drawn exactly as the distribution draws them")
    func otherDistributionsPassThrough() {
        for distribution in [Distribution.constant(7), .exponential(mean: 1_000), .uniform(min: 10, max: 20)] {
            var a = SplitMix64(seed: 2), b = SplitMix64(seed: 2)
            let sampler = Sampler(distribution)
            for _ in 0..<100 { #expect(sampler.sample(&a) == distribution.sample(&b)) }
        }
    }
}
