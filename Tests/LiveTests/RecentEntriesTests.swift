import Base
@testable import Live
import Testing

@Suite("The ring of a device app's latest entries")
struct RecentEntriesTests {
    @Test("keeps what an array kept with removeFirst when full, over 20,000 random appends and removals")
    func agreesWithAnArray() {
        for capacity in [1, 2, 5, 32] {
            var random = SplitMix64(seed: UInt64(capacity))
            var ring = RecentEntries<Int>(capacity: capacity)
            var array: [Int] = []
            for step in 0..<20_000 {
                if !array.isEmpty && random.next() % 5 == 0 {
                    let index = Int(random.next() % UInt64(array.count))
                    ring.remove(at: index)
                    array.remove(at: index)
                } else {
                    if array.count == capacity { array.removeFirst() }
                    array.append(step)
                    ring.append(step)
                }
                #expect(Array(ring) == array)
                if Array(ring) != array { return }
            }
            #expect(Array(ring.reversed()) == array.reversed())
        }
    }

    @Test("an entry changed in place")
    func subscriptSets() {
        var ring = RecentEntries<Int>(capacity: 3)
        for value in 1...5 { ring.append(value) }
        ring[0] = 30
        #expect(Array(ring) == [30, 4, 5])
        #expect(ring.lastIndex(where: { $0 == 4 }) == 1)
    }
}
