/// An instant of a certificate's validity: whole seconds since 1970-01-01T00:00:00Z, read
/// from and written as RFC 5280 §4.1.2.5's UTCTime (years 1950–2049) or GeneralizedTime
/// (other years). The civil calendar is computed here (proleptic Gregorian, no leap
/// seconds, as X.509 counts), so the module needs no Foundation.
public struct CertificateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let secondsSinceEpoch: Int64

    /// - Complexity: O(1).
    public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// The instant of a UTC civil time; nil when a field is out of its range (a 31 April, a
    /// hour 24, a leap second) or the year is outside 0–9999 (GeneralizedTime's four digits).
    /// - Complexity: O(1).
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (0...9999).contains(year), (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        secondsSinceEpoch = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// - Complexity: O(1).
    public static func < (lhs: CertificateTime, rhs: CertificateTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    /// This instant plus `seconds`, held at the ends of 64 bits rather than overflowing.
    /// - Complexity: O(1).
    public func adding(seconds: Int64) -> CertificateTime {
        let (sum, overflow) = secondsSinceEpoch.addingReportingOverflow(seconds)
        return CertificateTime(secondsSinceEpoch: overflow ? (seconds > 0 ? .max : .min) : sum)
    }

    /// Year, month, day, hour, minute, second in UTC.
    /// - Complexity: O(1).
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(secondsSinceEpoch.floorDivided(by: 86_400))
        let seconds = Int(secondsSinceEpoch - Int64(days) * 86_400)
        let (year, month, day) = Self.civilFromDays(days)
        return (year, month, day, seconds / 3_600, seconds / 60 % 60, seconds % 60)
    }

    /// `2026-11-27T08:00:00Z`.
    public var description: String {
        let c = components
        return "\(Self.digits(c.year, 4))-\(Self.digits(c.month, 2))-\(Self.digits(c.day, 2))T"
            + "\(Self.digits(c.hour, 2)):\(Self.digits(c.minute, 2)):\(Self.digits(c.second, 2))Z"
    }

    /// Whether RFC 5280 asks for UTCTime (years 1950 through 2049) rather than GeneralizedTime.
    /// - Complexity: O(1).
    public var isUTCTimeYear: Bool { (1950...2049).contains(components.year) }

    /// The contents RFC 5280 asks for: `YYMMDDHHMMSSZ` in 1950–2049, `YYYYMMDDHHMMSSZ` otherwise.
    /// - Complexity: O(1).
    public var encodedContents: [UInt8] {
        let c = components
        let year = isUTCTimeYear ? Self.digits(c.year % 100, 2) : Self.digits(c.year, 4)
        return Array((year + [c.month, c.day, c.hour, c.minute, c.second].map { Self.digits($0, 2) }.joined() + "Z").utf8)
    }

    /// UTCTime `YYMMDDHHMMSSZ`; YY from 50 is 19YY, below 50 is 20YY (RFC 5280 §4.1.2.5.1).
    init?(utcTime bytes: ArraySlice<UInt8>) {
        guard bytes.count == 13, let year = Self.number(bytes, 0, 2) else { return nil }
        self.init(fields: bytes, year: year >= 50 ? 1900 + year : 2000 + year, from: 2)
    }

    /// GeneralizedTime `YYYYMMDDHHMMSSZ`, no fraction (RFC 5280 §4.1.2.5.2).
    init?(generalizedTime bytes: ArraySlice<UInt8>) {
        guard bytes.count == 15, let year = Self.number(bytes, 0, 4) else { return nil }
        self.init(fields: bytes, year: year, from: 4)
    }

    /// MMDDHHMMSSZ from offset `from`.
    private init?(fields bytes: ArraySlice<UInt8>, year: Int, from offset: Int) {
        guard bytes.last == UInt8(ascii: "Z"), let month = Self.number(bytes, offset, 2), let day = Self.number(bytes, offset + 2, 2),
              let hour = Self.number(bytes, offset + 4, 2), let minute = Self.number(bytes, offset + 6, 2),
              let second = Self.number(bytes, offset + 8, 2) else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The decimal number in `count` digits at `offset`; nil for any other byte.
    private static func number(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes.dropFirst(offset).prefix(count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (Hinnant's civil_from_days).
    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity (instants before 1970 have negative seconds).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
