import Base

/// One command-line option, declared once: its name, the value it takes (a placeholder
/// such as `<n>`) or none (a flag), whether it may be given more than once, what a good
/// value is, and its help lines. The OPTIONS section of a command's help, which
/// arguments the scanner takes as values, and the usage errors (unknown option, missing
/// value, repeated option, bad value with its range) all follow from it, so they cannot
/// drift apart. In the manner of swift-argument-parser's `@Option`, but small.
package struct OptionSpec: Sendable, Equatable {
    /// What follows the name on the command line.
    package enum Arity: Sendable, Equatable {
        /// Nothing: the option is a flag (`--quiet`).
        case flag
        /// One value, given at most once (`--threads <n>`): in a templated job array a
        /// second `--shard` is a mistake, not an override.
        case single(placeholder: String)
        /// A value each time it is given, kept in order (`--set <path>=<value>`...).
        case repeatable(placeholder: String)
    }

    package let name: String
    package let arity: Arity
    /// What a valid value is, as the bad-value error says it ("an integer from 1 to
    /// 1024"); nil for a flag.
    package let expected: String?
    /// The help, wrapped as the OPTIONS section shows it, without the name column.
    package let help: [String]
    /// The values a choice takes, which the USAGE line shows instead of the placeholder
    /// (`--format table|json`); empty for any other option.
    package let choices: [String]

    package init(name: String, arity: Arity, expected: String?, help: [String], choices: [String] = []) {
        self.name = name
        self.arity = arity
        self.expected = expected
        self.help = help
        self.choices = choices
    }

    /// Whether the argument after the name (or after `=`) is its value.
    package var takesValue: Bool {
        switch arity {
        case .flag: false
        case .single, .repeatable: true
        }
    }

    package var isRepeatable: Bool {
        switch arity {
        case .flag, .single: false
        case .repeatable: true
        }
    }

    /// "--threads <n>": the help's left column.
    package var label: String {
        switch arity {
        case .flag: name
        case .single(let placeholder), .repeatable(let placeholder): name + " " + placeholder
        }
    }

    /// The same option explained for another command: how it parses does not change,
    /// only its help (and its placeholder, where the value means more, as `sweep`'s
    /// `--set <path>=<values>`).
    /// - Complexity: O(help lines).
    package func explained(placeholder: String? = nil, _ help: String...) -> OptionSpec {
        let arity: Arity = switch self.arity {
        case .flag: .flag
        case .single(let old): .single(placeholder: placeholder ?? old)
        case .repeatable(let old): .repeatable(placeholder: placeholder ?? old)
        }
        return OptionSpec(name: name, arity: arity, expected: expected, help: help, choices: choices)
    }

    /// "--format table|json", "--threads <n>": the option in a USAGE line.
    package var usageLabel: String {
        switch arity {
        case .flag: name
        case .single(let placeholder), .repeatable(let placeholder):
            name + " " + (choices.isEmpty ? placeholder : choices.joined(separator: "|"))
        }
    }

    /// The column the help text starts at, after two spaces of indent; a longer label
    /// keeps one space before its text.
    package static let helpColumn = 21

    /// The option's lines in an OPTIONS section: the label padded to the help column and
    /// the first help line, then the others under it.
    /// - Complexity: O(help's length).
    package var helpLines: [String] {
        let indent = String(repeating: " ", count: 2 + Self.helpColumn)
        // A label a little too long keeps one space; a much longer one (serve's
        // `--provider-key <team>:<key-id>:<file>`) gets a line of its own, its help below it.
        if label.count > Self.helpColumn + 4 { return ["  " + label] + help.map { indent + $0 } }
        let first = "  " + label + String(repeating: " ", count: max(1, Self.helpColumn - label.count)) + (help.first ?? "")
        return [first] + help.dropFirst().map { indent + $0 }
    }
}

/// A declared option, whatever its value reads as: what help sections and the scanner need.
package protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}

/// How an option's text becomes a value, and what the bad-value error says a good one
/// is: both from one place, so a range cannot be checked one way and described another.
package struct ValueReader<Value>: Sendable {
    package let expected: String
    /// Every value accepted, when there are few enough to list (`choice`); else empty.
    package let choices: [String]
    package let read: @Sendable (String) -> Value?

    package init(expected: String, choices: [String] = [], read: @escaping @Sendable (String) -> Value?) {
        self.expected = expected
        self.choices = choices
        self.read = read
    }
}

extension ValueReader where Value == String {
    /// Any text, even empty (the command decides what an empty one means); never refused,
    /// so its `expected` is never shown.
    package static var text: ValueReader { ValueReader(expected: "a value") { $0 } }

    /// Any text but the empty one, which is refused as not `expected` ("a folder").
    package static func nonEmpty(_ expected: String) -> ValueReader {
        ValueReader(expected: expected) { $0.isEmpty ? nil : $0 }
    }
}

extension ValueReader where Value: FixedWidthInteger & Sendable {
    /// Plain ASCII digits (`ArgumentScanner.plainInteger`) whose value is in `range`.
    package static func integer(in range: ClosedRange<Value>) -> ValueReader {
        ValueReader(expected: "an integer from \(bound(range.lowerBound)) to \(bound(range.upperBound))") { text in
            guard let value: Value = ArgumentScanner.plainInteger(text), range.contains(value) else { return nil }
            return value
        }
    }

    /// A bound as people read it: 2^63-1 rather than its nineteen digits.
    private static func bound(_ value: Value) -> String {
        Value.bitWidth >= 64 && value == Value(truncatingIfNeeded: Int64.max) ? "2^63-1" : "\(value)"
    }
}

extension ValueReader where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the cases' raw values; the error lists them ("table or json").
    package static var choice: ValueReader {
        let names = Value.allCases.map(\.rawValue)
        return ValueReader(expected: names.joined(separator: " or "), choices: names) { Value(rawValue: $0) }
    }
}

/// An option that takes a value, read as `Value`.
package struct Option<Value>: DeclaredOption {
    package let spec: OptionSpec
    package let reader: ValueReader<Value>

    /// `name placeholder`, given once, or each time when `repeatable`; `help` as wrapped
    /// in the OPTIONS section.
    package init(_ name: String, _ placeholder: String, repeatable: Bool = false, _ reader: ValueReader<Value>,
                 help: String...) {
        spec = OptionSpec(name: name, arity: repeatable ? .repeatable(placeholder: placeholder) : .single(placeholder: placeholder),
                          expected: reader.expected, help: help, choices: reader.choices)
        self.reader = reader
    }

    /// `text` read as the option's value, or the bad-value error naming what is expected.
    /// - Complexity: that of the reader, O(n) in the text's length for every reader here.
    package func read(_ text: String) throws(UsageError) -> Value {
        guard let value = reader.read(text) else {
            throw .invalidValue(option: spec.name, value: text, expected: reader.expected)
        }
        return value
    }
}

/// An option without a value: given or not.
package struct Flag: DeclaredOption {
    package let spec: OptionSpec

    package init(_ name: String, help: String...) {
        spec = OptionSpec(name: name, arity: .flag, expected: nil, help: help)
    }
}

/// A command's OPTIONS section: its rows in the order shown, each option's from its
/// declaration.
package struct OptionsHelp: Sendable {
    package enum Row: Sendable {
        /// An option's label and help.
        case option(OptionSpec)
        /// "(and --set, --out … as for 'pushsim run'; not --shard)": options another
        /// command's help explains, and one it does not take.
        case asFor(command: String, options: [OptionSpec], not: [OptionSpec])
        /// "-h, --help  Show this help" (`--help` is answered before scanning).
        case showHelp
    }

    package let rows: [Row]

    package init(_ rows: [Row]) { self.rows = rows }

    /// Every option the section names, in order.
    package var options: [OptionSpec] {
        rows.flatMap { row -> [OptionSpec] in
            switch row {
            case .option(let spec): [spec]
            case .asFor(_, let options, let refused): options + refused
            case .showHelp: []
            }
        }
    }

    /// "--set, --out": options' names, for a sentence.
    private static func names(_ options: [OptionSpec]) -> String { options.map(\.name).joined(separator: ", ") }

    /// "OPTIONS:" and one line per row line, each ending in a newline.
    /// - Complexity: O(the section's length).
    package var text: String {
        let lines = rows.flatMap { row -> [String] in
            switch row {
            case .option(let spec):
                spec.helpLines
            case .asFor(let command, let options, let refused):
                ["  (and " + Self.names(options) + " as for 'pushsim \(command)'"
                    + (refused.isEmpty ? "" : "; not " + Self.names(refused)) + ")"]
            case .showHelp:
                OptionSpec(name: "-h, --help", arity: .flag, expected: nil, help: ["Show this help"]).helpLines
            }
        }
        return "OPTIONS:\n" + lines.map { $0 + "\n" }.joined()
    }
}

/// A command's USAGE line: its operands and options in the order shown, each option's
/// from its declaration, broken into lines where given and aligned under the first.
package struct UsageHelp: Sendable {
    package enum Term: Sendable {
        /// What is not an option, as written: "<scenario.json | ->", "[run options]".
        case text(String)
        /// An option the command needs: "--out <dir>".
        case required(OptionSpec)
        /// An option it may take: "[--out <dir>]", "[--strategy <label>]..." when repeatable.
        case optional(OptionSpec)
    }

    package let command: String
    package let lines: [[Term]]

    package init(_ command: String, _ lines: [Term]...) {
        self.command = command
        self.lines = lines
    }

    /// Every option the line names, in order.
    package var options: [OptionSpec] {
        lines.joined().compactMap { term -> OptionSpec? in
            switch term {
            case .text: nil
            case .required(let spec), .optional(let spec): spec
            }
        }
    }

    /// "USAGE: pushsim COMMAND …", each further line under the first term, ending in a newline.
    /// - Complexity: O(the line's length).
    package var text: String {
        let head = "USAGE: pushsim \(command) "
        let rendered = lines.map { line in
            line.map { term -> String in
                switch term {
                case .text(let text): text
                case .required(let spec): spec.usageLabel
                case .optional(let spec): "[" + spec.usageLabel + "]" + (spec.isRepeatable ? "..." : "")
                }
            }.joined(separator: " ")
        }
        return head + rendered.joined(separator: "\n" + String(repeating: " ", count: head.count)) + "\n"
    }
}
