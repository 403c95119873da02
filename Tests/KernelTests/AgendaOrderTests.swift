@testable import Base
@testable import Kernel
import Testing

/// A timeline of labelled instants, handed out `window` entries at a time.
private struct Script: TimelineDraw {
    var entries: [Timed<String>]
    var next = 0
    var isFinished: Bool { next == entries.count }
    mutating func fill(_ buffer: inout ContiguousArray<Timed<String>>, upTo capacity: Int) {
        while buffer.count < capacity, next < entries.count { buffer.append(entries[next]); next += 1 }
    }
}

/// The kernel on its own, with occurrences and messages that are plain strings: its key
/// (time, source, sequence) needs nothing of the domain.
struct AgendaOrderTests {
    private func drain(_ agenda: inout Agenda<String, Script>, before end: SimTime = .max,
                       onEach: (inout Agenda<String, Script>, String) -> Void = { _, _ in }) -> [String] {
        var seen: [String] = []
        while let item = agenda.next(before: end) {
            let label: String
            switch item {
            case .message(let message): label = "m:" + message
            case .occurrence(let occurrence): label = "t:" + occurrence
            }
            seen.append("\(agenda.now) \(label)")
            onEach(&agenda, label)
        }
        return seen
    }

    @Test func aTriedSendIsTheSendWhenASlotWrittenBeforeIsFreeAndSendsNothingOtherwise() {
        // Each occurrence sends five messages, each tried first and sent the usual way only
        // when the try refuses: the order handed out is the one of sending each.
        var tries = (sent: 0, refused: 0)
        func play(trying: Bool) -> [String] {
            var agenda = Agenda<String, Script>()
            agenda.start(timeline: [Timed(time: 5, event: "a"), Timed(time: 9, event: "b"), Timed(time: 30, event: "c")])
            return drain(&agenda) { agenda, label in
                guard label.hasPrefix("t:") else { return }
                for (offset, delay) in [4, 0, 2, 0, 7].enumerated() {
                    let message = "\(label)+\(offset)"
                    let now = agenda.now
                    let sent = trying && (delay == 0 ? agenda.trySendNow(message) : agenda.trySend(message, arrivingAt: now + SimTime(delay)))
                    if trying { if sent { tries.sent += 1 } else { tries.refused += 1 } }
                    if !sent { delay == 0 ? agenda.sendNow(message) : agenda.send(message, arrivingAt: now + SimTime(delay)) }
                }
            }
        }
        let sent = play(trying: false)
        #expect(play(trying: true) == sent)
        #expect(sent.count == 3 + 15)
        // The first occurrence found no slot written; the later ones found those it wrote.
        #expect(tries.refused >= 5 && tries.sent >= 5)
    }

    @Test func atOneInstantZeroTimeMessagesThenTheTimelineThenMessagesInFlight() {
        var agenda = Agenda<String, Script>()
        agenda.start(timeline: [Timed(time: 5, event: "a"), Timed(time: 5, event: "b"), Timed(time: 9, event: "c")])
        agenda.send("late", arrivingAt: 5)
        agenda.send("first", arrivingAt: 3)
        let seen = drain(&agenda) { agenda, label in
            if label == "t:a" { agenda.sendNow("now"); agenda.send("same-instant", arrivingAt: 5) }
        }
        #expect(seen == ["3 m:first", "5 t:a", "5 m:now", "5 t:b", "5 m:late", "5 m:same-instant", "9 t:c"])
    }

    @Test func aTimelineDrawnAWindowAtATimeIsHandedOutWhole() {
        let entries = (0..<10).map { Timed(time: SimTime($0 / 2), event: "e\($0)") }
        var whole = Agenda<String, Script>()
        whole.start(timeline: ContiguousArray(entries))
        var windowed = Agenda<String, Script>()
        windowed.start(drawing: Script(entries: entries), window: 3)
        #expect(drain(&windowed) == drain(&whole))
        #expect(drain(&windowed).isEmpty)
    }

    @Test func nextTimeTellsTheInstantOfWhatNextHandsOutWithoutHandingItOut() {
        var agenda = Agenda<String, Script>()
        agenda.start(drawing: Script(entries: [Timed(time: 4, event: "x"), Timed(time: 12, event: "z")]), window: 1)
        agenda.send("y", arrivingAt: 10)
        var seen: [SimTime] = []
        while let time = agenda.nextTime(), seen.count < 10 {
            #expect(agenda.nextTime() == time)
            seen.append(time)
            if case .occurrence("x")? = agenda.next(before: .max) { agenda.sendNow("now") }
        }
        #expect(seen == [4, 4, 10, 12])
        #expect(agenda.next(before: .max) == nil)
    }

    @Test func nothingIsHandedOutAtOrAfterTheEnd() {
        var agenda = Agenda<String, Script>()
        agenda.start(timeline: [Timed(time: 4, event: "x")])
        agenda.send("y", arrivingAt: 10)
        #expect(drain(&agenda, before: 10) == ["4 t:x"])
        #expect(agenda.messagesWaiting == 1)
        #expect(agenda.countMessages { $0 == "y" } == 1)
    }
}
