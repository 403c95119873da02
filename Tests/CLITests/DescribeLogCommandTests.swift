import CLI
import Foundation
import TestSupport
import Testing

/// `pushsim describe-log`: a synthetic bursty log in, its parameters and the scenario fields out.
@Suite("describe-log")
struct DescribeLogCommandTests {
    static func writeLog(_ log: SyntheticBurstLog, extra: String = "") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString).csv").path
        try (log.csv() + extra).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("The table names the estimates with intervals, the fields and the --set lines; no user id is printed")
    func printsEstimatesAndFields() throws {
        var log = SyntheticBurstLog()
        log.users = 300
        let path = try Self.writeLog(log)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (code, out, err) = CapturedConsole.run(["describe-log", path])
        #expect(code == .success, "\(err)")
        #expect(out.contains("300 users, 28 days from 2026-03-02 (20 weekdays, 8 weekend days)"))
        for field in ["mail.perDay", "mail.weekendFactor", "mailBursts.meanSize", "mailBursts.gap.mean (s)", "mail.diurnal[23]"] {
            #expect(out.contains(field), "\(field) missing")
        }
        #expect(out.contains("--set 'mail={\"perDay\":") && out.contains("--set 'mailBursts={\"meanSize\":"))
        let firstUser = log.rows()[0].user
        #expect(!out.contains(firstUser))
    }

    @Test("--format json holds each estimate with its interval; the truth is inside for perDay and meanSize")
    func jsonHoldsTheIntervals() throws {
        var log = SyntheticBurstLog()
        log.users = 600
        let path = try Self.writeLog(log)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (code, out, _) = CapturedConsole.run(["describe-log", path, "--format", "json"])
        #expect(code == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let estimates = try #require(json["estimates"] as? [String: [String: Any]])
        for (path, truth) in [("mail.perDay", 8.0), ("mailBursts.meanSize", 3.0)] {
            let low = try #require(estimates[path]?["low"] as? Double), high = try #require(estimates[path]?["high"] as? Double)
            #expect(low <= truth && truth <= high, "\(path): \(low) … \(high)")
        }
        let fields = try #require(json["fields"] as? [String: Any])
        #expect(fields["mail"] != nil && fields["mailBursts"] != nil)
        #expect((json["log"] as? [String: Any])?["users"] as? Int == 600)
    }

    @Test("--topic keeps one app's rows; a log with no alert push left is exit 65")
    func topicFiltersRows() throws {
        var log = SyntheticBurstLog()
        log.users = 20
        let path = try Self.writeLog(log)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CapturedConsole.run(["describe-log", path, "--topic", "ru.yandex.mail"]).code == .success)
        let (code, _, err) = CapturedConsole.run(["describe-log", path, "--topic", "com.example.other"])
        #expect(code == .dataError)
        #expect(err.contains("no alert push to describe"), "\(err)")
    }

    @Test("A row out of order under --burst-gap is exit 65 naming its line; a bad --burst-gap is exit 64")
    func burstGapErrors() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString).csv").path
        try """
        time,user,topic
        2026-03-02T10:00:00+03:00,a,app
        2026-03-02T09:00:00+03:00,a,app

        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CapturedConsole.run(["describe-log", path]).code == .success)
        let (code, _, err) = CapturedConsole.run(["describe-log", path, "--burst-gap", "10m"])
        #expect(code == .dataError)
        #expect(err.contains(":3: with --burst-gap"), "\(err)")
        #expect(CapturedConsole.run(["describe-log", path, "--burst-gap", "soon"]).code == .usage)
        #expect(CapturedConsole.run(["describe-log"]).code == .usage)
    }
}
