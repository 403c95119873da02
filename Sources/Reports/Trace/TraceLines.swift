import Base
import Simulator

/// `trace.jsonl`: one JSON object a line, one line per trace event, in a fixed order: by
/// device, then strategy (the run's order), then app, then the order the world handled
/// them (time first). docs/trace.md lists the keys and every kind's details.
package enum TraceLines {
    /// The file's name in a report folder.
    package static let fileName = "trace.jsonl"

    /// Every line's keys, in order.
    package static let keys = ["time_us", "time", "strategy", "device", "app", "message", "kind", "actor", "details"]

    /// The file for `trace` of a run of `scenario` whose strategies are `strategies`.
    /// - Complexity: O(events × fields).
    package static func render(_ trace: SimulationTrace, scenario: Scenario, strategies: [Strategy]) -> String {
        let vocabulary = TraceText.Vocabulary()
        var text = ""
        text.reserveCapacity(trace.eventCount * 200)
        for story in trace.stories {
            let strategy = JSONText.string(strategies[story.strategy].label)
            let device = String(story.device)
            // A story holds its lanes in order, each in the world's order (`DeviceStory`).
            for event in story.events {
                let kind = vocabulary.kinds[Int(event.kind.rawValue)]
                text += JSONText.object([
                    (keys[0], String(event.time)),
                    (keys[1], JSONText.string(TraceText.localTime(event.time, start: scenario.start))),
                    (keys[2], strategy), (keys[3], device), (keys[4], String(event.app)),
                    (keys[5], event.message >= 0 ? String(event.message) : "null"),
                    (keys[6], JSONText.string(kind.name)), (keys[7], JSONText.string(kind.actor)),
                    (keys[8], vocabulary.details(event)),
                ])
                text += "\n"
            }
        }
        return text
    }

    /// The trace `text` (a `trace.jsonl` this version wrote) holds, for a run whose
    /// strategies are `strategies`: what `pushsim report` draws the page's traced day
    /// from again. Nil when a line is not such an event (another version's file, a
    /// strategy not in the run): the page is then drawn without it.
    /// - Complexity: O(n) in the text's length.
    package static func decode(_ text: String, strategies: [Strategy]) -> SimulationTrace? {
        let labels = strategies.map(\.label)
        var stories: [DeviceStory] = []
        var devices = Set<Int>()
        for line in text.split(separator: "\n") {
            guard let node = try? JSONParser.parse(String(line)), case .object(let object) = node.value,
                  let time = integer(object["time_us"]), case .string(let label)? = object["strategy"]?.value,
                  let strategy = labels.firstIndex(of: label), let device = integer(object["device"]),
                  let app = integer(object["app"]), case .string(let name)? = object["kind"]?.value,
                  let kind = TraceKind(name: name), case .object(let details)? = object["details"]?.value else { return nil }
            let message: Int64
            if case .null? = object["message"]?.value { message = -1 } else if let index = integer(object["message"]) { message = index } else { return nil }
            var values: [Int64] = []
            for field in kind.fields {
                guard let detail = details[field.key]?.value else { return nil }
                if case .null = detail {
                    values.append(TraceEvent.null)
                    continue
                }
                switch field.type {
                case .boolean:
                    guard case .bool(let flag) = detail else { return nil }
                    values.append(flag ? 1 : 0)
                case .integer, .microseconds:
                    guard case .number(let number) = detail, let value = number.int64Value else { return nil }
                    values.append(value)
                case .name(let names):
                    guard case .string(let text) = detail, let index = names.firstIndex(of: text) else { return nil }
                    values.append(Int64(index))
                }
            }
            let event = TraceEvent(time: time, app: Int32(clamping: app), message: Int32(clamping: message), kind: kind, values: values)
            if let last = stories.last, last.device == Int(device), last.strategy == strategy {
                stories[stories.count - 1].events.append(event)
            } else {
                stories.append(DeviceStory(device: Int(device), strategy: strategy, events: [event]))
            }
            devices.insert(Int(device))
        }
        return SimulationTrace(devices: devices.sorted(), stories: stories)
    }

    private static func integer(_ node: JSONNode?) -> Int64? {
        guard case .number(let number)? = node?.value else { return nil }
        return number.int64Value
    }
}
