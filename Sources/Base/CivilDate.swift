/// A calendar date without a time zone: the scenario's local day.
/// Foundation's `Date` is kept out of the simulation on purpose.
public struct CivilDate: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// Year, e.g. 2026.
    public var year: Int
    /// Month 1…12.
    public var month: Int
    /// Day 1…31.
    public var day: Int

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    /// - Complexity: O(1).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01 (`civil_from_days`).
    /// - Complexity: O(1).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// A date from its parts; nil when the day does not exist.
    /// - Complexity: O(1).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1 else { return nil }
        self.year = year
        self.month = month
        self.day = day
        guard CivilDate(daysSinceEpoch: daysSinceEpoch) == self else { return nil }
    }

    /// Parses `YYYY-MM-DD`.
    /// - Complexity: O(n) in the text's length.
    public init?(iso text: String) {
        guard case .success(let date) = Self.parse(iso: text) else { return nil }
        self = date
    }

    /// Why a text is not a date: not written `YYYY-MM-DD`, or written so but naming a
    /// day the calendar does not have (`2026-02-30`), which a user fixes differently.
    public enum ParseError: Error, Equatable, Sendable {
        case notISO
        /// The month is not 01…12.
        case noSuchMonth(year: Int, month: Int)
        /// The day is not 01 to the month's last.
        case noSuchDay(year: Int, month: Int, day: Int)

        /// What is wrong, for a message after the text: "(February 2026 has 28 days)".
        /// - Complexity: O(1).
        public var explanation: String {
            switch self {
            case .notISO: "write YYYY-MM-DD"
            case .noSuchMonth: "a month is 01 to 12"
            case .noSuchDay(let year, let month, _):
                "\(CivilDate.monthNames[month - 1]) \(year) has \(CivilDate.daysIn(year: year, month: month)) days"
            }
        }
    }

    /// `YYYY-MM-DD` read, or why it is not a date.
    /// - Complexity: O(n) in the text's length.
    public static func parse(iso text: String) -> Result<CivilDate, ParseError> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return .failure(.notISO) }
        guard (1...12).contains(m) else { return .failure(.noSuchMonth(year: y, month: m)) }
        guard let date = CivilDate(year: y, month: m, day: d) else { return .failure(.noSuchDay(year: y, month: m, day: d)) }
        return .success(date)
    }

    /// English month names, January first.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]

    /// Days in `month` (1…12) of `year`, leap years as the proleptic Gregorian calendar has them.
    /// - Complexity: O(1).
    public static func daysIn(year: Int, month: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Weekday, 0 = Monday … 6 = Sunday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    /// The date `days` later.
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}
