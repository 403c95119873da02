/// Prometheus's text exposition format, version 0.0.4 (prometheus.io, "Exposition
/// formats"): what `GET /metrics` answers. A family is its `# HELP` and `# TYPE` lines and
/// its samples, one a line, `name{label="value",…} value`.
struct PrometheusText {
    /// The `content-type` a scraper expects for this format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A metric family's type, as its `# TYPE` line says it.
    enum Kind: String {
        /// Only goes up (a count of things that happened).
        case counter
        /// Goes up and down (a level, an instant).
        case gauge
    }

    /// The text so far.
    private(set) var text = ""

    /// Adds a family: `name` (a valid metric name), its help and kind, and its samples, each
    /// its labels (names valid, values any text) and value.
    /// - Complexity: O(n) in what is written.
    mutating func family(_ name: String, help: String, kind: Kind, samples: [(labels: [(String, String)], value: Int64)]) {
        precondition(Self.isMetricName(name), "\(name) is not a Prometheus metric name")
        text += "# HELP " + name + " " + Self.escapeHelp(help) + "\n"
        text += "# TYPE " + name + " " + kind.rawValue + "\n"
        for sample in samples {
            text += name
            if !sample.labels.isEmpty {
                text += "{" + sample.labels.map { label, value in
                    precondition(Self.isLabelName(label), "\(label) is not a Prometheus label name")
                    return label + "=\"" + Self.escapeLabelValue(value) + "\""
                }.joined(separator: ",") + "}"
            }
            text += " " + String(sample.value) + "\n"
        }
    }

    /// A HELP text escaped: `\` as `\\` and a line feed as `\n`, nothing else.
    /// - Complexity: O(n).
    static func escapeHelp(_ help: String) -> String {
        var out = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A label value escaped: `\`, `"` and a line feed, each after a backslash (`\n` for the line feed).
    /// - Complexity: O(n).
    static func escapeLabelValue(_ value: String) -> String {
        var out = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    /// - Complexity: O(n).
    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == ":" }
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`.
    /// - Complexity: O(n).
    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
