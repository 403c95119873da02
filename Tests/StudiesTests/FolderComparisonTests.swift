@testable import CLI
import Foundation
@testable import Simulator
@testable import Studies
import TestSupport
import Testing

/// `diff` judges its rates together: Holm's step-down adjustment, against values
/// worked by hand, and the false alarms it exists to stop.
@Suite("Many rates compared at once")
struct FolderComparisonTests {
    /// Rows of changes with these two-sided p-values (normal: value = z, SE = 1).
    static func rows(_ pValues: [Double]) -> [(label: String, changes: [(metric: Metric, change: Change)])] {
        [("queue", pValues.map { p in
            let z = normalQuantile(1 - p / 2)
            return (.deliverability, Change(old: Estimate(value: 0, standardError: 0.5.squareRoot()),
                                            new: Estimate(value: z, standardError: 0.5.squareRoot()), confidence: 0.95))
        })]
    }

    @Test("a change's p-value is the two-sided tail: 1.96 standard errors is p = 0.05, with t degrees of freedom a little more")
    func pValueIsTheTwoSidedTail() throws {
        let normal = Change(old: Estimate(value: 0.5, standardError: 0.006), new: Estimate(value: 0.5 + 0.0196, standardError: 0.008),
                            confidence: 0.95)
        #expect(abs(try #require(normal.pValue) - 0.05) < 1e-4)
        // Both sides with 63 degrees of freedom and equal errors: Welch gives 126; t(126) at 1.96 is p ≈ 0.0522.
        let t = Change(old: Estimate(value: 0.5, standardError: 0.01, degreesOfFreedom: 63),
                       new: Estimate(value: 0.5 + 1.96 * 0.0002.squareRoot(), standardError: 0.01, degreesOfFreedom: 63),
                       confidence: 0.95)
        #expect(t.difference.degreesOfFreedom == 126)
        #expect(abs(try #require(t.pValue) - 0.0522) < 5e-4)
        // The same certain value on both sides is no test; a different one is a sure change.
        #expect(Change(old: Estimate(value: 0, standardError: 0), new: Estimate(value: 0, standardError: 0), confidence: 0.95).pValue == nil)
        #expect(Change(old: Estimate(value: 0, standardError: 0), new: Estimate(value: 0.1, standardError: 0), confidence: 0.95).pValue == 0)
    }

    @Test("Holm: sorted p-values times m − i, made monotone; only those at most 1 − confidence are changes")
    func holmMatchesTheHandWorkedValues() throws {
        // p = 0.01, 0.02, 0.03, 0.5 (m = 4): 0.04, max(0.04, 0.06), max(0.06, 0.06), max(0.06, 0.5).
        var rows = Self.rows([0.03, 0.5, 0.01, 0.02])
        FolderComparison.adjustByHolm(&rows, confidence: 0.95)
        let adjusted = rows[0].changes.map { $0.change.adjustedPValue ?? .nan }
        for (value, expected) in zip(adjusted, [0.06, 0.5, 0.04, 0.06]) { #expect(abs(value - expected) < 1e-6) }
        #expect(rows[0].changes.map { $0.change.beyondNoise } == [false, false, true, false])
    }

    @Test("twenty rates each at p = 0.01 are each a change alone, and none together")
    func manyModestMovesAreNoiseTogether() {
        var rows = Self.rows(Array(repeating: 0.01, count: 20))
        #expect(rows[0].changes.allSatisfy { $0.change.beyondNoise == true })
        FolderComparison.adjustByHolm(&rows, confidence: 0.95)
        #expect(rows[0].changes.allSatisfy { $0.change.beyondNoise == false && abs(($0.change.adjustedPValue ?? 0) - 0.2) < 1e-6 })
        // One strong move among them stays a change.
        var mixed = Self.rows(Array(repeating: 0.5, count: 19) + [1e-6])
        FolderComparison.adjustByHolm(&mixed, confidence: 0.95)
        #expect(mixed[0].changes.map { $0.change.beyondNoise == true } == Array(repeating: false, count: 19) + [true])
    }

    @Test("two seeds of provider-outage.json: no rate moves beyond noise (the outages' spread is in the errors, the rates judged together)")
    func twoSeedsOfOneScenarioAreNoise() throws {
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios/provider-outage.json").path
        for seed in ["1", "2"] {
            let run = CapturedConsole.run(["run", scenario, "--seed", seed, "--strategy", "no-queue", "--out", scratch.file(seed), "--quiet"])
            #expect(run.code == .success, "\(run.err)")
        }
        let diff = CapturedConsole.run(["diff", scratch.file("1"), scratch.file("2")])
        #expect(diff.code == .success, "\(diff.out)")
        #expect(diff.out.hasSuffix("no rate moved beyond noise (Holm, 5 rates tested at 95%)\n"))
    }
}
