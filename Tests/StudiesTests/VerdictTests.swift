@testable import Base
import Foundation
@testable import Simulator
@testable import Studies
import Testing

/// Verdicts and changes are pure functions of estimates: these build the estimates by
/// hand (the standard errors are given, not estimated), so each case is exact up to
/// floating-point rounding (tolerance 1e-12 where a value is compared).
@Suite("Expectation verdicts and changes between runs")
struct VerdictTests {
    @Test("atLeast holds only when the whole interval is at or above the bound, not only the value")
    func atLeastUsesTheLowerEnd() {
        let expectation = Expectation(metric: .deliverability, strategy: "queue", atLeast: 0.85)
        // 0.90 ± 1.96 × 0.01 = 0.8804 … 0.9196: above 0.85.
        #expect(Verdict(expectation, estimate: Estimate(value: 0.90, standardError: 0.01)).holds)
        // 0.90 ± 1.96 × 0.03 = 0.8412 … 0.9588: the value is above, the lower end is not.
        let noisy = Verdict(expectation, estimate: Estimate(value: 0.90, standardError: 0.03))
        #expect(!noisy.holds)
        #expect(noisy.failureMessage == "deliverability of queue is 0.9000, 95% interval 0.8412 … 0.9588: its lower end is below 0.85")
        // A bound met exactly holds.
        #expect(Verdict(expectation, estimate: Estimate(value: 0.85, standardError: 0)).holds)
    }

    @Test("a rate without a value (nothing to divide by) meets no bound, atMost included, and says so")
    func noValueFails() {
        let atMost = Verdict(Expectation(metric: .measuredDeliverability, strategy: "queue", atMost: 0.5),
                             estimate: Estimate(value: .nan, standardError: .nan))
        #expect(!atMost.holds && atMost.interval == nil)
        #expect(atMost.failureMessage == "measured_deliverability of queue has no value: nothing to divide by (no messages, or nothing measured)")
        #expect(!Verdict(Expectation(metric: .measuredDeliverability, strategy: "queue", atLeast: 0),
                         estimate: Estimate(value: .nan, standardError: .nan)).holds)
    }

    @Test("atMost holds only when the interval's upper end is at or below the bound; both bounds must hold")
    func atMostUsesTheUpperEnd() {
        let cost = Expectation(metric: .pushesPerMessage, strategy: "queue", atMost: 1.2)
        #expect(Verdict(cost, estimate: Estimate(value: 1.15, standardError: 0.02)).holds)   // upper 1.1892
        let over = Verdict(cost, estimate: Estimate(value: 1.15, standardError: 0.03))        // upper 1.2088
        #expect(!over.holds)
        #expect(over.failureMessage?.hasSuffix("its upper end is above 1.2") == true)

        let band = Expectation(metric: .pushesPerMessage, strategy: "no-queue", atLeast: 0.99, atMost: 1.01)
        #expect(Verdict(band, estimate: Estimate(value: 1, standardError: 0)).holds)
        let wide = Verdict(band, estimate: Estimate(value: 1, standardError: 0.01))
        #expect(!wide.holds)
        #expect(wide.failureMessage?.hasSuffix("its lower end is below 0.99 and its upper end is above 1.01") == true)
    }

    @Test("a higher confidence widens the interval and can turn a verdict")
    func confidenceWidens() throws {
        let estimate = Estimate(value: 0.90, standardError: 0.02)
        let at95 = Verdict(Expectation(metric: .deliverability, strategy: "q", atLeast: 0.86), estimate: estimate)
        let at99 = Verdict(Expectation(metric: .deliverability, strategy: "q", atLeast: 0.86, confidence: 0.99), estimate: estimate)
        #expect(at95.holds)    // lower end 0.90 − 1.960 × 0.02 = 0.8608
        #expect(!at99.holds)   // lower end 0.90 − 2.576 × 0.02 = 0.8485
        let interval = try #require(at99.interval)
        #expect(abs(interval.lowerBound - (0.90 - 2.5758293035489 * 0.02)) < 1e-9)
    }

    @Test("an unknown standard error (NaN) gives no interval: the bound is judged on the value, and says so")
    func unknownStandardError() {
        let expectation = Expectation(metric: .deliverability, strategy: "queue", minus: "no-queue", atLeast: 0.03)
        let holds = Verdict(expectation, estimate: Estimate(value: 0.05, standardError: .nan))
        #expect(holds.holds && holds.interval == nil && holds.failureMessage == nil)
        let fails = Verdict(expectation, estimate: Estimate(value: 0.02, standardError: .nan))
        #expect(!fails.holds)
        #expect(fails.failureMessage
                == "deliverability of queue − no-queue is 0.0200 (standard error unknown: judged on the value alone): it is below 0.03")
    }

    @Test("diff: a move within what two runs' noise explains is noise; a larger one, with smaller errors, is a change")
    func changeAgainstNoise() throws {
        // √(0.005² + 0.005²) = 0.00707; 0.01 / 0.00707 = 1.41 < 1.96: noise.
        let noise = Change(old: Estimate(value: 0.90, standardError: 0.005), new: Estimate(value: 0.91, standardError: 0.005),
                           confidence: 0.95)
        #expect(noise.beyondNoise == false)
        #expect(abs(noise.difference.value - 0.01) < 1e-12)
        #expect(abs(noise.difference.standardError - (0.00005).squareRoot()) < 1e-12)
        // √(0.002² + 0.002²) = 0.00283; 0.01 / 0.00283 = 3.5: a change, and a drop is one too.
        let real = Change(old: Estimate(value: 0.90, standardError: 0.002), new: Estimate(value: 0.91, standardError: 0.002),
                          confidence: 0.95)
        #expect(real.beyondNoise == true)
        let drop = Change(old: Estimate(value: 0.91, standardError: 0.002), new: Estimate(value: 0.90, standardError: 0.002),
                          confidence: 0.95)
        #expect(drop.beyondNoise == true && drop.difference.value < 0)
        // At 99.99% (z = 3.89) the same 3.5 standard errors are noise.
        #expect(Change(old: real.old, new: real.new, confidence: 0.9999).beyondNoise == false)
        // No standard error: not judged.
        let unknown = Change(old: Estimate(value: 0.5, standardError: .nan), new: Estimate(value: 0.9, standardError: 0.01),
                             confidence: 0.95)
        #expect(unknown.beyondNoise == nil && unknown.interval == nil)
    }

    @Test("SHA-256 matches the FIPS 180-2 test vectors")
    func sha256Vectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the length no longer fits in the block, the padding takes a second one.
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("JUnit text escapes markup, quotes and line ends in attributes, and replaces characters XML cannot hold")
    func junitEscaping() {
        #expect(JUnitReport.attribute("a<b & \"c\"\nd") == "\"a&lt;b &amp; &quot;c&quot;&#10;d\"")
        #expect(JUnitReport.escaped("x\u{1}y\n") == "x\u{FFFD}y\n")
        #expect(JUnitReport.decimal(1.2345) == "1.235")
    }
}
