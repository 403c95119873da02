import Foundation
@testable import Simulator
import TestSupport
import Testing

/// Whole simulations against closed forms.
///
/// Setting: Poisson mail at rate λ, online periods Exp(mean a), offline periods
/// Exp(mean b), no latency. Arrivals in one offline period: N is geometric,
/// P(N = n) = p·qⁿ with q = λb / (1 + λb), p = 1 − q (an Exp(b) period and a
/// Poisson clock race). Offline periods start at rate 1 / (a + b).
@Suite("Theory")
struct TheoryTests {
    // λ = 2/h, a = 3 h, b = 1 h: λb = 2, q = 2/3.
    let lambdaPerHour = 2.0, a = 3.0, b = 1.0
    var q: Double { lambdaPerHour * b / (1 + lambdaPerHour * b) }
    var p: Double { 1 - q }
    /// Offline periods per mail: (1 / (a + b)) / λ.
    var periodsPerMessage: Double { 1 / ((a + b) * lambdaPerHour) }

    /// Standard error of a ratio Σ Y / messages where Y is a per-offline-period
    /// count: sqrt(periods · Var Y) / messages (period-count variance is second
    /// order here and folded into the 4-SE tolerance).
    func standardError(messages: Int64, perPeriod y: (Int) -> Double) -> Double {
        var mean = 0.0, square = 0.0
        for n in 0..<400 {
            let probability = p * pow(q, Double(n))
            mean += probability * y(n)
            square += probability * y(n) * y(n)
        }
        let periods = Double(messages) * periodsPerMessage
        return (periods * (square - mean * mean)).squareRoot() / Double(messages)
    }

    @Test("no-queue loses the fraction λb² / ((a+b)(1+λb)) of mail to APNs coalescing")
    func noQueueLossMatchesClosedForm() throws {
        // Each offline period loses all but the last of its N arrivals: E[(N−1)⁺] = (λb)² / (1 + λb).
        let scenario = WorldFixtures.twoStates(perDay: 48, onMean: "3h", offMean: "1h", devices: 400, days: 28,
                                               strategies: #"{ "name": "no-queue" }"#)
        let result = try Simulation.run(scenario, threads: 2)["no-queue"]
        let expected = lambdaPerHour * b * b / ((a + b) * (1 + lambdaPerHour * b))   // 1/6
        let measured = Double(result.lost(.apnsCoalesced)) / Double(result[.messages])
        // ≈ 540k mails, ≈ 67k offline periods: SE ≈ 0.0012.
        let se = standardError(messages: result[.messages]) { Double(max($0 - 1, 0)) }
        #expect(abs(measured - expected) < 4 * se, "measured \(measured), closed form \(expected), SE \(se)")
        #expect(result.lost == result.lost(.apnsCoalesced))
        #expect(result[.summarized] == 0 && result.rerequests == 0)
    }

    @Test("queue summarises exactly the offline periods with more than repeatMaxCount + 1 arrivals")
    func queueSummaryMatchesClosedForm() throws {
        // With no latency and no TTL every smaller gap is re-sent and delivered; a period with
        // N ≥ R + 2 arrivals (missed = N − 1 > R) is summarised whole: E[N·1{N ≥ R+2}] = q^(R+2)·(R + 2 + q/p).
        let repeatMaxCount = 5
        let scenario = WorldFixtures.twoStates(perDay: 48, onMean: "3h", offMean: "1h", devices: 400, days: 28,
                                               strategies: #"{ "name": "queue", "repeatMaxCount": 5 }"#)
        let result = try Simulation.run(scenario, threads: 2)["queue"]
        let k = Double(repeatMaxCount + 2)
        let expected = pow(q, k) * (k + q / p) * periodsPerMessage               // ≈ 0.0658
        let measured = Double(result[.summarized]) / Double(result[.messages])
        let se = standardError(messages: result[.messages]) { $0 >= repeatMaxCount + 2 ? Double($0) : 0 }
        #expect(abs(measured - expected) < 4 * se, "measured \(measured), closed form \(expected), SE \(se)")
        // What is neither delivered nor summarised is lost before a device's first push (nothing to
        // compare a position with yet) or pending at the end: a few per device at most.
        #expect(result[.messages] - result[.delivered] - result[.summarized] < Int64(scenario.devices) * 3)
    }

    @Test("apns-expiration 0 loses the mail that arrives while offline: the offline share b/(a+b)")
    func zeroExpirationLosesOfflineShare() throws {
        // Poisson arrivals see time averages (PASTA): P(offline) = b / (a + b) = 1/4.
        let scenario = WorldFixtures.twoStates(perDay: 48, onMean: "3h", offMean: "1h", devices: 200, days: 28,
                                               extra: #""apns": { "expiration": 0 },"#,
                                               strategies: #"{ "name": "no-queue" }"#)
        let result = try Simulation.run(scenario, threads: 2)["no-queue"]
        let measured = Double(result.lost(.apnsExpired)) / Double(result[.messages])
        // Lost per period is N (all of them): SE ≈ 0.002 at ≈ 270k mails.
        let se = standardError(messages: result[.messages]) { Double($0) }
        #expect(abs(measured - 0.25) < 4 * se, "measured \(measured), SE \(se)")
        #expect(result.lost(.apnsCoalesced) == 0)
    }

    @Test("Poisson mail with diurnal weights and a weekend factor arrives at the integrated rate")
    func mailCountMatchesIntegratedRate() throws {
        // 14 days from a Monday: 10 weekdays at 30/day, 4 weekend days at 30 × 0.5. The diurnal
        // shape moves mail within a day, not its daily total. Count is Poisson: SE = √mean.
        let weights = (0..<24).map { $0 < 8 ? "0.2" : $0 < 20 ? "2" : "1" }.joined(separator: ",")
        let scenario = WorldFixtures.scenario("""
        { "name": "mail", "seed": 3, "start": "2026-01-05", "duration": "14d", "devices": 300,
          "mail": { "perDay": 30, "weekendFactor": 0.5, "diurnal": [\(weights)] },
          "strategies": [{ "name": "no-queue" }] }
        """)
        let result = try Simulation.run(scenario, threads: 2)["no-queue"]
        let expected = 300.0 * (10 * 30 + 4 * 15)
        #expect(abs(Double(result[.messages]) - expected) < 4 * expected.squareRoot())
        // Always online, no latency: everything is delivered at once.
        #expect(result[.delivered] == result[.messages])
        #expect(result.latency.quantile(0.99) == 0)
        // Saturday (day 5) gets half a weekday's mail: ratio within 4 SE of 0.5 (SE ≈ 0.013).
        let saturday = Double(result.daily[5][.messages]), friday = Double(result.daily[4][.messages])
        #expect(abs(saturday / friday - 0.5) < 0.06)
    }

    @Test("a re-request's answer is missed offline with probability α/(α+β)·(1 − e^(−(α+β)T)), and its push is summarized")
    func rerequestAnswersMissedOffline() throws {
        // Exponential on/off periods (rates α = 1/E[on], β = 1/E[off]): a re-request leaves at a
        // reconnect (the stored push arrives then), so the device is online at t and, being
        // memoryless, offline at t + T with the two-state chain's transition probability. T is the
        // whole round trip (20 s, under the extension's 30 s limit); with no TTL every answer is ok.
        let scenario = WorldFixtures.twoStates(perDay: 300, onMean: "10m", offMean: "10m", devices: 200, days: 3,
                                               extra: #""latency": { "rerequestRoundTrip": "20s" },"#,
                                               strategies: #"{ "name": "queue", "repeatMaxCount": 1000 }"#)
        let result = try Simulation.run(scenario, threads: 2)["queue"]
        let alpha = 1.0 / 600, beta = 1.0 / 600, roundTrip = 20.0
        let expected = alpha / (alpha + beta) * (1 - exp(-(alpha + beta) * roundTrip))     // ≈ 0.0323
        let missed = Double(result.chain[.rerequestAnswersMissed])
        let rerequests = Double(result.rerequests)
        // One re-request per reconnect at most, reconnects independent: binomial, SE = √(p(1−p)/N) ≈ 0.0013.
        let se = (expected * (1 - expected) / rerequests).squareRoot()
        #expect(rerequests > 10_000, "enough re-requests for the stated SE")
        #expect(abs(missed / rerequests - expected) < 4 * se,
                "missed \(missed) of \(rerequests) = \(missed / rerequests), closed form \(expected), SE \(se)")
        // A missed answer shows the summary: nothing else summarizes here (repeatMaxCount is never reached).
        #expect(result[.summarized] >= result.chain[.rerequestAnswersMissed])
        #expect(result.chain[.rerequestErrors] == 0)
    }
}
