@testable import Base
@testable import CLI
import Foundation
@testable import Studies
import TestSupport
import Testing

/// `pushsim diff` on report folders built by hand: the standard errors are written in
/// the files, so whether a move is noise is known exactly (the unpaired SE is
/// √(se_old² + se_new²), the 95% threshold 1.96 of them).
@Suite("pushsim diff")
struct DiffCommandTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// Runs the CLI in-process.
    private func pushsim(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        CapturedConsole.run(arguments)
    }

    /// A `run.json` of scenario `name` whose text hashes to `sha256`.
    static func record(name: String = "gate", sha256: String = String(repeating: "a", count: 64)) -> String {
        """
        {
          "format": "pushsim-run",
          "pushsim": "0.7.0",
          "scenario": {"name":"\(name)","sha256":"\(sha256)"},
          "seed": 1,
          "strategies": ["no-queue","queue"],
          "devices": 1000,
          "start": "2026-01-05",
          "end": "2026-01-18",
          "commandLine": ["pushsim","run","gate.json"],
          "parts": []
        }

        """
    }

    /// A folder holding `summary` (and `record` unless nil).
    static func folder(_ scratch: Scratch, _ name: String, summary: String, record: String? = Self.record()) throws -> String {
        let path = scratch.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = try scratch.write(name + "/summary.csv", summary)
        if let record { _ = try scratch.write(name + "/run.json", record) }
        return path
    }

    /// A summary with standard errors: queue's deliverability and its SE given, the rest fixed.
    /// Columns out of the usual order and an unrelated one: they are found by name.
    static func summary(queueDeliverability: String, se: String) -> String {
        """
        strategy,messages,deliverability_se,deliverability,pushes_per_message,pushes_per_message_se
        no-queue,1000,0.004,0.830000,1.0000,0
        queue,1000,\(se),\(queueDeliverability),1.1000,0.002

        """
    }

    @Test("a move sampling noise explains is not flagged (exit 0); the same move with smaller errors is (exit 2)")
    func noiseAgainstChange() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 0.93 → 0.94 with SE 0.005 each: √2 × 0.005 = 0.00707, 1.41 SE: noise.
        let old = try Self.folder(scratch, "old", summary: Self.summary(queueDeliverability: "0.930000", se: "0.005"))
        let noisy = try Self.folder(scratch, "noisy", summary: Self.summary(queueDeliverability: "0.940000", se: "0.005"))
        let quiet = pushsim(["diff", old, noisy])
        #expect(quiet.code == .success, "\(quiet.err)")
        #expect(quiet.err.isEmpty)
        let queueLine = try #require(quiet.out.split(separator: "\n").first { $0.hasPrefix("queue     deliverability ") })
        #expect(queueLine.hasSuffix("noise"))
        #expect(queueLine.contains("0.9300  0.9400  +0.0100"))
        #expect(quiet.out.hasSuffix("no rate moved beyond noise (Holm, 3 rates tested at 95%)\n"))

        // 0.93 (SE 0.001) → 0.94 (SE 0.001): 7 SE: a change.
        let before = try Self.folder(scratch, "before", summary: Self.summary(queueDeliverability: "0.930000", se: "0.001"))
        let after = try Self.folder(scratch, "after", summary: Self.summary(queueDeliverability: "0.940000", se: "0.001"))
        let changed = pushsim(["diff", before, after])
        #expect(changed.code == .failedCheck)
        let line = try #require(changed.out.split(separator: "\n").first { $0.hasPrefix("queue     deliverability ") })
        #expect(line.hasSuffix("CHANGED"))
        #expect(changed.out.hasSuffix("1 rate moved beyond noise (Holm, 3 rates tested at 95%)\n"))
        // Nothing else moved: no-queue's rows are noise (identical values).
        #expect(changed.out.split(separator: "\n").filter { $0.hasSuffix("CHANGED") }.count == 1)
        // At 99.9999% (z ≈ 4.9) seven SE are still a change; at a confidence that needs more, not.
        #expect(pushsim(["diff", before, after, "--confidence", "0.999999"]).code == .failedCheck)
        #expect(pushsim(["diff", old, noisy, "--confidence", "0.5"]).code == .failedCheck)   // z = 0.67 < 1.41
    }

    @Test("diff refuses folders of different scenario texts (exit 65) unless --force")
    func differentScenarios() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let summary = Self.summary(queueDeliverability: "0.930000", se: "0.005")
        let old = try Self.folder(scratch, "old", summary: summary)
        let other = try Self.folder(scratch, "other", summary: summary,
                                    record: Self.record(name: "gate", sha256: String(repeating: "b", count: 64)))
        let refused = pushsim(["diff", old, other])
        #expect(refused.code == .dataError)
        #expect(refused.err.hasPrefix("error: the folders ran different scenarios: \(old) ran gate (sha256 aaaaaaaaaaaa…), "
                                      + "\(other) ran gate (sha256 bbbbbbbbbbbb…) ('--force' compares anyway)"))
        #expect(refused.out.isEmpty)
        #expect(pushsim(["diff", old, other, "--force"]).code == .success)
    }

    @Test("a folder without run.json is refused unless --force; one without standard errors is shown, not judged")
    func olderFolders() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let current = try Self.folder(scratch, "current", summary: Self.summary(queueDeliverability: "0.930000", se: "0.001"))
        let older = try Self.folder(scratch, "older", summary: """
            strategy,messages,deliverability,pushes_per_message
            no-queue,1000,0.830000,1.0000
            queue,1000,0.990000,1.1000

            """, record: nil)
        let refused = pushsim(["diff", older, current])
        #expect(refused.code == .dataError)
        #expect(refused.err.hasPrefix("error: \(older): no run.json: a report folder from a pushsim before 0.7.0"))
        let forced = pushsim(["diff", older, current, "--force"])
        #expect(forced.code == .success)
        #expect(forced.err == "note: \(older)/summary.csv has no standard errors (a folder from an older pushsim): "
                + "its changes are shown, not judged against noise\n")
        #expect(forced.out.contains("unknown (no standard error)"))
        #expect(!forced.out.contains("CHANGED"))
    }

    @Test("diff --format json has the documented keys; strategies only in one folder are listed")
    func diffJSON() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try Self.folder(scratch, "old", summary: Self.summary(queueDeliverability: "0.930000", se: "0.001"))
        let new = try Self.folder(scratch, "new", summary: Self.summary(queueDeliverability: "0.940000", se: "0.001")
                                  + "queue-as-published,1000,0.001,0.9,1.1,0.002\n")
        let result = pushsim(["diff", old, new, "--format", "json"])
        #expect(result.code == .failedCheck)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["old", "new", "sameScenario", "confidence", "correction", "changed", "strategies",
                                     "onlyOld", "onlyNew"])
        #expect(object["correction"] as? String == "holm")
        #expect(object["sameScenario"] as? Bool == true)
        #expect(object["changed"] as? Bool == true)
        #expect(object["onlyNew"] as? [String] == ["queue-as-published"])
        let side = try #require(object["old"] as? [String: Any])
        #expect(Set(side.keys) == ["folder", "pushsim", "scenario", "sha256", "seed", "standardErrors"])
        #expect(side["standardErrors"] as? Bool == true)
        let strategies = try #require(object["strategies"] as? [[String: Any]])
        #expect(strategies.map { $0["label"] as? String } == ["no-queue", "queue"])
        let metrics = try #require(strategies[1]["metrics"] as? [String: [String: Any]])
        #expect(Set(metrics.keys) == ["deliverability", "pushes_per_message"])
        let deliverability = try #require(metrics["deliverability"])
        #expect(Set(deliverability.keys) == ["old", "oldSE", "new", "newSE", "difference", "se", "interval", "p", "pAdjusted",
                                             "beyondNoise"])
        // 0.01 / √0.000002 = 7.07 standard errors: p is tiny, and Holm multiplies it by at most the 3 rates tested.
        let p = try #require(deliverability["p"] as? Double), adjusted = try #require(deliverability["pAdjusted"] as? Double)
        #expect(p < 1e-8 && adjusted >= p && adjusted <= 3 * p)
        #expect(deliverability["beyondNoise"] as? Bool == true)
        #expect(abs((deliverability["difference"] as? Double ?? 0) - 0.01) < 1e-12)
        #expect(abs((deliverability["se"] as? Double ?? 0) - (0.000002).squareRoot()) < 1e-12)
    }

    @Test("diff of two runs of one scenario reads their folders: same scenario, the same rates")
    func diffOfRealRuns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let scenario = try scratch.write("tiny.json", CommandFixtures.tiny)
        let first = scratch.file("first"), second = scratch.file("second")
        #expect(pushsim(["run", scenario, "--out", first]).code == .success)
        #expect(pushsim(["run", scenario, "--out", second, "--threads", "1"]).code == .success)
        let result = pushsim(["diff", first, second, "--format", "json", "--quiet"])
        #expect(result.code == .success && result.out.isEmpty)
        let shown = pushsim(["diff", first, second, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
        #expect(object["sameScenario"] as? Bool == true)
        #expect(object["changed"] as? Bool == false)
        let strategies = try #require(object["strategies"] as? [[String: Any]])
        #expect(strategies.count == 3)
        for strategy in strategies {
            let metrics = try #require(strategy["metrics"] as? [String: [String: Any]])
            #expect(metrics["deliverability"]?["difference"] as? Double == 0)
        }
    }

    @Test("diff usage: two folders needed, --confidence above 0 and at most 0.999999, a missing folder exits 65")
    func diffUsage() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(pushsim(["diff", scratch.path]).code == .usage)
        #expect(pushsim(["diff", scratch.path, scratch.path, scratch.path]).code == .usage)
        let badConfidence = pushsim(["diff", scratch.path, scratch.path, "--confidence", "1"])
        #expect(badConfidence.code == .usage)
        #expect(badConfidence.err.hasPrefix("error: invalid value '1' for '--confidence'"))
        let missing = pushsim(["diff", scratch.file("nope"), scratch.path])
        #expect(missing.code == .dataError)
        #expect(missing.err == "error: \(scratch.file("nope")): no such folder\n")
    }

    @Test("a loss share that is 0 in both runs is left out of the table and counted; one that moved is shown")
    func zeroLossSharesHidden() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func summary(_ coalesced: String) -> String {
            """
            strategy,deliverability,deliverability_se,lost_apns_coalesced_share,lost_apns_coalesced_share_se,\
            lost_disabled_share,lost_disabled_share_se
            no-queue,0.830000,0.004,\(coalesced),0.001,0.000000,0.000000
            queue,0.930000,0.004,0.000000,0.000000,0.000000,0.000000

            """
        }
        let old = try Self.folder(scratch, "old", summary: summary("0.000000"))
        let new = try Self.folder(scratch, "new", summary: summary("0.002000"))
        let result = pushsim(["diff", old, new])
        let lines = result.out.split(separator: "\n").dropFirst().filter { $0.hasSuffix("  noise") || $0.hasSuffix("  CHANGED") }
        let rates: [String] = lines.map { line in
            let words = line.split(separator: " ")
            return String(words[0]) + " " + String(words[1])
        }
        #expect(rates == ["no-queue deliverability", "no-queue lost_apns_coalesced_share", "queue deliverability"])
        #expect(result.out.contains("\n(3 loss shares 0 in both runs not shown)\n"))
    }
}
