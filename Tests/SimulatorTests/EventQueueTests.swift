import FakeAPNs
import Testing
@testable import Simulator

@Suite("Event queue")
struct EventQueueTests {
    /// Pops everything up to `limit`, returning (time, event) pairs in pop order.
    private func drain<E>(_ queue: inout EventQueue<E>, notAfter limit: SimTime = .max) -> [(SimTime, E)] {
        var popped: [(SimTime, E)] = []
        while let next = queue.popNext(notAfter: limit) { popped.append((next.time, next.event)) }
        return popped
    }

    @Test("a new queue is empty at time 0 and pops nothing")
    func newQueueIsEmpty() {
        var queue = EventQueue<Int>()
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        #expect(queue.now == 0)
        #expect(queue.popNext(notAfter: .max) == nil)
        #expect(queue.now == 0)
    }

    @Test("events scheduled for the same instant come out in insertion order")
    func tiesKeepInsertionOrder() {
        var queue = EventQueue<Int>()
        for event in 0..<200 { queue.schedule(event, at: 7) }
        #expect(queue.count == 200)
        let popped = drain(&queue)
        #expect(popped.map(\.1) == Array(0..<200))
        #expect(popped.allSatisfy { $0.0 == 7 })
        #expect(queue.isEmpty)
    }

    @Test("earlier times come out first whatever the insertion order")
    func earlierTimesFirst() {
        var queue = EventQueue<String>()
        queue.schedule("c", at: 30)
        queue.schedule("a", at: 10)
        queue.schedule("d", at: 40)
        queue.schedule("b", at: 20)
        queue.schedule("a2", at: 10)
        let popped = drain(&queue)
        #expect(popped.map(\.1) == ["a", "a2", "b", "c", "d"])
        #expect(popped.map(\.0) == [10, 10, 20, 30, 40])
    }

    @Test("a random schedule pops in the order of a stable sort by (time, insertion)")
    func randomScheduleMatchesStableSort() {
        var rng = SplitMix64(seed: 0x5EED)
        var queue = EventQueue<Int>()
        // Few distinct times, so most events tie with others.
        var times: [SimTime] = []
        for event in 0..<2_000 {
            let time = SimTime(rng.next() % 64)
            times.append(time)
            queue.schedule(event, at: time)
        }
        let expected = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        let popped = drain(&queue)
        #expect(popped.map(\.1) == expected)
        #expect(popped.map(\.0) == expected.map { times[$0] })
    }

    @Test("interleaved schedules and pops match a reference model ordered by (time, insertion)")
    func interleavedScheduleMatchesModel() {
        var rng = SplitMix64(seed: 2026)
        var queue = EventQueue<Int>()
        // The model: every waiting (time, insertion number), popped by linear search.
        var model: [(time: SimTime, sequence: Int)] = []
        var nextEvent = 0
        var got: [(SimTime, Int)] = [], want: [(SimTime, Int)] = []
        var nowAfterPop: [SimTime] = []
        var countsAgree = true
        for _ in 0..<3_000 {
            if rng.next() % 3 != 0 || model.isEmpty {
                // Never before `now`; ties with `now` and with each other are common.
                let time = queue.now + SimTime(rng.next() % 16)
                queue.schedule(nextEvent, at: time)
                model.append((time, nextEvent))
                nextEvent += 1
            } else {
                let index = model.indices.min { (model[$0].time, model[$0].sequence) < (model[$1].time, model[$1].sequence) }!
                let expected = model.remove(at: index)
                want.append((expected.time, expected.sequence))
                guard let popped = queue.popNext(notAfter: .max) else { break }
                got.append(popped)
                nowAfterPop.append(queue.now)
            }
            countsAgree = countsAgree && queue.count == model.count
        }
        #expect(countsAgree)
        #expect(want.count > 500, "the schedule should exercise both operations")
        #expect(got.map(\.1) == want.map(\.1))
        #expect(got.map(\.0) == want.map(\.0))
        #expect(nowAfterPop == want.map(\.0))
        let rest = drain(&queue)
        let wantRest = model.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        #expect(rest.map(\.1) == wantRest.map(\.sequence))
        #expect(rest.map(\.0) == wantRest.map(\.time))
    }

    @Test("now advances to each popped time, and popNext(notAfter:) stops at the limit inclusively")
    func nowAdvancesAndLimitStops() {
        var queue = EventQueue<String>()
        queue.schedule("ten", at: 10)
        queue.schedule("twenty", at: 20)
        queue.schedule("thirty", at: 30)

        #expect(queue.popNext(notAfter: 9) == nil)
        #expect(queue.now == 0)
        #expect(queue.count == 3)

        let first = queue.popNext(notAfter: 15)
        #expect(first?.time == 10 && first?.event == "ten")
        #expect(queue.now == 10)

        // The next event lies after the limit: nothing is removed, time does not move.
        #expect(queue.popNext(notAfter: 19) == nil)
        #expect(queue.now == 10)
        #expect(queue.count == 2)

        // The limit is inclusive.
        let second = queue.popNext(notAfter: 20)
        #expect(second?.time == 20 && second?.event == "twenty")
        #expect(queue.now == 20)

        // Scheduling at `now` is allowed and runs before later events.
        queue.schedule("again at twenty", at: 20)
        let third = queue.popNext(notAfter: .max)
        #expect(third?.time == 20 && third?.event == "again at twenty")
        let fourth = queue.popNext(notAfter: .max)
        #expect(fourth?.time == 30 && fourth?.event == "thirty")
        #expect(queue.now == 30)
        #expect(queue.popNext(notAfter: .max) == nil)
        #expect(queue.now == 30)
    }

    @Test("countPending counts exactly the waiting events that match, in the heap and in the same-instant FIFO")
    func countPendingCountsTheWaitingOnes() {
        var queue = EventQueue<Int>()
        for event in 0..<10 { queue.schedule(event, at: SimTime(100 - event)) }
        _ = queue.popNext(notAfter: .max)   // 9 at time 91
        _ = queue.popNext(notAfter: .max)   // 8 at time 92
        queue.schedule(20, at: queue.now)   // same instant: the FIFO
        queue.schedule(21, at: queue.now)
        #expect(queue.countPending { _ in true } == 10)
        #expect(queue.countPending { $0 % 2 == 0 } == 5)   // 0, 2, 4, 6, 20
        #expect(queue.countPending { $0 >= 20 } == 2)
        _ = queue.popNext(notAfter: .max)   // 20 leaves the FIFO
        #expect(queue.countPending { $0 >= 20 } == 1)
    }

    @Test("reset keeps nothing: no events, time 0, and tie order starts afresh")
    func resetKeepsNothing() {
        var queue = EventQueue<Int>()
        for event in 0..<50 { queue.schedule(event, at: SimTime(event % 5) * 100) }
        for _ in 0..<20 { _ = queue.popNext(notAfter: .max) }
        #expect(queue.now > 0)

        queue.reset()
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        #expect(queue.now == 0)
        #expect(queue.countPending { _ in true } == 0)
        #expect(queue.popNext(notAfter: .max) == nil)

        // Time 0 is schedulable again, and ties still follow insertion order.
        for event in [7, 3, 5] { queue.schedule(event, at: 0) }
        queue.schedule(1, at: 1)
        let popped = drain(&queue)
        #expect(popped.map(\.1) == [7, 3, 5, 1])
        #expect(popped.map(\.0) == [0, 0, 0, 1])
    }

    @Test("nextTime is now while zero-delay events wait, else the heap's earliest, else max")
    func nextTimeSeesBothQueues() {
        var queue = EventQueue<Int>()
        #expect(queue.nextTime == .max)
        queue.schedule(1, at: 50)
        queue.schedule(2, at: 20)
        #expect(queue.nextTime == 20)
        #expect(queue.popNext(notAfter: .max)?.event == 2)
        queue.schedule(3, at: 20)  // zero delay at now = 20
        #expect(queue.nextTime == 20)
        #expect(queue.popNext(notAfter: .max)?.event == 3)
        #expect(queue.nextTime == 50)
    }

    @Test("advance(to:) moves the clock for a merged timeline: later zero-delay events count from there")
    func advanceMovesTheClock() {
        var queue = EventQueue<Int>()
        queue.schedule(1, at: 100)
        queue.advance(to: 40)
        #expect(queue.now == 40)
        queue.schedule(2, at: 40)  // at the new now: served before the heap's later event
        queue.schedule(3, at: 60)
        queue.advance(to: 40)      // staying put is allowed
        let popped = drain(&queue)
        #expect(popped.map(\.1) == [2, 3, 1])
        #expect(popped.map(\.0) == [40, 60, 100])
    }

    @Test("the zero-delay FIFO keeps order across instants when its slots are reused")
    func zeroDelaySlotsAreReused() {
        var queue = EventQueue<Int>()
        var expected: [Int] = []
        var popped: [Int] = []
        for instant in 0..<20 {
            let time = SimTime(instant) * 10
            queue.advance(to: time)
            // A varying number of zero-delay events per instant, some scheduled while popping.
            for event in 0..<(instant % 4 + 1) {
                queue.schedule(instant * 100 + event, at: time)
                expected.append(instant * 100 + event)
            }
            #expect(queue.count == instant % 4 + 1)
            if let first = queue.popNext(notAfter: .max) {
                popped.append(first.event)
                queue.schedule(instant * 100 + 99, at: time)
                expected.append(instant * 100 + 99)
            }
            while let next = queue.popNext(notAfter: .max) { popped.append(next.event) }
            #expect(queue.isEmpty)
        }
        #expect(popped == expected)
    }
}
