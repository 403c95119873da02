import Base
import Foundation
@testable import SendLog
import Testing

@Suite("The send log's reader")
struct SendLogReaderTests {
    static func rows(_ text: String) throws(SendLogError) -> [SendLogRow] {
        try SendLogReader(bytes: Array(text.utf8), file: "log.csv").readAll()
    }

    static func error(_ text: String) -> SendLogError? {
        do {
            _ = try rows(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("reads every column, in any order, with quotes, CRLF and blank lines")
    func readsEveryColumn() throws {
        let rows = try Self.rows("kind,topic,user,time,collapse_id,thread\r\n"
            + ",com.example.mail,u1,2026-03-02T09:15:00.25+03:00,,\r\n"
            + "\n"
            + "background,com.example.mail,\"a,\"\"b\"\"\",2026-03-02T23:59:59Z,c-1,t-9")
        #expect(rows.count == 2)
        #expect(rows[0].line == 2 && rows[1].line == 4)
        #expect(rows[0].user == "u1" && rows[0].topic == "com.example.mail" && rows[0].kind == .alert)
        #expect(rows[0].collapseID == nil && rows[0].thread == nil)
        #expect(rows[0].time.offsetSeconds == 10_800)
        #expect(rows[0].time.date == CivilDate(year: 2026, month: 3, day: 2))
        #expect(rows[0].time.timeOfDay == 9 * TimeUnit.hour + 15 * TimeUnit.minute + 250 * TimeUnit.millisecond)
        #expect(rows[0].time.instant == rows[0].time.wall - 3 * TimeUnit.hour)
        #expect(rows[1].user == "a,\"b\"" && rows[1].kind == .background && rows[1].collapseID == "c-1" && rows[1].thread == "t-9")
    }

    @Test("times: RFC 3339 with an offset, fractions to the microsecond, negative offsets")
    func times() throws {
        let parsed = try SendLogTime.parse(Array("1969-12-31T23:00:00.1234567-01:30".utf8)).get()
        #expect(parsed.wall == -TimeUnit.hour + 123_456)
        #expect(parsed.offsetSeconds == -5_400)
        #expect(parsed.date == CivilDate(year: 1969, month: 12, day: 31))
        #expect(parsed.timeOfDay == 23 * TimeUnit.hour + 123_456)
        for bad in ["2026-03-02T09:15:00", "2026-02-30T00:00:00Z", "2026-03-02T24:00:00Z", "2026-03-02T09:15:60Z",
                    "2026-03-02T09:15:00+3:00", "2026-03-02T09:15:00.Z", "2026-03-02T09:15:00Zx", "yesterday"] {
            #expect(throws: SendLogError.Reason.self, "\(bad)") { try SendLogTime.parse(Array(bad.utf8)).get() }
        }
    }

    @Test("a bad log is refused with one message naming the line, never an id", arguments: [
        ("", 0, "no header line"),
        ("time,user\n", 1, "no column topic"),
        ("time,user,topic,nick\n", 1, "unknown column \"nick\""),
        ("time,user,topic,user\n", 1, "column user twice"),
        ("time,user,topic\n2026-03-02T09:00:00Z,secret-id\n", 2, "2 fields where the header has 3"),
        ("time,user,topic\n2026-03-02T09:00:00Z,,app\n", 2, "column user is empty"),
        ("time,user,topic\n2026-03-02T09:00:00,secret-id,app\n", 2, "no offset"),
        ("time,user,topic,kind\n2026-03-02T09:00:00Z,secret-id,app,voip\n", 2, "neither alert nor background"),
        ("time,user,topic\n2026-03-02T09:00:00Z,\"secret-id,app\n", 2, "quote that does not close"),
        ("time,user,topic\n2026-03-02T09:00:00Z,sec\"ret-id,app\n", 2, "quote inside"),
        ("time,user,topic\n2026-03-02T09:00:00Z,secret\u{7}id,app\n", 2, "column user holds a control character"),
        ("time,user,topic,collapse_id\n2026-03-02T09:00:00Z,u,app," + String(repeating: "c", count: 65) + "\n", 2,
         "collapse_id is longer than 64 bytes"),
    ])
    func refusesBadLogs(text: String, line: Int, words: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.line == line)
        #expect(error.description.contains(words), "\(error)")
        #expect(!error.description.contains("secret"))
        #expect(!error.description.contains("\n"))
    }

    @Test("bytes that are not UTF-8 and a line past the limit are refused, and the reader stays refused")
    func refusesBadBytes() throws {
        var bytes = Array("time,user,topic\n2026-03-02T09:00:00Z,u,app\n2026-03-02T09:00:00Z,".utf8)
        bytes += [0xFF, 0xFE] + Array(",app\n".utf8)
        let reader = try SendLogReader(bytes: bytes, file: "log.csv")
        #expect(try reader.next()?.user == "u")
        #expect(throws: SendLogError(file: "log.csv", line: 3, reason: .notUTF8(.user))) { try reader.next() }
        #expect(throws: SendLogError(file: "log.csv", line: 3, reason: .notUTF8(.user))) { try reader.next() }
        let long = "time,user,topic\n" + String(repeating: "x", count: SendLogReader.lineLimit + 10) + "\n"
        #expect(Self.error(long)?.reason == .lineTooLong)
    }

    @Test("a file is streamed through its buffer: rows across refills read as from bytes")
    func streamsAFile() throws {
        var text = "time,user,topic,collapse_id\n"
        for index in 0..<20_000 { text += "2026-03-02T09:\(10 + index % 50):00Z,user-\(index % 977),com.example.mail,c\(index)\n" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sendlog-\(getpid())-stream.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let fromFile = try SendLogReader(path: path).readAll()
        #expect(fromFile == (try Self.rows(text)))
        #expect(fromFile.count == 20_000 && fromFile.last?.collapseID == "c19999")
        #expect(throws: SendLogError.self) { try SendLogReader(path: path + ".missing") }
    }
}
