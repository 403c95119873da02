import Base
import FakeAPNs
import Simulator

/// The report's picture of one traced device's day: its connectivity, the mail that
/// arrived, and for each strategy what APNs held and dropped, what reached the device
/// and what Notification Center showed. The device is the first traced (its first app);
/// the day is the one with the most happening for it (events over every strategy, the
/// earliest of equals), which the page says.
package struct TraceDay {
    package let device: Int
    /// The app shown, and how many the device has.
    package let app: Int32, apps: Int
    /// The day, 0-based from the scenario's start.
    package let day: Int
    /// Events of that day, over every strategy (the ledger's verdicts left out).
    package let events: Int
    package let chart: TimelineChart
    /// The sentence under the chart: which device and day, and why that day.
    package let note: String

    /// The picture of `trace`'s first device; nil without a trace.
    /// - Complexity: O(the device's events).
    package init?(trace: SimulationTrace, scenario: Scenario, strategies: [Strategy]) {
        guard let device = trace.devices.first else { return nil }
        let stories = trace.stories.filter { $0.device == device }
        let app: Int32 = 0
        self.device = device
        self.app = app
        apps = Set(stories.flatMap { $0.events.map(\.app) }).count
        // The day with the most happening: every event but the ledger's verdicts.
        var perDay = Array(repeating: 0, count: max(1, scenario.dayCount))
        for story in stories {
            for event in story.events where event.app == app && event.kind != .outcome {
                let day = Int(event.time / TimeUnit.day)
                if perDay.indices.contains(day) { perDay[day] += 1 }
            }
        }
        let busiest = perDay.max() ?? 0
        day = perDay.firstIndex(of: busiest) ?? 0
        events = busiest
        let date = scenario.start.adding(days: day)
        let dayName = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][date.weekday]
        let mails = stories.first?.events.filter { $0.app == app && $0.kind == .mailArrived }.count ?? 0
        let which = busiest == 0 ? "day 1: nothing happened on any day"
            : "its day with the most happening (\(Counted.phrase(busiest, "event")) over \(Counted.phrase(stories.count, "strategy", plural: "strategies"))"
              + (scenario.dayCount > 1 ? ", of \(Counted.phrase(scenario.dayCount, "day"))" : "") + ")"
        note = "Device \(device)"
            + (apps > 1 ? " (its first app, of \(apps))" : "")
            + ", \(dayName) \(date): \(which). It got \(Counted.phrase(mails, "mail")) over the run."
            + (trace.devices.count > 1 ? " The other traced devices are in trace.jsonl and trace.json." : "")
        chart = Self.chart(stories: stories, app: app, day: day, scenario: scenario, strategies: strategies,
                           title: "Device \(device) on \(dayName) \(date)")
    }

    /// Hours since the day's midnight.
    private static func hours(_ time: SimTime, dayStart: SimTime) -> Double { Double(time - dayStart) / Double(TimeUnit.hour) }

    /// The day drawn: its bounds, and where and when a time falls in it.
    private struct Window {
        let dayStart: SimTime, dayEnd: SimTime

        init(day: Int) {
            dayStart = SimTime(day) * TimeUnit.day
            dayEnd = dayStart + TimeUnit.day
        }

        func within(_ time: SimTime) -> Bool { time >= dayStart && time < dayEnd }
        func at(_ time: SimTime) -> Double { hours(time, dayStart: dayStart) }
        func clock(_ time: SimTime) -> String { TraceText.clock(time - dayStart) }
        func overlaps(_ span: TraceSpan) -> Bool { span.to > dayStart && span.from < dayEnd && span.to >= span.from }
    }

    private static let mailColour = "#333333", neutral = Palette.axis

    private static func chart(stories: [DeviceStory], app: Int32, day: Int, scenario: Scenario, strategies: [Strategy],
                              title: String) -> TimelineChart {
        let window = Window(day: day)
        let ticks = stride(from: 0, through: 24, by: 3).map { Tick(value: Double($0), label: ($0 < 10 ? "0" : "") + "\($0):00") }
        let axis = Axis(label: "time of day (\(scenario.start.adding(days: day)), local)", domain: 0...24, ticks: ticks)

        let first = stories.first.map { story in story.events.filter { $0.app == app } } ?? []
        let offline = TraceSpans.spans(of: first, end: scenario.duration).filter { $0.kind == .offline && window.overlaps($0) }
        var rows = deviceRows(first, offline: offline, window: window, scenario: scenario)
        for story in stories {
            rows += strategyRows(story.events.filter { $0.app == app }, label: strategies[story.strategy].label,
                                 colour: Palette.series(story.strategy), window: window, scenario: scenario)
        }

        var chart = TimelineChart(id: "trace-day", title: title, xAxis: axis, rows: rows)
        chart.shaded = offline.map { window.at(max($0.from, window.dayStart))...window.at(min($0.to, window.dayEnd)) }
        chart.shadedLabel = "offline"
        chart.legendEntries = stories.map { story in
            Legend.Entry(label: strategies[story.strategy].label, swatch: .box(colour: Palette.series(story.strategy)))
        } + legendOfMarks
        return chart
    }

    /// The rows the strategies share: when the device was online (connectivity is the
    /// device's: the same under every strategy), the rest of the day from its `offline`
    /// spans, and the mail that arrived.
    private static func deviceRows(_ first: [TraceEvent], offline: [TraceSpan], window: Window,
                                   scenario: Scenario) -> [TimelineChart.Row] {
        let (at, clock) = (window.at, window.clock)
        var online: [TimelineChart.Bar] = []
        var cursor = window.dayStart
        for span in offline {
            if span.from > cursor { online.append(.init(from: at(cursor), to: at(span.from), colour: neutral, note: "online from \(clock(cursor)) to \(clock(span.from))")) }
            cursor = max(cursor, span.to)
        }
        if cursor < min(window.dayEnd, scenario.duration) {
            online.append(.init(from: at(cursor), to: at(min(window.dayEnd, scenario.duration)), colour: neutral,
                                note: "online from \(clock(cursor)) to \(clock(min(window.dayEnd, scenario.duration)))"))
        }
        let mails = first.filter { $0.kind == .mailArrived && window.within($0.time) }.map { event in
            TimelineChart.Mark(at: at(event.time), marker: nil, colour: mailColour, filled: true,
                               note: "mail \(event.message) arrives at \(clock(event.time))")
        }
        return [TimelineChart.Row(label: "online", bars: online), TimelineChart.Row(label: "mail", marks: mails)]
    }

    /// A strategy's three rows from its `events`: what APNs held (bars) and dropped, what
    /// reached the device, and what Notification Center showed.
    private static func strategyRows(_ events: [TraceEvent], label: String, colour: String, window: Window,
                                     scenario: Scenario) -> [TimelineChart.Row] {
        let (at, clock, dayStart, dayEnd) = (window.at, window.clock, window.dayStart, window.dayEnd)
        let spans = TraceSpans.spans(of: events, end: scenario.duration)
        let held = spans.filter { ($0.kind == .stored || $0.kind == .heldForPower) && window.overlaps($0) }.map { span in
            TimelineChart.Bar(from: at(max(span.from, dayStart)), to: at(min(span.to, dayEnd)), colour: colour,
                              note: "message \(span.message) \(span.kind.title) \(clock(max(span.from, dayStart)))–"
                                  + "\(span.to >= dayEnd ? "after midnight" : clock(span.to))"
                                  + (span.ending.isEmpty ? "" : ": " + span.ending),
                              thin: span.kind == .heldForPower)
        }
        var dropped: [TimelineChart.Mark] = [], reached: [TimelineChart.Mark] = [], shown: [TimelineChart.Mark] = []
        for event in events where window.within(event.time) {
            let time = clock(event.time), message = event.message
            switch event.kind {
            case .apnsDiscarded:
                let reason = event.name(.discardReason) ?? ""
                // The loss each discard is counted as (`LossReason`'s one mapping, as the router counts it), for its colour.
                let loss = LossReason(event.value(.discardReason, as: APNsDiscardReason.self) ?? .unregistered)
                dropped.append(.init(at: at(event.time), marker: .cross, colour: Palette.lost(loss), filled: true,
                                     note: "message \(message) dropped by APNs at \(time): \(reason)"))
            case .deviceReceived:
                let resend = event.flag(.resend)
                reached.append(.init(at: at(event.time), marker: nil, colour: colour, filled: true,
                                     note: "message \(message)\(resend ? " (re-sent)" : "") reaches the device at \(time)"))
            case .bounced:
                reached.append(.init(at: at(event.time), marker: .triangleDown, colour: neutral, filled: false,
                                     note: "message \(message) found the device gone at \(time): back to APNs"))
            case .shown:
                let replaced = event.flag(.replaced)
                shown.append(.init(at: at(event.time), marker: .circle, colour: colour, filled: !replaced,
                                   note: "message \(message) shown at \(time)" + (replaced ? ", replacing its collapse id's entry" : "")
                                       + (event.name(.run).map { $0 == "ran" ? "" : " (extension: \($0))" } ?? "")))
            case .summaryShown:
                shown.append(.init(at: at(event.time), marker: .diamond, colour: Palette.summarized, filled: true,
                                   note: "\"you have missed messages\" at \(time), for positions "
                                       + "\(event.value(.fromPosition) ?? 0)–\(event.value(.toPosition) ?? 0)"))
            case .notShown:
                shown.append(.init(at: at(event.time), marker: .square, colour: Palette.pending, filled: false,
                                   note: "message \(message) not shown at \(time): \(event.name(.notShownReason) ?? "")"))
            case .mailArrived, .connectivityChanged, .launched, .tapped, .tokenRotated, .deviceIDChanged, .subscriptionChanged,
                 .providerOutage, .appUpdated, .steered, .dropped, .requestSent, .requestLost, .retryScheduled, .providerGaveUp,
                 .rerequestReceived, .rerequestServed, .positionsExpired, .registered, .subscriptionsSynced, .apnsAnswered,
                 .apnsStored, .apnsHeldForPower, .apnsDelivered, .gapDetected, .rerequestSent, .rerequestAnswerReceived,
                 .rerequestFailed, .positionSaved, .logUploaded, .outcome:
                break
            }
        }
        return [.init(label: label + " · APNs", bars: held, marks: dropped, startsGroup: true),
                .init(label: label + " · device", marks: reached),
                .init(label: label + " · shown", marks: shown)]
    }

    /// The legend's entries after the strategies': what each mark and bar means.
    private static let legendOfMarks: [Legend.Entry] = [
        .init(label: "mail arrives", swatch: .mark(nil, colour: mailColour, filled: true), newRow: true),
        .init(label: "held at APNs (bar)", swatch: .band(colour: neutral)),
        .init(label: "replaced at APNs", swatch: .mark(.cross, colour: Palette.lost(.apnsCoalesced), filled: true)),
        .init(label: "expired at APNs", swatch: .mark(.cross, colour: Palette.lost(.apnsExpired), filled: true)),
        .init(label: "reaches the device", swatch: .mark(nil, colour: neutral, filled: true)),
        .init(label: "bounced", swatch: .mark(.triangleDown, colour: neutral, filled: false)),
        .init(label: "shown", swatch: .mark(.circle, colour: neutral, filled: true), newRow: true),
        .init(label: "replaced via collapse id", swatch: .mark(.circle, colour: neutral, filled: false)),
        .init(label: "\"missed messages\" summary", swatch: .mark(.diamond, colour: Palette.summarized, filled: true)),
        .init(label: "not shown", swatch: .mark(.square, colour: Palette.pending, filled: false)),
    ]
}
