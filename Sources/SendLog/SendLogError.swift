import Base

/// Why a send log was refused: the file, the line (1: the header; 0: the file as a
/// whole) and the reason. Never repeats an id from the log (they may be personal).
public struct SendLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, declared once.
    public enum Reason: Error, Equatable, Sendable {
        /// The file could not be opened or read (the system's words).
        case unreadable(String)
        /// No header line.
        case empty
        /// The header lacks a required column.
        case missingColumn(SendLogColumn)
        /// The header names a column the format does not have (the name, escaped).
        case unknownColumn(String)
        /// The header names a column twice.
        case duplicateColumn(SendLogColumn)
        /// A row has another number of fields than the header.
        case fieldCount(expected: Int, found: Int)
        /// A line is longer than `SendLogReader.lineLimit` bytes.
        case lineTooLong
        /// A value is not UTF-8.
        case notUTF8(SendLogColumn)
        /// A value holds a control character.
        case controlCharacter(SendLogColumn)
        /// A value is longer than its column allows.
        case tooLong(SendLogColumn)
        /// A quoted value is not closed on its line, or a quote stands inside an unquoted one.
        case badQuotes
        /// A required value is empty.
        case emptyValue(SendLogColumn)
        /// The time is not RFC 3339 with an offset (what is wrong).
        case badTime(String)
        /// The kind is neither `alert` nor `background`.
        case badKind
        /// A background push, and the scenario has no `background` section (the app's budget).
        case backgroundWithoutBudget
        /// The replay's scratch file could not be written or read (the system's words).
        case scratch(String)

        /// The reason in words.
        public var explanation: String {
            switch self {
            case .unreadable(let why): "cannot read it: \(why)"
            case .empty: "no header line (expected \(SendLogReader.expectedHeader))"
            case .missingColumn(let column): "the header has no column \(column.rawValue) (expected \(SendLogReader.expectedHeader))"
            case .unknownColumn(let name): "the header names an unknown column \(name) (the columns: \(SendLogReader.expectedHeader))"
            case .duplicateColumn(let column): "the header names column \(column.rawValue) twice"
            case .fieldCount(let expected, let found): "\(found) fields where the header has \(expected)"
            case .lineTooLong: "a line longer than \(SendLogReader.lineLimit) bytes"
            case .notUTF8(let column): "column \(column.rawValue) is not UTF-8"
            case .controlCharacter(let column): "column \(column.rawValue) holds a control character"
            case .tooLong(let column): "column \(column.rawValue) is longer than \(column.byteLimit) bytes"
            case .badQuotes: "a quote that does not close, or a quote inside an unquoted value"
            case .emptyValue(let column): "column \(column.rawValue) is empty"
            case .badTime(let what): "column time is not RFC 3339 with an offset (\(what)), such as 2026-03-02T09:15:00+03:00"
            case .badKind: "column kind is neither alert nor background"
            case .backgroundWithoutBudget:
                "a background push, and the scenario has no background section (the app's budget iOS hands them out by)"
            case .scratch(let why): "cannot write the replay's scratch file (TMPDIR): \(why)"
            }
        }
    }

    /// The file as messages name it.
    public var file: String
    /// The line, from 1 (the header); 0 for the file as a whole.
    public var line: Int
    public var reason: Reason

    /// A value of the fields given.
    /// - Complexity: O(1).
    public init(file: String, line: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `FILE:LINE: reason`, one line.
    public var description: String {
        "\(UserText.path(file))\(line > 0 ? ":\(line)" : ""): \(reason.explanation)"
    }
}
