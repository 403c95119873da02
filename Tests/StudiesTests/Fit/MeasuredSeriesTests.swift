import Base
import Foundation
@testable import ScenarioFormat
@testable import Studies
import Testing

/// The measured file: what it accepts, and one line naming the file, line, column and
/// column name for what it does not (as a scenario's errors).
@Suite("Measured file")
struct MeasuredSeriesTests {
    static func parse(_ text: String) throws(ScenarioError) -> MeasuredSeries {
        try MeasuredSeries.parse(Array(text.utf8), file: "m.csv")
    }

    static func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "accepted"
        } catch {
            return error.description
        }
    }

    static func describe(_ bytes: [UInt8]) -> String {
        do {
            _ = try MeasuredSeries.parse(bytes, file: "m.csv")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test("a file with a byte order mark, CRLF, quoted cells, columns in any order, empty cells and a gap reads as written")
    func reads() throws {
        let text = "\u{FEFF}logged,\"date\",sent,time_zone,mail\r\n10,2026-03-02,12,UTC+03:00,20\r\n,2026-03-03,13,UTC+03:00,21\r\n"
            + "11,2026-03-05,\"14\",UTC+03:00,22\r\n\r\n"
        let series = try Self.parse(text)
        #expect(series.timeZone == "UTC+03:00")
        #expect(series.columns == [.mail, .sent, .logged])
        #expect(series.days.map(\.date.description) == ["2026-03-02", "2026-03-03", "2026-03-05"])
        #expect(series.days[0][.logged] == 10 && series.days[1][.logged] == nil && series.days[2][.sent] == 14)
        #expect(series.span == 4)
        #expect(series.statistics == [.measuredDeliverability, .activeShare])
        // Entries: a statistic and day where both counts are there and the denominator positive.
        let entries = FitEntry.entries(series)
        #expect(entries.map(\.day) == [0, 3, 0, 1, 3])
        #expect(entries[0].value == 10.0 / 12 && entries[0].weekday == 0)
    }

    @Test("launches may pass mail and the Console's delivered its received (a day hands out the day before's storage); each alone has no figure")
    func launchesAndConsole() throws {
        let series = try Self.parse("date,time_zone,mail,launches,console_received,console_delivered\n2026-03-02,UTC,20,45,18,19\n")
        #expect(series.columns == [.mail, .launches, .consoleReceived, .consoleDelivered])
        #expect(series.statistics == [.launchesPerMail, .consoleDeliveredShare])
        #expect(series.days[0][.launches] == 45 && series.days[0][.consoleDelivered] == 19)
        let entries = FitEntry.entries(series)
        #expect(entries.map(\.statistic) == [.launchesPerMail, .consoleDeliveredShare])
        #expect(entries.map(\.value) == [45.0 / 20, 19.0 / 18] && entries.map(\.count) == [20, 18])
        // launches without mail, or the Console's delivered without its received, is no figure.
        #expect(Self.error("date,time_zone,launches,console_delivered\n").hasPrefix("m.csv:1:1: the header needs the two columns"))
    }

    @Test("a no-break space in a count is named, not shown as a space the reader would have trimmed")
    func noBreakSpace() {
        #expect(Self.error("date,time_zone,mail,launches\n2026-03-02,UTC,20,\u{A0}45\n")
                == #"m.csv:2:19: launches: "\u{A0}45" is not a count (a whole number from 0 to 1000000000000000)"#)
    }

    @Test("what measure writes reads back the same")
    func roundTrip() throws {
        let written = try Self.parse("date,time_zone,mail,sent,logged\n2026-01-01,Europe/Berlin,5,4,3\n2026-01-02,Europe/Berlin,6,,\n")
        #expect(try MeasuredSeries.parse(Array(written.csv().utf8), file: "m.csv") == written)
    }

    @Test("each mistake gets one line with the file, line, column and the column's name")
    func errors() {
        let header = "date,time_zone,mail,sent,logged\n"
        #expect(Self.error("date,time_zone,sentt,logged\n") == "m.csv:1:16: sentt: unknown field; did you mean sent?")
        #expect(Self.error("date,sent,logged\n2026-01-01,1,1\n").hasPrefix("m.csv:1:1: the header has no time_zone column"))
        #expect(Self.error("date,time_zone,mail\n").hasPrefix("m.csv:1:1: the header needs the two columns of a figure the fit matches: logged and sent (measured_deliverability), or sent and mail (active_share), or launches and mail (launches_per_mail), or console_delivered and console_received (console_delivered_share); it has date, time_zone, mail"))
        #expect(Self.error("date,time_zone,sent,sent\n") == "m.csv:1:21: sent: the column appears twice in the header")
        #expect(Self.error(header + "2026-01-01,UTC,10,8,9\n")
                == "m.csv:2:21: logged: 9 is more than sent (8) on the same day: logged counts a part of sent")
        #expect(Self.error(header + "2026-01-01,UTC,10,11,9\n").hasPrefix("m.csv:2:19: sent: 11 is more than mail (10)"))
        #expect(Self.error(header + "2026-02-30,UTC,10,8,7\n").hasPrefix("m.csv:2:1: date: \"2026-02-30\""))
        #expect(Self.error(header + "2026-01-02,UTC,1,1,1\n2026-01-01,UTC,1,1,1\n")
                == "m.csv:3:1: date: 2026-01-01 is not after the row before (2026-01-02): one row a day, dates increasing")
        #expect(Self.error(header + "2026-01-01,UTC,1,1,1\n2026-01-02,UTC+01:00,1,1,1\n")
                .hasPrefix("m.csv:3:12: time_zone: \"UTC+01:00\" differs from \"UTC\" on line 2"))
        #expect(Self.error(header + "2026-01-01,Mars,1,1,1\n").hasPrefix("m.csv:2:12: time_zone: \"Mars\" is not a time zone"))
        #expect(Self.error(header + "2026-01-01,UTC,-1,1,1\n").hasPrefix("m.csv:2:16: mail: \"-1\" is not a count"))
        #expect(Self.error(header + "2026-01-01,UTC,1e3,1,1\n").hasPrefix("m.csv:2:16: mail: \"1e3\" is not a count"))
        #expect(Self.error(header + "2026-01-01,UTC,1,1\n") == "m.csv:2:1: expected 5 cells as in the header, found 4")
        #expect(Self.error(header + "2026-01-01,\"UTC,1,1,1\n") == "m.csv:2:12: a quoted cell is not closed")
        #expect(Self.error(header + "2026-01-01,U\"TC,1,1,1\n").hasPrefix("m.csv:2:13: a quote inside an unquoted cell"))
        #expect(Self.error(header) == "m.csv:2:1: no rows after the header")
        #expect(Self.error("") == "m.csv:1:1: empty file: expected a header (date,time_zone,mail,sent,logged)")
        #expect(Self.error(header + "2026-01-01,UTC,1,1,1\r2026") == "m.csv:2:21: a carriage return not followed by a line feed")
        #expect(MeasuredSeriesTests.error(header + "2026-01-01,UTC,\u{7},1,1\n").hasPrefix("m.csv:2:16: a control character (U+0007)"))
        #expect(Self.error("date,time_zone,sent,logged,\n").hasPrefix("m.csv:1:28: an empty column name (a comma too many in the header?)"))
        #expect(Self.error(header + "0000-01-01,UTC,1,1,1\n") == "m.csv:2:1: date: 0000-01-01 is outside the years 1970 to 9990")
        #expect(Self.error(header + "2026-01-01,UTC,1,1,1\n2125-01-01,UTC,1,1,1\n")
                .hasPrefix("m.csv:3:1: date: 2125-01-01 is 36159 days after the first row (2026-01-01): a file spans at most 3660 days"))
        // The span's edge: the last day of 3,660 from the first is accepted.
        let lastDay = CivilDate(iso: "2026-01-01")!.adding(days: MeasuredSeries.maxDays - 1)
        #expect(Self.error(header + "2026-01-01,UTC,1,1,1\n\(lastDay),UTC,1,1,1\n") == "accepted")
    }

    @Test("bytes that are not UTF-8, and a file past the size limit, are refused as unreadable")
    func unreadable() {
        #expect(throws: ScenarioError.self) { try MeasuredSeries.parse([0x64, 0xFF, 0x0A], file: "m.csv") }
        let broken = Array("date,time_zone,sent,logged\n2026-01-01,UTC,1,1\n".utf8) + [0x32, 0xC3, 0x28, 0x0A]
        #expect(Self.describe(broken) == "m.csv:3:1: not UTF-8 text (a CSV of daily counts: docs/fit.md)")
        let big = [UInt8](repeating: 0x20, count: MeasuredSeries.maxBytes + 1)
        #expect(throws: ScenarioError.self) { try MeasuredSeries.parse(big, file: "m.csv") }
    }

    @Test("the table schema lists every column, with the required ones marked")
    func schema() throws {
        let root = try JSONSerialization.jsonObject(with: Data(MeasuredSchema.text.utf8)) as? [String: Any]
        let fields = try #require(root?["fields"] as? [[String: Any]])
        #expect(fields.compactMap { $0["name"] as? String } == MeasuredColumn.allCases.map(\.name))
        for (field, column) in zip(fields, MeasuredColumn.allCases) {
            let required = (field["constraints"] as? [String: Any])?["required"] as? Bool ?? false
            #expect(required == column.isRequired)
        }
        let shipped = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/schema/pushsim-measured.tableschema.json", encoding: .utf8)
        #expect(shipped == MeasuredSchema.text, "schema/pushsim-measured.tableschema.json differs: swift run pushsim schema measured > schema/pushsim-measured.tableschema.json")
    }
}
