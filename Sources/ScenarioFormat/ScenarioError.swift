import Base

/// Why a scenario could not be used. Structured first (this type), rendered
/// second (`description`), like swift-argument-parser's errors: tests check the
/// structure, users read the text. The decoder reports every error it can find in
/// one pass: the first in file order is this value, the others are in `more`.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The file could not be read.
        case unreadable(String)
        /// The JSON itself is broken.
        case syntax(String)
        /// A required field is absent.
        case missingField
        /// A field the format does not have (typo?), with the known ones.
        case unknownField(known: [String])
        /// A value of the wrong JSON type.
        case wrongType(expected: String, found: String)
        /// A value of the right type that is not allowed.
        case invalidValue(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The scenario file, as named on the command line.
    public var file: String
    /// The field's path, e.g. `connectivity.online.mean` or `strategies[1].name`; empty for the whole file.
    public var path: String
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// The errors found after this one in the same file, in file order (at most
    /// `listLimit - 1`); empty when this is the only one.
    public var more: [ScenarioError] = []
    /// Errors found beyond the listed ones (counted, not kept).
    public var unlisted = 0

    /// Most errors one report lists; the rest are only counted.
    public static let listLimit = 20

    /// An error.
    public init(_ kind: Kind, file: String, path: String, location: SourceLocation?) {
        self.kind = kind
        self.file = file
        self.path = path
        self.location = location
    }

    /// This error alone (without `more`), then each of `more`.
    /// - Complexity: O(n) in the listed errors.
    public var all: [ScenarioError] {
        var first = self
        first.more = []
        first.unlisted = 0
        return [first] + more
    }

    /// One line per error: `FILE:LINE:COL: PATH: MESSAGE`, then `FILE: … and N more errors`
    /// when some were not listed. The command line prints `error: ` before the text, so
    /// every line after the first carries its own `error: `.
    /// - Complexity: O(n) in the listed errors.
    public var description: String {
        var text = line
        for error in more { text += "\nerror: " + error.line }
        if unlisted > 0 { text += "\nerror: \(UserText.path(file)): … and \(unlisted) more error\(unlisted == 1 ? "" : "s")" }
        return text
    }

    /// For an unknown field, the declared keys nearest its own (`NearestNames`); empty
    /// for any other error or when no declared key is near.
    /// - Complexity: O(known keys × key lengths).
    public var suggestions: [String] {
        guard case .unknownField(let known) = kind else { return [] }
        return NearestNames.nearest(to: String(key), among: known)
    }

    /// The last key of `path` (`repeatMaxCont` of `strategies[0].repeatMaxCont`): an
    /// unknown field's path ends in its key.
    /// - Complexity: O(n) in the path's length.
    package var key: Substring {
        guard let dot = path.lastIndex(of: ".") else { return path[...] }
        return path[path.index(after: dot)...]
    }

    /// The path of `key`, a sibling of the field at `path` (same object).
    /// - Complexity: O(n) in the path's length.
    package func siblingPath(_ key: String) -> String { String(path.dropLast(self.key.count)) + key }

    /// This error alone, as one line.
    private var line: String {
        var text = UserText.path(file)
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": "
        if !path.isEmpty { text += UserText.path(path) + ": " }
        switch kind {
        case .unreadable(let why): text += "cannot read the scenario: \(why)"
        case .syntax(let message): text += "syntax error: \(message)"
        case .missingField: text += "required field is missing"
        case .unknownField(let known):
            // One slip gets its fix; a key like no declared one gets the whole list.
            let near = suggestions
            text += near.isEmpty ? "unknown field; expected one of: " + known.joined(separator: ", ")
                : "unknown field" + NearestNames.didYouMean(near)
        case .wrongType(let expected, let found): text += "expected \(expected), found \(found)"
        case .invalidValue(let message): text += message
        }
        return text
    }
}

