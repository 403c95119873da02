import Provider

/// Pieces of the JSON `run.json` and `--format json` print: keys in a fixed order,
/// numbers as Swift's shortest round-trip text, unknown numbers as `null`.
enum JSONText {
    /// A string literal.
    /// - Complexity: O(n) in the text's length.
    static func string(_ text: String) -> String { jsonStringLiteral(text) }

    /// A number, or `null` when it is not finite (a standard error not computed).
    /// - Complexity: O(1).
    static func number(_ value: Double) -> String { value.isFinite ? String(value) : "null" }

    /// `null` or the value rendered.
    /// - Complexity: that of `render`.
    static func optional<Value>(_ value: Value?, _ render: (Value) -> String) -> String { value.map(render) ?? "null" }

    /// `[low, high]`, or `null`.
    /// - Complexity: O(1).
    static func interval(_ interval: ClosedRange<Double>?) -> String {
        optional(interval) { "[" + number($0.lowerBound) + "," + number($0.upperBound) + "]" }
    }

    /// An array of already rendered items.
    /// - Complexity: O(total length).
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// An object of already rendered values, keys in the order given.
    /// - Complexity: O(total length).
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        object(members.map { ($0.key, $0.value) })
    }

    /// An object of already rendered values, keys in the order given.
    /// - Complexity: O(total length).
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An estimate as `{"value":…,"se":…,"interval":[…]|null}` at `confidence`.
    /// - Complexity: O(1).
    static func estimate(_ estimate: Estimate, confidence: Double) -> String {
        object(["value": number(estimate.value), "se": number(estimate.standardError),
                "interval": interval(estimate.interval(confidence: confidence))])
    }
}
