@testable import HTTP2
import Testing

/// `StreamMap`: open addressing with backward-shift deletion. Random operations must
/// leave it holding what a Dictionary holds, through growth and removals in the middle of
/// probe runs.
@Suite("Stream maps")
struct StreamMapTests {
    @Test("random inserts, updates and removals agree with a Dictionary, whatever the identifiers",
          arguments: [1, 64, 1 << 20])
    func agreesWithDictionary(spread: Int) {
        var generator = SplitMix(seed: UInt64(spread))
        var map = StreamMap<Int>()
        var model: [StreamID: Int] = [:]
        for step in 0..<20_000 {
            let id = StreamID(UInt32(1 + Int(generator.next() % UInt64(spread * 2))) | 1)
            switch generator.next() % 4 {
            case 0, 1:
                #expect(map.updateValue(step, forKey: id) == model.updateValue(step, forKey: id))
            case 2:
                #expect(map.removeValue(forKey: id) == model.removeValue(forKey: id))
            default:
                map[id] = nil
                model[id] = nil
            }
            #expect(map[id] == model[id] && map.count == model.count)
            if step % 997 == 0 {
                #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }) == model)
                #expect(Set(map.keys) == Set(model.keys) && map.isEmpty == model.isEmpty)
            }
        }
        map.removeAll()
        #expect(map.isEmpty && map[1] == nil && Array(map).isEmpty)
    }

    @Test("identifiers that share a home slot stay findable when one in the middle of their run goes")
    func collisions() {
        var map = StreamMap<UInt32>()
        // Identifiers 2^k apart, odd: many share the low bits the table keeps.
        let ids = (0..<40).map { StreamID(UInt32(1 + ($0 << 16))) }
        for id in ids { map[id] = id.rawValue }
        for (index, id) in ids.enumerated() where index % 3 == 1 { map[id] = nil }
        for (index, id) in ids.enumerated() { #expect(map[id] == (index % 3 == 1 ? nil : id.rawValue)) }
        #expect(map.count == ids.count - ids.indices.filter { $0 % 3 == 1 }.count)
        #expect(map[.connection] == nil && map.removeValue(forKey: 3) == nil)
    }
}
