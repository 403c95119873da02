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
}
