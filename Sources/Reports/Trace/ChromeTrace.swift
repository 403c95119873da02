import Base
import Simulator

/// `trace.json`: the same events in the Trace Event Format that Perfetto
/// (ui.perfetto.dev) and chrome://tracing open. One process per strategy (pid: its
/// place in the run, from 1), threads per traced device and app: the app's events as
/// instants ("i", on the app's own thread, with its offline spells as "X" slices), and
/// what lasts as "X" slices on threads of their own ("APNs", "extension", "messages"),
/// laid on as many threads as keep the slices of one thread from overlapping. `ts` and
/// `dur` are microseconds of the run (from local midnight of its start).
package enum ChromeTrace {
    /// The file's name in a report folder.
    package static let fileName = "trace.json"

    /// The threads an app's slices go to, after the app's own: each span kind's, in this order.
    private static let threads: [(name: String, kinds: [TraceSpan.Kind])] = [
        ("APNs", [.stored, .heldForPower]), ("extension", [.extensionWait]), ("messages", [.message]),
    ]

    /// The file for `trace` of a run of `scenario` whose strategies are `strategies`.
    /// - Complexity: O(events × fields + spans × threads).
    package static func render(_ trace: SimulationTrace, scenario: Scenario, strategies: [Strategy]) -> String {
        let vocabulary = TraceText.Vocabulary()
        var metadata: [String] = [], events: [String] = []
        events.reserveCapacity(trace.eventCount)
        var named = Set<Int>()
        for story in trace.stories {
            let pid = story.strategy + 1
            if named.insert(pid).inserted {
                metadata.append(meta(pid: pid, tid: 0, "process_name", ("name", JSONText.string(strategies[story.strategy].label))))
                metadata.append(meta(pid: pid, tid: 0, "process_sort_index", ("sort_index", String(pid))))
            }
        }
        // Thread ids count up within each process, in the order device, app, thread.
        var nextThread: [Int: Int] = [:]
        for story in trace.stories {
            let pid = story.strategy + 1
            let apps = Set(story.events.map(\.app)).sorted()
            for app in apps {
                let laneEvents = story.events.filter { $0.app == app }
                let base = "device \(story.device) · app \(app)"
                func thread(_ name: String) -> Int {
                    let tid = (nextThread[pid] ?? 0) + 1
                    nextThread[pid] = tid
                    metadata.append(meta(pid: pid, tid: tid, "thread_name", ("name", JSONText.string(name))))
                    metadata.append(meta(pid: pid, tid: tid, "thread_sort_index", ("sort_index", String(tid))))
                    return tid
                }
                let own = thread(base)
                for event in laneEvents {
                    let args = vocabulary.details(event, leading: event.message >= 0 ? [("message", String(event.message))] : [])
                    events.append(JSONText.object([
                        ("name", JSONText.string(vocabulary.name(event))), ("cat", JSONText.string(event.kind.actor.name)),
                        ("ph", "\"i\""), ("s", "\"t\""), ("ts", String(event.time)), ("pid", String(pid)), ("tid", String(own)),
                        ("args", args),
                    ]))
                }
                let spans = TraceSpans.spans(of: laneEvents, end: scenario.duration)
                for span in spans where span.kind == .offline { events.append(slice(span, pid: pid, tid: own)) }
                for (name, kinds) in threads {
                    let mine = spans.filter { kinds.contains($0.kind) }
                    guard !mine.isEmpty else { continue }
                    let rows = TraceSpans.rows(mine)
                    let tids = (0...(rows.max() ?? 0)).map { row in thread(base + " · " + name + (row == 0 ? "" : " \(row + 1)")) }
                    for (span, row) in zip(mine, rows) { events.append(slice(span, pid: pid, tid: tids[row])) }
                }
            }
        }
        let other = JSONText.object([("scenario", JSONText.string(scenario.name)), ("seed", String(scenario.seed)),
                                     ("start", JSONText.string(scenario.start.description)),
                                     ("devices", JSONText.array(trace.devices.map { String($0) })),
                                     ("pushsim", JSONText.string(PushSimVersion.current))])
        return "{\"traceEvents\":[\n" + (metadata + events).joined(separator: ",\n") + "\n],\n"
            + "\"displayTimeUnit\":\"ms\",\n\"otherData\":" + other + "}\n"
    }

    /// A metadata ("M") event naming or ordering a process or thread.
    private static func meta(pid: Int, tid: Int, _ name: String, _ argument: (String, String)) -> String {
        JSONText.object([("name", JSONText.string(name)), ("ph", "\"M\""), ("pid", String(pid)), ("tid", String(tid)),
                         ("args", JSONText.object([argument]))])
    }

    /// A complete ("X") event for `span`.
    private static func slice(_ span: TraceSpan, pid: Int, tid: Int) -> String {
        var name = span.kind.title
        var args: [(String, String)] = []
        if span.message >= 0 {
            args.append(("message", String(span.message)))
            if span.kind == .message { name = "message \(span.message)" + (span.ending.isEmpty ? "" : ": " + span.ending) }
        }
        if span.invocation >= 0 { args.append(("invocation", String(span.invocation))) }
        if !span.ending.isEmpty { args.append(("ending", JSONText.string(span.ending))) }
        let category = switch span.kind {
        case .offline: TraceActor.device.name
        case .stored, .heldForPower: TraceActor.apns.name
        case .extensionWait: TraceActor.device.name
        case .message: TraceActor.ledger.name
        }
        return JSONText.object([("name", JSONText.string(name)), ("cat", JSONText.string(category)), ("ph", "\"X\""),
                                ("ts", String(span.from)), ("dur", String(span.to - span.from)), ("pid", String(pid)),
                                ("tid", String(tid)), ("args", JSONText.object(args))])
    }
}
