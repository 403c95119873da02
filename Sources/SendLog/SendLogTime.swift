import Base

/// A row's time as the log writes it (RFC 3339 with its offset), to the microsecond.
/// `wall` is the local wall clock the offset belongs to, in microseconds since
/// 1970-01-01T00:00 of that clock; the instant is `wall − offset`.
public struct SendLogTime: Sendable, Equatable, Hashable {
    /// The local wall clock, in microseconds since 1970-01-01T00:00 (local).
    public var wall: Int64
    /// The offset from UTC in seconds (`+03:00`: 10,800; `Z`: 0).
    public var offsetSeconds: Int32

    /// The instant, in microseconds since 1970-01-01T00:00Z.
    public var instant: Int64 { wall - Int64(offsetSeconds) * TimeUnit.second }
    /// The local calendar day.
    public var date: CivilDate { CivilDate(daysSinceEpoch: Int(floorDivide(wall, TimeUnit.day))) }
    /// Microseconds since local midnight.
    public var timeOfDay: Int64 { wall - floorDivide(wall, TimeUnit.day) * TimeUnit.day }

    /// A value of the fields given.
    /// - Complexity: O(1).
    public init(wall: Int64, offsetSeconds: Int32) {
        self.wall = wall
        self.offsetSeconds = offsetSeconds
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (RFC 3339's `date-time`; `t`, `z`
    /// and a space for `T` are accepted as the RFC allows; a leap second is refused).
    /// Digits past the microsecond are dropped. Nil with what is wrong.
    /// - Complexity: O(n) in the text's length.
    public static func parse(_ text: some Collection<UInt8>) -> Result<SendLogTime, SendLogError.Reason> {
        let bytes = Array(text)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ allowed: [UInt8]) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        let wrong = SendLogError.Reason.badTime
        guard let year = digits(4), expect([0x2D]), let month = digits(2), expect([0x2D]), let day = digits(2),
              expect([0x54, 0x74, 0x20]), let hour = digits(2), expect([0x3A]), let minute = digits(2), expect([0x3A]),
              let second = digits(2) else { return .failure(wrong("not YYYY-MM-DDTHH:MM:SS")) }
        guard let date = CivilDate(year: year, month: month, day: day) else { return .failure(wrong("no such date")) }
        guard hour < 24, minute < 60, second < 60 else { return .failure(wrong("no such time of day")) }
        var micros: Int64 = 0
        if expect([0x2E]) {
            var scale: Int64 = 100_000
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                micros += Int64(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
                count += 1
            }
            guard count > 0 else { return .failure(wrong("no digits after the decimal point")) }
        }
        var offset: Int32 = 0
        if expect([0x5A, 0x7A]) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign: Int32 = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = digits(2), expect([0x3A]), let minutes = digits(2), hours < 24, minutes < 60 else {
                return .failure(wrong("the offset is not ±HH:MM"))
            }
            offset = sign * Int32(hours * 3_600 + minutes * 60)
        } else {
            return .failure(wrong("no offset (Z or ±HH:MM)"))
        }
        guard index == bytes.count else { return .failure(wrong("text after the offset")) }
        let wall = Int64(date.daysSinceEpoch) * TimeUnit.day + Int64(hour) * TimeUnit.hour + Int64(minute) * TimeUnit.minute
            + Int64(second) * TimeUnit.second + micros
        return .success(SendLogTime(wall: wall, offsetSeconds: offset))
    }
}
