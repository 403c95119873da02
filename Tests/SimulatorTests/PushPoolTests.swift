@testable import FakeAPNs
@testable import Simulator
import Testing

@Suite("Push pool")
struct PushPoolTests {
    private func push(_ message: Int32) -> PushNotification {
        PushNotification(token: DeviceToken(0), payload: PushPayload(messageIndex: message, byteCount: 100))
    }

    @Test("a parked push is read back from its slot, and taking it returns the push with its attempt number")
    func parkedPushesAreKeptBySlot() {
        var pool = PushPool()
        let first = pool.park(push(1), attempt: 0)
        let second = pool.park(push(2), attempt: 2)
        #expect(first != second)
        #expect(pool[first].payload.messageIndex == 1)
        #expect(pool[second].payload.messageIndex == 2)
        let taken = pool.take(second)
        #expect(taken.push.payload.messageIndex == 2 && taken.attempt == 2)
        #expect(pool[first].payload.messageIndex == 1)
        let other = pool.take(first)
        #expect(other.push.payload.messageIndex == 1 && other.attempt == 0)
    }

    @Test("taken and freed slots are reused, the last freed first, so the pool never outgrows the pushes in flight")
    func freedSlotsAreReused() {
        var pool = PushPool()
        let slots = (0..<3).map { pool.park(push($0), attempt: 0) }
        #expect(slots == [0, 1, 2])
        _ = pool.take(slots[0])
        pool.free(slots[2])
        // The free list is a stack: slot 2, then slot 0, then a new one.
        let reused = (10..<13).map { pool.park(push(Int32($0)), attempt: Int32($0)) }
        #expect(reused == [2, 0, 3])
        // A reused slot gives back the new push and the new attempt, not the free-list link.
        #expect(pool.take(2) == (push(10), 10))
        #expect(pool.take(0) == (push(11), 11))
        #expect(pool.take(1) == (push(1), 0))
        // Many trips through one slot: still slot 0 every time.
        var pool2 = PushPool()
        for message in 0..<1000 {
            let slot = pool2.park(push(Int32(message)), attempt: 1)
            #expect(slot == 0)
            #expect(pool2.take(slot).push.payload.messageIndex == Int32(message))
        }
    }

    @Test("removeAll forgets parked and free slots: numbering starts at 0 again")
    func removeAllStartsOver() {
        var pool = PushPool()
        _ = pool.park(push(1), attempt: 0)
        let slot = pool.park(push(2), attempt: 0)
        _ = pool.take(slot)
        pool.removeAll()
        #expect(pool.park(push(3), attempt: 1) == 0)
        #expect(pool.park(push(4), attempt: 1) == 1)
    }
}
