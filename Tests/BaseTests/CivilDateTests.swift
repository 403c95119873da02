@testable import Base
import Testing

/// Dates: a text of the right shape naming a day the calendar lacks is told apart.
@Suite("Civil dates")
struct CivilDateTests {
    @Test("YYYY-MM-DD naming no day says why: the month's length, leap years counted", arguments: [
        ("2026-02-30", CivilDate.ParseError.noSuchDay(year: 2026, month: 2, day: 30), "February 2026 has 28 days"),
        ("2028-02-30", .noSuchDay(year: 2028, month: 2, day: 30), "February 2028 has 29 days"),
        ("2100-02-29", .noSuchDay(year: 2100, month: 2, day: 29), "February 2100 has 28 days"),
        ("2026-04-31", .noSuchDay(year: 2026, month: 4, day: 31), "April 2026 has 30 days"),
        ("2026-01-00", .noSuchDay(year: 2026, month: 1, day: 0), "January 2026 has 31 days"),
        ("2026-13-01", .noSuchMonth(year: 2026, month: 13), "a month is 01 to 12"),
        ("2026-1-05", .notISO, "write YYYY-MM-DD"),
        ("5 Jan", .notISO, "write YYYY-MM-DD"),
    ])
    func notADay(text: String, error: CivilDate.ParseError, explanation: String) {
        #expect(CivilDate.parse(iso: text) == .failure(error))
        #expect(error.explanation == explanation)
        #expect(CivilDate(iso: text) == nil)
    }

    @Test("a day the calendar has reads as itself", arguments: ["2026-02-28", "2028-02-29", "2000-02-29", "9999-12-31"])
    func aDay(text: String) throws {
        let date = try CivilDate.parse(iso: text).get()
        #expect(date.description == text)
    }
}
