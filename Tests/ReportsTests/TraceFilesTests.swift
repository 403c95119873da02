@testable import Base
import Foundation
@testable import Reports
@testable import Simulator
import TestSupport
import Testing

/// The rules of the Trace Event Format (Google's "Trace Event Format" document, which
/// Perfetto and chrome://tracing read) for the events PushSim writes: a JSON object
/// with a `traceEvents` array; every event an object with a string `name` and `ph`,
/// integer `pid` and `tid`; "X" and "i" with a non-negative number `ts`, "X" with a
/// non-negative number `dur`, "i" with a scope `s` of "g", "p" or "t" when given;
/// "M" one of the four metadata names with its argument; `cat` a string and `args` an
/// object when given. Beyond the format: every process and thread used is named, and
/// the "X" slices of one thread nest (a slice that overlaps another only in part is
/// drawn wrong, or dropped, by the viewers).
struct TraceEventFormat {
    var errors: [String] = []
    var counts: [String: Int] = [:]

    init(_ text: String) {
        guard let root = try? JSONParser.parse(text) else { errors.append("not JSON"); return }
        guard case .object(let top) = root.value else { errors.append("the top level is not an object"); return }
        guard let list = top["traceEvents"], case .array(let events) = list.value else {
            errors.append("no traceEvents array"); return
        }
        var named = Set<String>(), used = Set<String>(), processesNamed = Set<Int64>(), processesUsed = Set<Int64>()
        var slices: [String: [(Double, Double)]] = [:]
        for (index, node) in events.enumerated() {
            func fail(_ what: String) { errors.append("event \(index): \(what)") }
            guard case .object(let event) = node.value else { fail("not an object"); continue }
            guard let phase = string(event["ph"]) else { fail("no ph"); continue }
            guard string(event["name"]) != nil else { fail("no name"); continue }
            guard let pid = integer(event["pid"]), let tid = integer(event["tid"]) else { fail("pid and tid must be integers"); continue }
            counts[phase, default: 0] += 1
            if let category = event["cat"], case .string = category.value {} else if event["cat"] != nil { fail("cat is not a string") }
            if let args = event["args"], case .object = args.value {} else if event["args"] != nil { fail("args is not an object") }
            let thread = "\(pid)/\(tid)"
            switch phase {
            case "X", "i":
                guard let ts = number(event["ts"]), ts >= 0 else { fail("ts must be a number ≥ 0"); continue }
                used.insert(thread)
                processesUsed.insert(pid)
                if phase == "X" {
                    guard let dur = number(event["dur"]), dur >= 0 else { fail("X needs dur ≥ 0"); continue }
                    slices[thread, default: []].append((ts, ts + dur))
                } else if let scope = event["s"], !["g", "p", "t"].contains(string(scope) ?? "") {
                    fail("s must be g, p or t")
                }
            case "M":
                guard let args = event["args"], case .object(let arguments) = args.value else { fail("M needs args"); continue }
                switch string(event["name"]) {
                case "process_name":
                    guard string(arguments["name"]) != nil else { fail("process_name needs args.name"); continue }
                    processesNamed.insert(pid)
                case "thread_name":
                    guard string(arguments["name"]) != nil else { fail("thread_name needs args.name"); continue }
                    named.insert(thread)
                case "process_sort_index", "thread_sort_index":
                    guard integer(arguments["sort_index"]) != nil else { fail("a sort index needs args.sort_index"); continue }
                default:
                    fail("unknown metadata \(string(event["name"]) ?? "")")
                }
            default:
                fail("phase \(phase) is not one PushSim writes")
            }
        }
        for thread in used.subtracting(named).sorted() { errors.append("thread \(thread) has no thread_name") }
        for pid in processesUsed.subtracting(processesNamed).sorted() { errors.append("process \(pid) has no process_name") }
        for (thread, spans) in slices {
            var open: [Double] = []
            for (start, end) in spans.sorted(by: { ($0.0, -$0.1) < ($1.0, -$1.1) }) {
                while let last = open.last, last <= start { open.removeLast() }
                if let last = open.last, end > last { errors.append("thread \(thread): a slice at \(start) overlaps another in part") }
                open.append(end)
            }
        }
    }

    private func string(_ node: JSONNode?) -> String? {
        guard let node, case .string(let text) = node.value else { return nil }
        return text
    }

    private func integer(_ node: JSONNode?) -> Int64? {
        guard let node, case .number(let number) = node.value, number.isInteger else { return nil }
        return number.int64Value
    }

    private func number(_ node: JSONNode?) -> Double? {
        guard let node, case .number(let number) = node.value else { return nil }
        return number.doubleValue
    }
}

@Suite("Trace files")
struct TraceFilesTests {
    /// Three days of 20 devices, three strategies, two apps on some devices, taps and
    /// launches: a trace with most kinds in it.
    static let scenario = WorldFixtures.scenario("""
    { "name": "traced", "seed": 4, "start": "2026-03-02", "duration": "3d", "devices": 20, "mail": { "perDay": 40 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "2h" },
                        "offline": { "distribution": "exponential", "mean": "1h" } },
      "latency": { "apnsToDevice": { "distribution": "lognormal", "median": "1s", "sigma": 1 } },
      "device": { "launches": { "perDay": 4 }, "taps": { "probability": 0.3, "delay": { "distribution": "constant", "value": "2m" } },
                  "apps": { "1": 0.5, "2": 0.5 } },
      "strategies": [{ "name": "no-queue" }, { "name": "queue", "repeatMaxCount": 3 },
                     { "name": "queue-as-published", "repeatMaxCount": 3 }] }
    """)

    static let traced: (result: SimulationResult, trace: SimulationTrace) = {
        do {
            return try Simulation.run(scenario, threads: 2, tracing: [2, 11])
        } catch {
            fatalError("the traced fixture does not run: \(error)")
        }
    }()

    @Test("trace.json is valid Trace Event Format: every event has the keys its phase needs, ts and dur are numbers, processes and threads are named, and the slices of every thread nest")
    func chromeTraceIsValid() throws {
        let text = ChromeTrace.render(Self.traced.trace, scenario: Self.scenario, strategies: Self.traced.result.strategies)
        let check = TraceEventFormat(text)
        #expect(check.errors == [])
        // One instant per event; slices and names besides.
        #expect(check.counts["i"] == Self.traced.trace.eventCount)
        #expect((check.counts["X"] ?? 0) > 0 && (check.counts["M"] ?? 0) > 0)
    }

    @Test("the Trace Event Format check finds what is broken: no traceEvents, a slice without dur, a string ts, an unnamed thread, slices overlapping in part")
    func formatCheckFindsBrokenTraces() {
        let named = #"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"p"}},"#
            + #"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"t"}}"#
        #expect(TraceEventFormat(#"{"events":[]}"#).errors == ["no traceEvents array"])
        #expect(TraceEventFormat(#"{"traceEvents":[\#(named),{"name":"a","ph":"X","ts":1,"pid":1,"tid":1}]}"#).errors
                == ["event 2: X needs dur ≥ 0"])
        #expect(TraceEventFormat(#"{"traceEvents":[\#(named),{"name":"a","ph":"i","ts":"1","pid":1,"tid":1}]}"#).errors
                == ["event 2: ts must be a number ≥ 0"])
        #expect(TraceEventFormat(#"{"traceEvents":[\#(named),{"name":"a","ph":"i","ts":1,"pid":1,"tid":2}]}"#).errors
                == ["thread 1/2 has no thread_name"])
        let overlapping = #"{"traceEvents":[\#(named),{"name":"a","ph":"X","ts":0,"dur":10,"pid":1,"tid":1},"#
            + #"{"name":"b","ph":"X","ts":5,"dur":10,"pid":1,"tid":1},{"name":"c","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]}"#
        #expect(TraceEventFormat(overlapping).errors == ["thread 1/1: a slice at 5.0 overlaps another in part"])
    }

    @Test("trace.jsonl: one object a line with the documented keys in order, every kind's details as it declares them, by device, strategy, app and time")
    func linesFollowTheFormat() throws {
        let (result, trace) = Self.traced
        let text = TraceLines.render(trace, scenario: Self.scenario, strategies: result.strategies)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "" && lines.count == trace.eventCount + 1)
        var previous: (device: Int64, strategy: Int, app: Int64, time: Int64)?
        var kinds = Set<String>()
        let labels = result.strategies.map(\.label)
        for line in lines.dropLast() {
            guard case .object(let object) = try JSONParser.parse(String(line)).value else { Issue.record("not an object: \(line)"); continue }
            #expect(object.members.map(\.key) == TraceLines.keys)
            guard case .number(let time) = object["time_us"]!.value, case .string(let local) = object["time"]!.value,
                  case .string(let label) = object["strategy"]!.value, case .number(let device) = object["device"]!.value,
                  case .number(let app) = object["app"]!.value, case .string(let kindName) = object["kind"]!.value,
                  case .object(let details) = object["details"]!.value, let kind = TraceKind(name: kindName),
                  let strategy = labels.firstIndex(of: label) else {
                Issue.record("a key of the wrong type: \(line)")
                continue
            }
            kinds.insert(kindName)
            #expect(details.members.map(\.key) == kind.fields.map(\.key), "\(kindName)")
            if case .string(let actor) = object["actor"]!.value { #expect(actor == kind.actor.name) }
            let key = (device.int64Value!, strategy, app.int64Value!, time.int64Value!)
            #expect(local == TraceText.localTime(key.3, start: Self.scenario.start))
            if let previous {
                #expect((previous.device, previous.strategy, previous.app) <= (key.0, key.1, key.2))
                if (previous.device, previous.strategy, previous.app) == (key.0, key.1, key.2) { #expect(previous.time <= key.3) }
            }
            previous = key
        }
        // The fixture shows most of the story's kinds.
        for expected in ["mail_arrived", "apns_stored", "apns_discarded", "apns_delivered", "shown", "gap_detected", "rerequest_sent",
                         "rerequest_served", "launched", "tapped", "log_uploaded", "connectivity_changed", "outcome", "position_saved"] {
            #expect(kinds.contains(expected), "\(expected)")
        }
    }

    @Test("a local time is the start's date and the time of day to the microsecond")
    func localTimeReadsAsTheRunsClock() throws {
        let start = try #require(CivilDate(iso: "2026-03-02"))
        #expect(TraceText.localTime(0, start: start) == "2026-03-02T00:00:00.000000")
        #expect(TraceText.localTime(TimeUnit.day + 8 * TimeUnit.hour + 15 * TimeUnit.minute + 30 * TimeUnit.second + 123, start: start)
                == "2026-03-03T08:15:30.000123")
    }

    @Test("docs/trace.md names every kind with its fields, every field's key, and no kind the code does not have")
    func docsListEveryKind() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/trace.md"), encoding: .utf8)
        // The kinds' table comes before "### Details", the details' after.
        let parts = page.components(separatedBy: "### Details")
        try #require(parts.count == 2, "docs/trace.md has one \"### Details\" heading")
        let kindRows = parts[0].split(separator: "\n").filter { $0.hasPrefix("| `") }
        let fieldRows = parts[1].split(separator: "\n").filter { $0.hasPrefix("| `") }
        let rows = kindRows + fieldRows
        for kind in TraceKind.allCases {
            let row = try #require(kindRows.first { $0.hasPrefix("| `\(kind.name)` |") }, "\(kind.name) is not in docs/trace.md")
            for field in kind.fields { #expect(row.contains("`\(field.key)`"), "\(kind.name): \(field.key)") }
        }
        for field in TraceField.allCases {
            let row = try #require(fieldRows.first { $0.hasPrefix("| `\(field.key)` |") }, "\(field.key) is not in docs/trace.md")
            if case .name(let names) = field.type { for name in names { #expect(row.contains("`\(name)`"), "\(field.key): \(name)") } }
        }
        let documented = rows.compactMap { $0.dropFirst(3).split(separator: "`").first.map(String.init) }
        let known = Set(TraceKind.allCases.map(\.name) + TraceField.allCases.map(\.key) + TraceLines.keys)
        #expect(documented.filter { !known.contains($0) } == [])
    }

    @Test("the report's traced day is the first traced device's busiest, and its chart has a row for connectivity, mail and three for each strategy")
    func tracedDayIsTheBusiest() throws {
        let (result, trace) = Self.traced
        let day = try #require(TraceDay(trace: trace, scenario: Self.scenario, strategies: result.strategies))
        #expect(day.device == 2)
        var perDay = [Int](repeating: 0, count: Self.scenario.dayCount)
        for story in trace.stories where story.device == 2 {
            for event in story.events where event.app == 0 && event.kind != .outcome { perDay[Int(event.time / TimeUnit.day)] += 1 }
        }
        #expect(day.day == perDay.firstIndex(of: perDay.max()!) && day.events == perDay.max())
        #expect(day.chart.rows.count == 2 + 3 * result.strategies.count)
        #expect(day.note.hasPrefix("Device 2"))
        #expect(TraceDay(trace: .none, scenario: Self.scenario, strategies: result.strategies) == nil)
    }
}
