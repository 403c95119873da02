import Base
import Testing

@Suite("Stable hashes of ids")
struct StableHashTests {
    @Test("FNV-1a 64 gives the published values (the empty string, \"a\", \"foobar\")")
    func publishedVectors() {
        #expect(StableHash.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("the mixed hash is SplitMix64's finaliser of FNV-1a")
    func mixedIsTheFinaliserOfFNV() {
        #expect(StableHash.mixed("user-1") == SplitMix64.mix(StableHash.fnv1a("user-1")))
        #expect(StableHash.mixed("user-1") != StableHash.mixed("user-2"))
    }
}
