import Base
import Simulator

/// The pieces of text both trace files write the same way: an instant as the run's
/// local time, an event's details as a JSON object.
package enum TraceText {
    /// `time` (µs from local midnight of `start`) as ISO 8601 local time with
    /// microseconds, no zone: every device shares the scenario's clock
    /// ("2026-03-02T08:15:30.000123").
    /// - Complexity: O(1).
    package static func localTime(_ time: SimTime, start: CivilDate) -> String {
        let day = time >= 0 ? time / TimeUnit.day : (time - TimeUnit.day + 1) / TimeUnit.day
        let within = time - day * TimeUnit.day
        let date = start.adding(days: Int(day))
        return date.description + "T" + clock(within) + "." + digits(within % TimeUnit.second, 6)
    }

    /// "08:15:30": the time of day of `within` µs after midnight.
    /// - Complexity: O(1).
    package static func clock(_ within: SimDuration) -> String {
        digits(within / TimeUnit.hour, 2) + ":" + digits(within / TimeUnit.minute % 60, 2) + ":"
            + digits(within / TimeUnit.second % 60, 2)
    }

    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A detail's value as JSON: a number, true or false, a name in quotes, or null.
    /// - Complexity: O(1) but for a name's length.
    package static func value(_ value: Int64, as type: TraceFieldType) -> String {
        guard value != TraceEvent.null else { return "null" }
        switch type {
        case .integer, .microseconds:
            return String(value)
        case .boolean:
            return value != 0 ? "true" : "false"
        case .name(let names):
            return names.indices.contains(Int(value)) ? JSONText.string(names[Int(value)]) : "null"
        }
    }

    /// Every kind's names and fields, worked out once per file rather than once per event
    /// (a field's names come from its cases).
    package struct Vocabulary {
        /// Per kind (index: raw value): its name, its actor's name, its fields' keys and types.
        package let kinds: [(name: String, actor: String, fields: [(key: String, type: TraceFieldType)])]

        /// - Complexity: O(kinds × fields × names).
        package init() {
            kinds = TraceKind.allCases.map { kind in
                (kind.name, kind.actor.name, kind.fields.map { ($0.key, $0.type) })
            }
        }

        /// The name of `event`'s kind.
        /// - Complexity: O(1).
        package func name(_ event: TraceEvent) -> String { kinds[Int(event.kind.rawValue)].name }

        /// The event's details as a JSON object, keys in `kind.fields` order, after
        /// `leading` members (already rendered).
        /// - Complexity: O(fields).
        package func details(_ event: TraceEvent, leading: [(String, String)] = []) -> String {
            let fields = kinds[Int(event.kind.rawValue)].fields
            return JSONText.object(leading + fields.indices.map { (fields[$0].key, TraceText.value(event.values[$0], as: fields[$0].type)) })
        }
    }
}
