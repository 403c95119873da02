@testable import Base
import Testing

/// "Did you mean": edit distances and the nearest declared names.
@Suite("Nearest names")
struct NearestNamesTests {
    @Test("the distance counts insertions, deletions, substitutions and a swap of neighbours once each, ignoring case", arguments: [
        ("run", "run", 0), ("rnu", "run", 1), ("duraton", "duration", 1), ("perday", "perDay", 0),
        ("repeatMaxCont", "repeatMaxCount", 1), ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(NearestNames.distance(a, b) == expected)
        #expect(NearestNames.distance(b, a) == expected)
    }

    @Test("the nearest within a third of the name's length, ties in the candidates' order; none for a name far from all")
    func nearest() {
        #expect(NearestNames.nearest(to: "rnu", among: ["run", "validate", "merge"]) == ["run"])
        #expect(NearestNames.nearest(to: "ofline", among: ["online", "offline", "offlineWindows"]) == ["online", "offline"])
        #expect(NearestNames.nearest(to: "length", among: ["name", "duration", "devices"]).isEmpty)
        #expect(NearestNames.nearest(to: "run", among: ["run", "rub"]).isEmpty)
        // A name of a megabyte is compared with nothing: no candidate is near its length.
        #expect(NearestNames.nearest(to: String(repeating: "x", count: 1 << 20), among: ["name"]).isEmpty)
    }

    @Test("the suggestion reads as a question, one name or several")
    func didYouMean() {
        #expect(NearestNames.didYouMean([]) == "")
        #expect(NearestNames.didYouMean(["run"]) == "; did you mean run?")
        #expect(NearestNames.didYouMean(["a", "b", "c"]) == "; did you mean a, b or c?")
    }
}
