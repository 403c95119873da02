@testable import Base
import Testing

/// The pretty-printer the generated JSON Schema is written through.
@Suite("JSON text: pretty-printing")
struct JSONTextTests {
    @Test("members and items one a line, two spaces a level, ': ' after keys")
    func indents() {
        let compact = JSONText.object([("a", "1"), ("b", JSONText.array(["true", JSONText.object([("c", "null")])]))])
        #expect(JSONText.pretty(compact) == """
        {
          "a": 1,
          "b": [
            true,
            {
              "c": null
            }
          ]
        }
        """)
    }

    @Test("empty objects and arrays stay on their line")
    func empty() {
        #expect(JSONText.pretty(#"{"a":{},"b":[]}"#) == "{\n  \"a\": {},\n  \"b\": []\n}")
        #expect(JSONText.pretty("[]") == "[]")
    }

    @Test("strings are copied as written: braces, commas, colons, escaped quotes and backslashes inside them")
    func stringsUntouched() {
        let text = JSONText.string(#"{a, b: "c" \ [d]}"#)
        #expect(JSONText.pretty(JSONText.array([text, "1"])) == "[\n  " + text + ",\n  1\n]")
    }

    @Test("the pretty text parses to the same values as the compact text")
    func sameValues() throws {
        let compact = JSONText.object([("x", JSONText.string("σ → \"q\"")), ("y", JSONText.array(["1", "2.5", "-3"]))])
        let pretty = try JSONParser.parse(JSONText.pretty(compact))
        guard case .object(let object) = pretty.value else { Issue.record("not an object"); return }
        #expect(object["x"]?.value == .string("σ → \"q\""))
        guard case .array(let items)? = object["y"]?.value else { Issue.record("no array"); return }
        #expect(items.count == 3)
    }
}
