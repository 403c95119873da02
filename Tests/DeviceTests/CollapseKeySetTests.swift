@testable import Base
@testable import Device
import Testing

@Suite("Collapse key set")
struct CollapseKeySetTests {
    @Test("inserts answer as Set's do, through growth, for keys with equal low bits and for 0")
    func behavesLikeSet() {
        var set = CollapseKeySet()
        var reference = Set<UInt64>()
        var random = SplitMix64(seed: 3)
        // Keys from a small pool (many repeats), shifted so their low bits collide, plus 0.
        let pool = (0..<600).map { _ in random.next() << 20 } + [0]
        for _ in 0..<3000 {
            let key = pool[Int(random.next() % UInt64(pool.count))]
            let inserted = set.insert(key)
            #expect(inserted == reference.insert(key).inserted)
        }
        #expect(set.count == reference.subtracting([0]).count)
        #expect(reference.count > 500)
    }

    @Test("removals answer as Set's do, keys that probed past a removed one stay found, and 0 goes too")
    func removesLikeSet() {
        var set = CollapseKeySet()
        var reference = Set<UInt64>()
        var random = SplitMix64(seed: 8)
        // Low bits equal, so keys crowd the same slots and removals must shift the probes behind them.
        let pool = (0..<300).map { _ in random.next() << 24 } + [0]
        for step in 0..<20_000 {
            let key = pool[Int(random.next() % UInt64(pool.count))]
            if step % 3 == 0 {
                let removed = set.remove(key)
                #expect(removed == (reference.remove(key) != nil))
            } else {
                let inserted = set.insert(key)
                #expect(inserted == reference.insert(key).inserted)
            }
        }
        #expect(set.count == reference.subtracting([0]).count)
        // Every key still held is found (inserting it again answers false), every other is not.
        for key in pool {
            let inserted = set.insert(key)
            #expect(inserted == !reference.contains(key))
        }
    }

    @Test("removeAll forgets every key, 0 included, and the set works again")
    func removeAllForgets() {
        var set = CollapseKeySet()
        for key in UInt64(0)..<200 {
            let inserted = set.insert(key)
            #expect(inserted)
        }
        let again = (set.insert(0), set.insert(199))
        #expect(!again.0 && !again.1)
        set.removeAll()
        #expect(set.count == 0)
        var insertedAll = true
        for key in UInt64(0)..<200 { insertedAll = set.insert(key) && insertedAll }
        #expect(insertedAll)
        #expect(set.count == 199)
    }
}
