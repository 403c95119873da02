import FakeAPNs
import Testing
@testable import Device

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
