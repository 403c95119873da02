@testable import Base
import Testing

@Suite("Scalar replacement")
struct ScalarReplacementTests {
    @Test("every occurrence of the scalar is replaced, at the ends and side by side; other text stays")
    func replacesEvery() {
        #expect("a_b__c_".replacing(every: "_", with: " ") == "a b  c ")
        #expect("'it''s'".replacing(every: "'", with: "'\\''") == "'\\''it'\\'''\\''s'\\''")
        #expect("".replacing(every: "\"", with: "\"\"") == "")
        #expect("no quote".replacing(every: "\"", with: "\"\"") == "no quote")
    }

    @Test("a quote before a combining accent is replaced too: one Character, two scalars")
    func comparesScalars() {
        #expect("x\"\u{301}y".replacing(every: "\"", with: "\"\"") == "x\"\"\u{301}y")
    }
}
