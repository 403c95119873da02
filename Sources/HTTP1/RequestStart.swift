/// What a connection's first octets say about HTTP/1.1: whether they begin as a request
/// line, `method SP` (RFC 9112 §3), before the rest has come. A listener that speaks
/// another protocol uses it to tell an HTTP/1.1 client, which it can answer in its own
/// protocol, from garbage.
public enum RequestStart: Hashable, Sendable {
    /// A method token and the space after it: an HTTP/1.1 request line begins.
    case method(String)
    /// Tokens so far, no space yet: more octets are needed.
    case undecided
    /// Not a request line: an octet that is not a token's, an empty or overlong method.
    case notARequest

    /// The longest method read: no registered method comes near (the longest, `UPDATEREDIRECTREF`, has 17).
    public static let maxMethodLength = 32

    /// What `prefix` (a connection's first octets) begins with.
    /// - Complexity: O(min(n, `maxMethodLength`)).
    public static func of(_ prefix: some Collection<UInt8>) -> RequestStart {
        var length = 0
        for octet in prefix {
            if octet == CharacterClass.space {
                return length == 0 ? .notARequest : .method(String(decoding: prefix.prefix(length), as: UTF8.self))
            }
            guard CharacterClass.isToken(octet), length < maxMethodLength else { return .notARequest }
            length += 1
        }
        return .undecided
    }
}
