@testable import Base
import Foundation
@testable import Simulator
import TestSupport
import Testing

/// On/off periods of one law, for the process and as a scenario file writes them.
struct PeriodLaws: Sendable, CustomTestStringConvertible {
    let name: String
    let online: Distribution
    let offline: Distribution
    let onlineJSON: String
    let offlineJSON: String

    var testDescription: String { name }
    /// The stationary offline share E[off] / (E[on] + E[off]).
    var offlineShare: Double { offline.mean / (online.mean + offline.mean) }
    var model: ConnectivityModel { ConnectivityModel(online: online, offline: offline, offlineWindows: []) }

    static let minute = TimeUnit.minute, hour = TimeUnit.hour
    /// One law per kind of distribution; the offline shares are 1/4, 1/4, 1/4 and ≈ 0.318.
    static let all: [PeriodLaws] = [
        PeriodLaws(name: "constant", online: .constant(3 * hour), offline: .constant(hour),
                   onlineJSON: #""3h""#, offlineJSON: #""1h""#),
        PeriodLaws(name: "uniform", online: .uniform(min: hour, max: 5 * hour),
                   offline: .uniform(min: 20 * minute, max: 100 * minute),
                   onlineJSON: #"{ "distribution": "uniform", "min": "1h", "max": "5h" }"#,
                   offlineJSON: #"{ "distribution": "uniform", "min": "20m", "max": "100m" }"#),
        PeriodLaws(name: "exponential", online: .exponential(mean: 3 * hour), offline: .exponential(mean: hour),
                   onlineJSON: #"{ "distribution": "exponential", "mean": "3h" }"#,
                   offlineJSON: #"{ "distribution": "exponential", "mean": "1h" }"#),
        PeriodLaws(name: "lognormal", online: .lognormal(median: 2 * hour, sigma: 1),
                   offline: .lognormal(median: 30 * minute, sigma: 1.5),
                   onlineJSON: #"{ "distribution": "lognormal", "median": "2h", "sigma": 1 }"#,
                   offlineJSON: #"{ "distribution": "lognormal", "median": "30m", "sigma": 1.5 }"#),
    ]
}

/// The connectivity alternation starts in its stationary state for every law of
/// the periods: the state with probability E[·] / (E[on] + E[off]), and what is left
/// of the first period from the equilibrium residual, density P(L > x) / E[L].
///
/// Statistical checks are binomial: a share p̂ of n independent users is within
/// 4 SE of p, SE = √(p(1 − p) / n) (≈ 0.003 at n = 20,000, p = 1/4).
@Suite("Stationary start")
struct StationaryStartTests {
    static let users = 20_000

    /// P(R ≤ r) for the equilibrium residual R of `law`: ∫₀ʳ P(L > x) dx / E[L].
    static func residualCDF(_ law: Distribution, at r: Double) -> Double {
        switch law {
        case .constant(let value):
            return min(r / Double(value), 1)
        case .exponential(let mean):
            return 1 - exp(-r / Double(mean))
        case .uniform(let low, let high):
            let a = Double(low), b = Double(high)
            var integral = min(r, a)
            if r > a {
                let s = min(r, b)
                integral += (b * (s - a) - (s * s - a * a) / 2) / (b - a)
            }
            return integral / law.mean
        case .lognormal(let median, let sigma):
            // ∫₀ʳ P(L > x) dx = r·P(L > r) + E[L; L ≤ r], and E[L; L ≤ r] = E[L]·Φ(z − σ).
            func phi(_ x: Double) -> Double { erfc(-x / 2.squareRoot()) / 2 }
            let z = (log(r) - log(Double(median))) / sigma
            return r * (1 - phi(z)) / law.mean + phi(z - sigma)
        }
    }

    /// Expects the share of `draws` at or below each of `points` to match `cdf`
    /// within 4 binomial SE.
    static func expectMatchesCDF(_ draws: [SimDuration], points: [Double], cdf: (Double) -> Double,
                                 _ label: String) {
        let n = Double(draws.count)
        for point in points {
            let expected = cdf(point)
            let measured = Double(draws.count(where: { Double($0) <= point })) / n
            let se = (expected * (1 - expected) / n).squareRoot()
            #expect(abs(measured - expected) <= 4 * se,
                    "\(label): P(R ≤ \(point / 3.6e9) h) measured \(measured), exact \(expected), SE \(se)")
        }
    }

    /// The offline share of `users` devices at each of `times` (ascending), each
    /// user on its own connectivity stream.
    static func offlineShares(_ model: ConnectivityModel, at times: [SimTime]) -> [Double] {
        var process = ConnectivityProcess(model: model, firstWeekday: 0, horizon: 2 * TimeUnit.day)
        var offline = Array(repeating: 0, count: times.count)
        for user in 0..<users {
            var rng = RandomStream.connectivity.generator(seed: 11, user: UInt64(user))
            var online = process.start(&rng)
            var index = 0
            while index < times.count {
                // The state holds until the next change (a change at t already holds at t).
                let change = process.nextChange(&rng) ?? .max
                while index < times.count, times[index] < change {
                    if !online { offline[index] += 1 }
                    index += 1
                }
                online = process.isOnline
            }
        }
        return offline.map { Double($0) / Double(users) }
    }

    @Test("the offline share is E[off] / (E[on] + E[off]) at 0, early on and in the middle of the run",
          arguments: PeriodLaws.all)
    func offlineShareIsStationaryThroughout(_ laws: PeriodLaws) {
        // Early on (30 min, 2 h) is where a whole first period showed: for these log-normals
        // the share fell to ≈ 0.21 at 30 min; with constant periods it never mixed at all.
        let times: [SimTime] = [0, 30 * TimeUnit.minute, 2 * TimeUnit.hour, TimeUnit.day + 7 * TimeUnit.minute]
        let shares = Self.offlineShares(laws.model, at: times)
        let p = laws.offlineShare
        let se = (p * (1 - p) / Double(Self.users)).squareRoot()
        for (time, share) in zip(times, shares) {
            #expect(abs(share - p) < 4 * se, "\(laws.name) at \(time) µs: offline \(share), stationary \(p), SE \(se)")
        }
    }

    @Test("the first change comes after the equilibrium residual of the starting state's period",
          arguments: PeriodLaws.all)
    func firstChangeFollowsResidualLaw(_ laws: PeriodLaws) {
        // With constant periods the first change is uniform on (0, c]; a full-length first
        // period would put it at c for every user.
        var process = ConnectivityProcess(model: laws.model, firstWeekday: 0, horizon: 2 * TimeUnit.day)
        var fromOnline: [SimDuration] = [], fromOffline: [SimDuration] = []
        for user in 0..<Self.users {
            var rng = RandomStream.connectivity.generator(seed: 12, user: UInt64(user))
            let online = process.start(&rng)
            let first = process.nextChange(&rng)!
            #expect(first > 0)
            if online { fromOnline.append(first) } else { fromOffline.append(first) }
        }
        for (law, draws, label) in [(laws.online, fromOnline, "online"), (laws.offline, fromOffline, "offline")] {
            let mean = law.mean
            Self.expectMatchesCDF(draws, points: [0.1, 0.25, 0.5, 0.75, 1.5].map { $0 * mean },
                                  cdf: { Self.residualCDF(law, at: $0) }, "\(laws.name) \(label)")
            if case .constant(let value) = law { #expect(draws.allSatisfy { $0 <= value }) }
        }
    }

    @Test("residual draws follow P(L > x) / E[L]: the length-biased laws times a uniform fraction",
          arguments: PeriodLaws.all.flatMap { [$0.online, $0.offline] })
    func residualMatchesClosedForm(_ law: Distribution) {
        var rng = SplitMix64(seed: 21)
        let draws = (0..<Self.users).map { _ in law.equilibriumResidual(&rng) }
        Self.expectMatchesCDF(draws, points: [0.05, 0.2, 0.5, 1, 2, 4].map { $0 * law.mean },
                              cdf: { Self.residualCDF(law, at: $0) }, "\(law)")
        // E[R] = E[L²] / (2 E[L]); SE from E[R²] = E[L³] / (3 E[L]) (all finite here).
        let (second, third): (Double, Double) = switch law {
        case .constant(let c): (Double(c) * Double(c), pow(Double(c), 3))
        case .exponential(let m): (2 * Double(m) * Double(m), 6 * pow(Double(m), 3))
        case .uniform(let low, let high):
            ((pow(Double(high), 3) - pow(Double(low), 3)) / (3 * Double(high - low)),
             (pow(Double(high), 4) - pow(Double(low), 4)) / (4 * Double(high - low)))
        case .lognormal(let median, let sigma):
            (pow(Double(median), 2) * exp(2 * sigma * sigma), pow(Double(median), 3) * exp(4.5 * sigma * sigma))
        }
        let expectedMean = second / (2 * law.mean)
        let variance = third / (3 * law.mean) - expectedMean * expectedMean
        let se = (variance / Double(Self.users)).squareRoot()
        let measuredMean = draws.reduce(0.0) { $0 + Double($1) } / Double(Self.users)
        #expect(abs(measuredMean - expectedMean) < 4 * se,
                "\(law): mean residual \(measuredMean), exact \(expectedMean), SE \(se)")
    }

    @Test("exponential periods draw exactly as before: the state, then whole periods from one uniform each")
    func exponentialDrawsAreUnchanged() {
        let laws = PeriodLaws.all[2]
        guard case .exponential(let onMean) = laws.online, case .exponential(let offMean) = laws.offline else {
            Issue.record("law 2 is the exponential one")
            return
        }
        var process = ConnectivityProcess(model: laws.model, firstWeekday: 0, horizon: 2 * TimeUnit.day)
        for user in 0..<500 {
            var rng = RandomStream.connectivity.generator(seed: 13, user: UInt64(user))
            var reference = rng
            var changes: [SimTime] = []
            let online = process.start(&rng)
            while let change = process.nextChange(&rng), change < 2 * TimeUnit.day { changes.append(change) }
            // The draws before the stationary start existed, written out.
            func period(_ mean: SimDuration) -> SimDuration {
                SimDuration(min(-Double(mean) * log(reference.nextUnitInterval()) + 0.5, Double(Distribution.longestDraw)))
            }
            var state = reference.nextUnitInterval() * Double(onMean + offMean) <= Double(onMean)
            #expect(online == state)
            var expected: [SimTime] = []
            var time = period(state ? onMean : offMean)
            while time < 2 * TimeUnit.day {
                expected.append(time)
                state.toggle()
                time += period(state ? onMean : offMean)
            }
            #expect(changes == expected)
        }
        // The residual of an exponential is the draw `sample` makes, from the same uniform.
        var a = SplitMix64(seed: 5), b = SplitMix64(seed: 5)
        for _ in 0..<1000 { #expect(laws.online.equilibriumResidual(&a) == laws.online.sample(&b)) }
        #expect(a.next() == b.next())
    }

    @Test("after the first period, periods are drawn whole from the samplers, as before")
    func laterPeriodsAreSamplerDraws() throws {
        let laws = PeriodLaws.all[3]
        let online = Sampler(laws.online), offline = Sampler(laws.offline)
        var process = ConnectivityProcess(model: laws.model, firstWeekday: 0, horizon: 2 * TimeUnit.day)
        for user in 0..<200 {
            var rng = RandomStream.connectivity.generator(seed: 14, user: UInt64(user))
            var reference = rng
            var state = process.start(&rng)
            #expect(state == (reference.nextUnitInterval() * (laws.online.mean + laws.offline.mean) <= laws.online.mean))
            var time = (state ? laws.online : laws.offline).equilibriumResidual(&reference)
            for _ in 0..<20 {
                // One mismatch shifts every later change: stop at the first.
                try #require(process.nextChange(&rng) == time)
                state.toggle()
                time += (state ? online : offline).sample(&reference)
            }
        }
    }

    @Test("with apns-expiration 0 the loss over a 2-hour run is the stationary offline share (PASTA)",
          arguments: PeriodLaws.all)
    func zeroExpirationLossIsStationaryShare(_ laws: PeriodLaws) throws {
        // A full first period made this 0.125 for the constant laws (the online users stay
        // online for 3 h) and ≈ 0.24 for the log-normals, against 0.25 and 0.318.
        let devices = 10_000
        let scenario = WorldFixtures.scenario("""
        { "name": "stationary-\(laws.name)", "seed": 3, "start": "2026-01-05", "duration": "2h",
          "devices": \(devices), "mail": { "perDay": 48 },
          "connectivity": { "online": \(laws.onlineJSON), "offline": \(laws.offlineJSON) },
          "apns": { "expiration": 0 },
          "strategies": [{ "name": "no-queue" }] }
        """)
        let result = try Simulation.run(scenario, threads: 2)["no-queue"]
        let measured = Double(result.lost(.apnsExpired)) / Double(result[.messages])
        // Loss ratio ΣY / ΣN, Y the mails a user gets while offline: with D the offline share of
        // a user's 2 h (mean p) and λT = 4 mails per user, Var(Y − pN) = λT·p(1 − p) + (λT)²·Var D
        // ≤ (λT + (λT)²)·p(1 − p) (D in [0, 1]), so SE ≤ √(p(1 − p)(1 + 1/λT) / users) ≈ 0.005.
        let p = laws.offlineShare, lambdaT = 4.0
        let se = (p * (1 - p) * (1 + 1 / lambdaT) / Double(devices)).squareRoot()
        #expect(abs(measured - p) < 4 * se, "\(laws.name): lost \(measured), offline share \(p), SE ≤ \(se)")
        #expect(result.lost == result.lost(.apnsExpired))
    }

    @Test("docs/model.md describes the start as the code draws it: the first period from the equilibrium residual, not whole")
    func modelDocumentSaysResidual() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let model = try String(contentsOf: root.appendingPathComponent("docs/model.md"), encoding: .utf8)
        let section = try #require(model.components(separatedBy: "### Connectivity").dropFirst().first?
            .components(separatedBy: "\n### ").first)
        let prose = section.replacingOccurrences(of: "\n", with: " ")
        #expect(prose.contains("equilibrium residual"))
        #expect(!prose.contains("first period drawn whole"))
        #expect(prose.contains("Later periods are drawn whole"))
    }
}
