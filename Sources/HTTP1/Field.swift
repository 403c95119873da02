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
