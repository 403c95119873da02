/// The one JSON writer: pieces of JSON text (a push's payload, `run.json`, `result.json`,
/// partial results, `--format json`): keys in a fixed order, numbers as Swift's shortest
/// round-trip text, unknown numbers as `null`.
package enum JSONText {
    /// A string literal.
    /// - Complexity: O(n) in the text's length.
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A number, or `null` when it is not finite (a standard error not computed).
    /// - Complexity: O(1).
    package static func number(_ value: Double) -> String { value.isFinite ? String(value) : "null" }

    /// `null` or the value rendered.
    /// - Complexity: that of `render`.
    package static func optional<Value>(_ value: Value?, _ render: (Value) -> String) -> String { value.map(render) ?? "null" }

    /// `[low, high]`, or `null`.
    /// - Complexity: O(1).
    package static func interval(_ interval: ClosedRange<Double>?) -> String {
        optional(interval) { "[" + number($0.lowerBound) + "," + number($0.upperBound) + "]" }
    }

    /// An array of already rendered items.
    /// - Complexity: O(total length).
    package static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// An object of already rendered values, keys in the order given.
    /// - Complexity: O(total length).
    package static func object(_ members: KeyValuePairs<String, String>) -> String {
        object(members.map { ($0.key, $0.value) })
    }

    /// An object of already rendered values, keys in the order given.
    /// - Complexity: O(total length).
    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
