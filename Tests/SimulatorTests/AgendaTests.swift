@testable import Base
@testable import Kernel
@testable import Simulator
import Testing

@Suite("Agenda: one key (time, phase, sequence) for everything a world does")
struct AgendaTests {
    /// What the agenda handed out, as comparable values.
    enum Handed: Equatable {
        case message(Int)
        case occurrence(TimelinePhase, Int32)
    }

    private func handed(_ item: Agenda<Int, LaneDraw>.Item) -> Handed {
        switch item {
        case .message(let message): .message(message)
        case .occurrence(let event):
            if case .mail(let tag) = event { .occurrence(.mail, tag) } else { .occurrence(event.phase, -1) }
        }
    }

    private func drain(_ agenda: inout Agenda<Int, LaneDraw>, before end: SimTime = .max) -> [(SimTime, Handed)] {
        var out: [(SimTime, Handed)] = []
        while let item = agenda.next(before: end) { out.append((agenda.now, handed(item))) }
        return out
    }

    private func mail(_ tag: Int32, at time: SimTime) -> TimelineEntry { TimelineEntry(time: time, event: .mail(folder: tag)) }

    @Test("a new agenda hands out nothing and stays at time 0")
    func emptyAgenda() {
        var agenda = Agenda<Int, LaneDraw>()
        #expect(agenda.next(before: .max) == nil)
        #expect(agenda.now == 0)
        #expect(agenda.messagesWaiting == 0)
    }

    @Test("messages in flight for one instant come out in sending order, those sent at that instant last")
    func inFlightTiesKeepSendingOrder() {
        var agenda = Agenda<Int, LaneDraw>()
        agenda.start(timeline: [mail(0, at: 5)])
        for message in 0..<100 { agenda.send(message, arrivingAt: 7) }
        var got: [Handed] = []
        while let item = agenda.next(before: .max) {
            got.append(handed(item))
            // At 7, the first message sends two more for 7 itself: after the 99 sent earlier.
            if case .message(0) = item { agenda.send(100, arrivingAt: 7); agenda.send(101, arrivingAt: 7) }
        }
        #expect(got == [.occurrence(.mail, 0)] + (0..<102).map { Handed.message($0) })
        #expect(agenda.now == 7)
    }

    @Test("at one instant: zero-time messages, then the timeline by phase, then messages in flight")
    func phasesAtOneInstant() {
        var agenda = Agenda<Int, LaneDraw>()
        let timeline: ContiguousArray<TimelineEntry> = [
            TimelineEntry(time: 10, event: .launch), mail(1, at: 10),
            TimelineEntry(time: 10, event: .connectivity(online: false)), TimelineEntry(time: 10, event: .outage(down: true)),
        ]
        agenda.start(timeline: ContiguousArray(timeline.sorted(by: TimelineEntry.agendaOrder)))
        agenda.send(1, arrivingAt: 10)
        var got: [Handed] = []
        while let item = agenda.next(before: .max) {
            got.append(handed(item))
            // The outage's handler sends a zero-time message: it comes before the rest of the instant.
            if case .occurrence(.outage(down: true)) = item { agenda.sendNow(99) }
        }
        #expect(got == [.occurrence(.outage, -1), .message(99), .occurrence(.connectivity, -1),
                        .occurrence(.mail, 1), .occurrence(.launch, -1), .message(1)])
    }

    @Test("the timeline's order at one instant is the phases' declaration order, each source's order kept")
    func timelineOrderFollowsPhases() {
        let kinds: [TimelineEvent] = [.launch, .mail(folder: 0), .connectivity(online: true), .subscriptionChange,
                                      .tokenRotation(promptShown: false), .deviceIDChange(newID: 1), .outage(down: false)]
        var entries: [TimelineEntry] = kinds.map { TimelineEntry(time: 3, event: $0) }
        entries += [mail(7, at: 3), mail(8, at: 3)]
        let sorted = entries.sorted(by: TimelineEntry.agendaOrder)
        #expect(sorted.map(\.event.phase) == [.outage, .deviceIDChange, .tokenRotation, .subscriptionChange,
                                              .connectivity, .mail, .mail, .mail, .launch])
        let mailTags = sorted.compactMap { if case .mail(let tag) = $0.event { tag } else { nil } }
        #expect(mailTags == [0, 7, 8])
        // The key compares raw values: they must follow the declaration order.
        #expect(TimelinePhase.allCases.map(\.rawValue) == Array(0..<UInt8(TimelinePhase.allCases.count)))
    }

    @Test("random sends, zero-time sends and a timeline come out exactly as a reference model keyed (time, phase, sequence)")
    func randomScheduleMatchesTheKey() {
        var rng = SplitMix64(seed: 2026)
        // The timeline: random instants with many ties, sorted as UserTimeline sorts it.
        var drawn: [TimelineEntry] = []
        for tag in 0..<400 {
            let time = SimTime(rng.next() % 600)
            drawn.append(rng.next() % 2 == 0 ? mail(Int32(tag), at: time)
                                             : TimelineEntry(time: time, event: .outage(down: tag % 2 == 0)))
        }
        let timeline = ContiguousArray(drawn.sorted(by: TimelineEntry.agendaOrder))
        struct Key: Comparable {
            // phase: 0 zero-time, 1 + the timeline's phase, then in flight: the kernel's sources.
            var time: SimTime, phase: UInt8, sequence: Int
            static func < (a: Key, b: Key) -> Bool { (a.time, a.phase, a.sequence) < (b.time, b.phase, b.sequence) }
        }
        var model: [(key: Key, handed: Handed)] = timeline.enumerated().map { index, entry in
            let tag: Int32 = if case .mail(let tag) = entry.event { tag } else { -1 }
            return (Key(time: entry.time, phase: 1 + entry.event.phase.rawValue, sequence: index),
                    .occurrence(entry.event.phase, tag))
        }
        var agenda = Agenda<Int, LaneDraw>()
        agenda.start(timeline: timeline)
        var sequence = 0
        var got: [(SimTime, Handed)] = [], want: [(SimTime, Handed)] = []
        var waitingAgrees = true
        for message in 0..<4_000 {
            switch rng.next() % 4 {
            case 0:
                agenda.sendNow(message)
                model.append((Key(time: agenda.now, phase: 0, sequence: sequence), .message(message)))
            case 1:
                let time = agenda.now + SimTime(rng.next() % 8)
                agenda.send(message, arrivingAt: time)
                model.append((Key(time: time, phase: 1 + UInt8(TimelinePhase.allCases.count), sequence: sequence), .message(message)))
            default:
                guard let index = model.indices.min(by: { model[$0].key < model[$1].key }) else { continue }
                let expected = model.remove(at: index)
                want.append((expected.key.time, expected.handed))
                guard let item = agenda.next(before: .max) else { break }
                got.append((agenda.now, handed(item)))
            }
            sequence += 1
            waitingAgrees = waitingAgrees
                && agenda.messagesWaiting == model.filter { if case .message = $0.handed { true } else { false } }.count
        }
        #expect(want.count > 1_000, "the schedule should exercise every operation")
        #expect(waitingAgrees)
        #expect(got.map(\.1) == want.map(\.1))
        #expect(got.map(\.0) == want.map(\.0))
        let rest = drain(&agenda)
        #expect(rest.map(\.1) == model.sorted { $0.key < $1.key }.map(\.handed))
    }

    @Test("next(before:) hands out nothing at or after the end, from any source, and leaves it waiting")
    func endIsExclusive() {
        var agenda = Agenda<Int, LaneDraw>()
        agenda.start(timeline: [mail(1, at: 10), mail(2, at: 20)])
        agenda.send(1, arrivingAt: 15)
        agenda.send(2, arrivingAt: 20)
        #expect(drain(&agenda, before: 20).map(\.1) == [.occurrence(.mail, 1), .message(1)])
        #expect(agenda.now == 15)
        #expect(agenda.messagesWaiting == 1)
        #expect(drain(&agenda).map(\.0) == [20, 20])
    }

    @Test("start(timeline:) forgets what was waiting: time 0, nothing in flight, sending order afresh")
    func startForgetsEverything() {
        var agenda = Agenda<Int, LaneDraw>()
        agenda.start(timeline: [mail(1, at: 4)])
        agenda.send(1, arrivingAt: 9)
        agenda.sendNow(2)
        _ = agenda.next(before: .max)
        agenda.start(timeline: [])
        #expect(agenda.now == 0 && agenda.messagesWaiting == 0)
        agenda.send(3, arrivingAt: 5)
        agenda.send(4, arrivingAt: 5)
        #expect(drain(&agenda).map(\.1) == [.message(3), .message(4)])
    }

    @Test("countMessages counts the matching messages of every store: zero-time, same-instant and later")
    func countMessagesSeesEveryStore() {
        var agenda = Agenda<Int, LaneDraw>()
        agenda.start(timeline: [mail(0, at: 3)])
        _ = agenda.next(before: .max)  // now = 3
        agenda.sendNow(10)
        agenda.send(11, arrivingAt: 3)
        agenda.send(12, arrivingAt: 8)
        agenda.send(13, arrivingAt: 9)
        #expect(agenda.countMessages { $0 >= 11 } == 3)
        #expect(agenda.countMessages { $0 % 2 == 0 } == 2)
        #expect(agenda.messagesWaiting == 4)
    }

    @Test("the test build checks the kernel's invariants (PUSHSIM_INVARIANTS is set)")
    func invariantChecksAreOnInTests() {
        #expect(InFlightHeap<Int>.checksInvariants, "debug builds define PUSHSIM_INVARIANTS (Package.swift)")
        var heap = InFlightHeap<Int>()
        for value in 0..<50 { heap.insert(value, at: SimTime(50 - value)) }
        #expect(heap.removeFirst().message == 49)
    }
}

@Suite("FIFO")
struct FIFOTests {
    @Test("keeps first-in first-out order while slots are reused across refills")
    func orderAcrossReuse() {
        var fifo = FIFO<Int>()
        var out: [Int] = []
        for round in 0..<5 {
            for value in 0..<(round + 2) { fifo.append(round * 10 + value) }
            out.append(fifo.popFirst()!)
            while let value = fifo.popFirst() { out.append(value) }
        }
        #expect(out == (0..<5).flatMap { round in (0..<(round + 2)).map { round * 10 + $0 } })
        #expect(fifo.isEmpty && fifo.popFirst() == nil)
    }
}
