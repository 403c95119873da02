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

    /// An object of already rendered values laid out in lines for files people read and
    /// diff: the members of each group on one line (compact), the groups on lines of their
    /// own (a partial result: its header, its counters' names, one aggregate a line).
    /// - Complexity: O(total length).
    package static func object(lines: [[(String, String)]]) -> String {
        "{" + lines.filter { !$0.isEmpty }.map { $0.map(member).joined(separator: ",") }.joined(separator: ",\n") + "}"
    }

    /// An object of already rendered values, one member a line, indented two spaces with
    /// `": "` after the key (`run.json`); the values stay as rendered.
    /// - Complexity: O(total length).
    package static func objectOneMemberALine(_ members: [(String, String)]) -> String {
        "{\n" + members.map { "  " + string($0.0) + ": " + $0.1 }.joined(separator: ",\n") + "\n}"
    }

    /// An array of integers.
    /// - Complexity: O(total length).
    package static func integers(_ values: some Sequence<Int64>) -> String { array(values.map { String($0) }) }

    /// `"key":value`, the value already rendered.
    private static func member(_ pair: (String, String)) -> String { string(pair.0) + ":" + pair.1 }

    /// Compact JSON text (as this type writes it) re-indented for people: one member or
    /// item a line, two spaces a level, `": "` after keys, `{}` and `[]` kept empty.
    /// Strings are copied as they are.
    /// - Complexity: O(n) in the text's length.
    package static func pretty(_ compact: String) -> String {
        let scalars = Array(compact.unicodeScalars)
        var out = String.UnicodeScalarView()
        var depth = 0
        var inString = false, escaped = false
        func newline() {
            out.append("\n")
            out.append(contentsOf: String(repeating: "  ", count: depth).unicodeScalars)
        }
        for (index, scalar) in scalars.enumerated() {
            if inString {
                out.append(scalar)
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
                continue
            }
            switch scalar {
            case "\"":
                inString = true
                out.append(scalar)
            case "{", "[":
                out.append(scalar)
                let next = index + 1 < scalars.count ? scalars[index + 1] : " "
                if next != "}" && next != "]" {
                    depth += 1
                    newline()
                }
            case "}", "]":
                let previous = index > 0 ? scalars[index - 1] : " "
                if previous != "{" && previous != "[" {
                    depth -= 1
                    newline()
                }
                out.append(scalar)
            case ",":
                out.append(scalar)
                newline()
            case ":":
                out.append(contentsOf: ": ".unicodeScalars)
            case " ", "\n", "\r", "\t":
                break
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
