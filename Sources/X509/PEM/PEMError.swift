/// Why PEM armor (RFC 7468) was refused: one line saying where and what. Labels it repeats
/// are RFC 7468's printable ASCII, cut to `PEMError.quotedLimit` characters.
public enum PEMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `-----BEGIN …-----` line at all.
    case notPEM
    /// Text on this line (1-based) before the `-----BEGIN` line of a file that holds one block.
    case textBefore(line: Int)
    /// The block that began with this label has no `-----END` line.
    case missingEnd(label: String)
    /// The `-----END` line on this line names another label than the block began with.
    case mismatchedEnd(line: Int, found: String, began: String)
    /// Text (or, when `secondBlock`, another block) after the `-----END` line of a one-block file.
    case textAfter(line: Int, secondBlock: Bool)
    /// A line that starts like a boundary but is not `-----BEGIN LABEL-----` (or END).
    case malformedBoundary(line: Int, opening: String)
    /// A label of other characters than RFC 7468 allows.
    case badLabel(line: Int)
    /// A block of another label than the reader takes (the label found).
    case unexpectedLabel(String)
    /// A block whose body is not strict base64 (or is empty).
    case badBase64(label: String)

    /// The most characters of file text a message repeats.
    public static let quotedLimit = 60

    /// One line naming what is wrong.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .notPEM: "no -----BEGIN line"
        case .textBefore(let line): "line \(line) is text before the -----BEGIN line"
        case .missingEnd(let label): "no -----END \(Self.cut(label))----- line"
        case .mismatchedEnd(let line, let found, let began):
            "line \(line) ends \"\(Self.cut(found))\", the block began \"\(Self.cut(began))\""
        case .textAfter(let line, let secondBlock):
            "line \(line) is \(secondBlock ? "a second block" : "text") after the -----END line: the file holds one block"
        case .malformedBoundary(let line, let opening): "line \(line) is not a \(opening)…----- line"
        case .badLabel(let line): "line \(line) has a label of other characters than RFC 7468 allows"
        case .unexpectedLabel(let label): "a \(Self.cut(label)) block"
        case .badBase64(let label): "the \(Self.cut(label)) block's body is not base64"
        }
    }

    /// A label cut to `quotedLimit` characters (labels are printable ASCII, checked when read).
    static func cut(_ label: String) -> String {
        label.utf8.count <= quotedLimit ? label : String(decoding: label.utf8.prefix(quotedLimit), as: UTF8.self) + "…"
    }
}
