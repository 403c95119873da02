@testable import Base
@testable import CLI
import Foundation
@testable import Simulator
@testable import Studies
import TestSupport
import Testing

/// Numbers `diff` reads back from a report folder: a cell pushsim could not have written
/// (NaN, infinities, exponents, signs, a value past any ratio of counts) is refused with
/// one line, and the largest it could have written compares without a trap.
@Suite("Report folders: every number read back is safe")
struct ReportFolderNumbersTests {
    typealias Scratch = CommandFixtures.ScratchDirectory

    /// A summary whose queue deliverability and its standard error are `value` and `se`.
    static func summary(value: String, se: String = "0.004") -> String {
        DiffCommandTests.summary(queueDeliverability: value, se: se)
    }

    @Test("diff refuses a summary.csv cell pushsim never writes (nan, inf, 1e308, -0, a negative SE, past 2^63) with one line, exit 65",
          arguments: [("nan", "0.004"), ("-nan", "0.004"), ("inf", "0.004"), ("-inf", "0.004"), ("1e308", "0.004"),
                      ("-0", "0.004"), ("0x1p3", "0.004"), (" 0.5", "0.004"), ("0.93", "-0.004"), ("0.93", "nan"),
                      ("0.93", "inf"), ("99999999999999999999", "0.004"),
                      (String(repeating: "9", count: 400), "0.004"), ("0.93", "1e-3")])
    func damagedCellRefused(value: String, se: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try DiffCommandTests.folder(scratch, "old", summary: Self.summary(value: "0.930000"))
        let new = try DiffCommandTests.folder(scratch, "new", summary: Self.summary(value: value, se: se))
        let result = CapturedConsole.run(["diff", old, new])
        #expect(result.code == .dataError)
        let column = value == "0.930000" || value == "0.93" ? "deliverability_se" : "deliverability"
        #expect(result.err.hasPrefix("error: \(new)/summary.csv:3: \(column) is not a rate pushsim writes"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(result.err.count < 400)
        #expect(result.out.isEmpty)
    }

    @Test("diff compares the largest rates a summary can hold (9.2e14, 1e15, 2^63) without a trap")
    func hugeRatesCompare() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for value in ["920000000000000", "1000000000000000.000000", "9223372036854775808"] {
            let old = try DiffCommandTests.folder(scratch, "old-" + value.prefix(4), summary: Self.summary(value: "0.930000"))
            let new = try DiffCommandTests.folder(scratch, "new-" + value.prefix(4), summary: Self.summary(value: value, se: value))
            let table = CapturedConsole.run(["diff", old, new])
            #expect(table.code == .success || table.code == .failedCheck, "\(value)")
            #expect(table.out.contains("queue     deliverability"), "\(value)")
            let json = CapturedConsole.run(["diff", old, new, "--format", "json"])
            #expect(json.code == table.code, "\(value)")
            #expect((try? JSONParser.parse(Array(json.out.utf8))) != nil, "\(value)")
        }
    }

    @Test("a rate cell is plain digits with an optional point, at most 2^63; empty is no value")
    func rateCells() {
        #expect(ReportFolder.rate("0.830000") == 0.83)
        #expect(ReportFolder.rate("12") == 12)
        #expect(ReportFolder.rate("")?.isNaN == true)
        #expect(ReportFolder.rate("9223372036854775808") == 0x1p63)
        for bad in ["nan", "NaN", "inf", "infinity", "-1", "-0", "+1", "1e3", "1.", ".5", "1.2.3", "0x10", " 1", "1 ",
                    "9223372036854777856", String(repeating: "1", count: 400)] {
            #expect(ReportFolder.rate(bad) == nil, "\(bad)")
        }
    }

    @Test("a table number is written for any finite value, huge ones included, and – for none")
    func tableNumbers() {
        #expect(Verdict.number(0.83) == "0.8300")
        #expect(Verdict.number(920_000_000_000_000) == "920000000000000.0000")
        #expect(Verdict.number(1e15) == "1000000000000000.0")
        #expect(Verdict.number(-1e300) == "-1e+300")
        #expect(Verdict.number(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
        #expect(Verdict.number(.nan) == "–")
        #expect(Verdict.number(-.infinity) == "–")
    }

    @Test("a change between values whose interval would overflow or be NaN has no interval, never a trap")
    func changesWithoutInterval() {
        let cases: [(Estimate, Estimate)] = [
            (Estimate(value: .nan, standardError: 0.01), Estimate(value: 0.9, standardError: 0.01)),
            (Estimate(value: 1e308, standardError: 1e308), Estimate(value: 0.9, standardError: 1e308)),
            (Estimate(value: .infinity, standardError: 0.01), Estimate(value: 0.9, standardError: 0.01)),
            (Estimate(value: -.greatestFiniteMagnitude, standardError: 0), Estimate(value: .greatestFiniteMagnitude, standardError: 0)),
        ]
        for (old, new) in cases {
            let change = Change(old: old, new: new, confidence: 0.95)
            #expect(change.interval == nil && change.beyondNoise == nil, "\(old) → \(new)")
        }
    }
}
