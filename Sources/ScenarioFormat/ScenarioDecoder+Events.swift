import Base
import Simulator

// The `events` list: dated steering actions of device apps.

extension ScenarioDecoder {
    /// Keys of an `events[]` entry.
    package static var eventFields: [String] { ScenarioFields.Event.object.keys }

    /// Reads `events`: a non-empty array of entries, each inside the run (`start`,
    /// `duration`: nil when broken, already reported, and then not checked) and naming one
    /// of the `devices`.
    /// - Complexity: O(e) for e entries.
    package static func decodeEvents(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?,
                                     devices: Int) throws -> [SteeringEvent] {
        let entries = try reader.array()
        guard entries.count >= ScenarioFields.Top.events.itemCount?.lowerBound ?? 0 else {
            throw reader.invalid("an empty events list steers nothing; add an event or remove the field")
        }
        guard entries.count <= ScenarioLimits.steeringEvents else {
            throw reader.invalid("at most \(ScenarioLimits.steeringEvents) events, found \(entries.count)")
        }
        let errorsBefore = reader.log.errors.count
        let events = entries.compactMap { decodeEvent($0, start: start, duration: duration, devices: devices) }
        guard reader.log.errors.count == errorsBefore else { return [] }
        return events
    }

    /// One entry, or nil when it has an error (each logged).
    private static func decodeEvent(_ reader: FieldReader, start: CivilDate?, duration: SimDuration?,
                                    devices: Int) -> SteeringEvent? {
        let log = reader.log
        typealias Fields = ScenarioFields.Event
        guard let fields = log.attempt({ try reader.object(Fields.object) }) else { return nil }
        let at = log.attempt { () throws -> SimTime? in
            let field = try fields.required(Fields.at)
            let text = try field.string()
            guard let (day, inDay) = Self.instant(text) else {
                throw field.invalid("not an instant: \(UserText.quote(text)) (write YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-01-05T09:00:00Z)")
            }
            let date: CivilDate
            switch CivilDate.parse(iso: day) {
            case .success(let parsed): date = parsed
            case .failure(let problem): throw field.invalid(FieldReader.dateMessage(day, problem))
            }
            guard let start, let duration else { return nil }
            let time = SimTime(date.daysSinceEpoch - start.daysSinceEpoch) * TimeUnit.day + inDay
            guard time >= 0, time < duration else {
                throw field.invalid("\(UserText.quote(text)) is outside the run, which starts \(start)T00:00:00Z and lasts "
                                    + "\(format(Double(duration) / Double(TimeUnit.day))) days")
            }
            return time
        }
        let device = log.attempt { () throws -> Int in
            let field = try fields.required(Fields.device)
            let device = Int(try field.integer(in: Fields.device.integerRange))
            guard device < devices else {
                throw field.invalid("no device \(device): the scenario has \(devices) device\(devices == 1 ? "" : "s"), numbered from 0")
            }
            return device
        }
        let app = log.attemptOptional { try fields.optional(Fields.app)?.integer(in: Fields.app.integerRange) } ?? 0
        let action = log.attempt { try fields.required(Fields.action).choice(SteeringAction.init(rawValue:)) }
        guard let at, let time = at, let device, let action else { return nil }
        return SteeringEvent(at: time, device: device, app: Int(app), action: action)
    }

    /// An instant's day (`YYYY-MM-DD`) and its time of day in microseconds, from
    /// `YYYY-MM-DDTHH:MM[:SS[.ffffff]]Z`; nil for any other shape or an hour, minute or second out of range.
    /// - Complexity: O(n) in the text's length.
    static func instant(_ text: String) -> (day: String, microseconds: SimTime)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 17, bytes.count <= 34, bytes[10] == UInt8(ascii: "T"), bytes.last == UInt8(ascii: "Z") else { return nil }
        func digits(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count, !range.isEmpty else { return nil }
            var value: Int64 = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        let time = bytes[11..<(bytes.count - 1)]
        guard let hours = digits(11..<13), bytes[13] == UInt8(ascii: ":"), let minutes = digits(14..<16),
              hours < 24, minutes < 60 else { return nil }
        var microseconds = (hours * 60 + minutes) * 60 * TimeUnit.second
        if time.count > 5 {
            guard bytes[16] == UInt8(ascii: ":"), let seconds = digits(17..<19), seconds < 60 else { return nil }
            microseconds += seconds * TimeUnit.second
            if time.count > 8 {
                let fractionEnd = bytes.count - 1
                guard bytes[19] == UInt8(ascii: "."), fractionEnd - 20 >= 1, fractionEnd - 20 <= 6,
                      let fraction = digits(20..<fractionEnd) else { return nil }
                var scale: Int64 = 1
                for _ in 0..<(6 - (fractionEnd - 20)) { scale *= 10 }
                microseconds += fraction * scale
            } else if time.count != 8 {
                return nil
            }
        } else if time.count != 5 {
            return nil
        }
        return (String(decoding: bytes[0..<10], as: UTF8.self), microseconds)
    }
}
