/// Text a user typed (a scenario's strings and keys, an option's value, a file path, a
/// CSV cell), made safe to echo in a one-line message: every control or invisible
/// formatting character is shown as an escape (`\n`, `\r`, `\t`, `\0`, `\u{1B}`), never
/// executed by the terminal, a byte that is not UTF-8 (kept by `SystemText`) as `\xff`,
/// and a long value is cut with an ellipsis. Every message that repeats user text goes
/// through here.
public enum UserText {
    /// Most characters (Unicode scalars, before escaping) of one value a message repeats.
    public static let limit = 80
    /// Most characters of a file path or field path a message repeats: paths are longer.
    public static let pathLimit = 240

    /// `text` in double quotes, escaped (`"` and `\` too), cut at `limit` characters with `…`.
    /// - Complexity: O(min(n, limit)).
    public static func quote(_ text: some StringProtocol, limit: Int = limit) -> String {
        "\"" + escape(text, limit: limit, quotes: true) + "\""
    }

    /// A file or field path as messages show it: escaped, bare, cut at `pathLimit`.
    /// - Complexity: O(min(n, pathLimit)).
    public static func path(_ text: some StringProtocol) -> String { escape(text, limit: pathLimit) }

    /// `text` escaped and cut, without quotes (file paths and field paths, which messages
    /// show bare). A backslash stays as it is unless `quotes` (inside quotes it must
    /// escape, or `\n` written by the user would read as a line break).
    /// - Complexity: O(min(n, limit)).
    public static func escape(_ text: some StringProtocol, limit: Int = limit, quotes: Bool = false) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            case "\"" where quotes: result += "\\\""
            case "\\" where quotes: result += "\\\\"
            default:
                if let byte = SystemText.escapedByte(scalar) {
                    result += "\\x" + String(byte, radix: 16)   // 0x80…0xFF: two digits
                } else if isInvisible(scalar) || (scalar.properties.generalCategory == .spaceSeparator && scalar != " ") {
                    // A space that is not U+0020 (a no-break space pasted from a spreadsheet) looks
                    // like one in a message: named, so "not a count" says why.
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Values escaped and joined with `separator` (bare, as lists of labels and names read), cut with `… (N more)` once the line passes
    /// `limit` × 2 characters: a scenario with 100,000 strategies names a few, not all.
    /// - Complexity: O(values shown).
    public static func list(_ values: [String], limit: Int = limit, separator: String = ", ") -> String {
        var text = ""
        for (index, value) in values.enumerated() {
            if index > 0 && text.unicodeScalars.count > 2 * limit {
                return text + separator + "… (\(values.count - index) more)"
            }
            text += (index > 0 ? separator : "") + escape(value, limit: limit)
        }
        return text
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators, and formatting
    /// characters (bidirectional overrides, zero-width characters) that would move or
    /// hide text on a terminal.
    /// - Complexity: O(1).
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }
}

/// Prints 1.0 as "1" and 0.5 as "0.5" in messages.
package func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
