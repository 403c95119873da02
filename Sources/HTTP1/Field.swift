/// A header field of a request or a response: the name in lowercase (field names are
/// case-insensitive, RFC 9110 §5.1) and the value without its surrounding whitespace.
/// Value octets that are not UTF-8 (obs-text) read as U+FFFD.
public struct Field: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var value: String

    /// - Complexity: O(1).
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): \(value)" }
}

extension Field {
    /// The first of `fields` that cannot be written: a name that is not a token, a value
    /// with CR, LF or another control octet (what response or request splitting needs), or
    /// a field the writer owns (framing and connection fields it writes itself).
    /// - Complexity: O(n), n the octets of the fields.
    static func firstUnwritable(_ fields: [Field], owned: Set<String>) -> Field? {
        fields.first { field in
            field.name.isEmpty || !field.name.utf8.allSatisfy(CharacterClass.isToken)
                || !field.value.utf8.allSatisfy(CharacterClass.isFieldValue)
                || owned.contains(String(decoding: field.name.utf8.map(CharacterClass.lowercased), as: UTF8.self))
        }
    }

    /// Appends `name: value` lines, checked beforehand with `firstUnwritable`.
    /// - Complexity: O(n), n the octets of the fields.
    static func write(_ fields: [Field], into output: inout [UInt8]) {
        for field in fields {
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
    }
}
