/// What a `ResponseParser` accepts before it refuses a response, so that a server cannot
/// make a client hold unbounded memory. The defaults suit a JSON API.
public struct ResponseLimits: Hashable, Sendable {
    /// The status line's octets, without its line ending.
    public var maxStatusLineLength = 8_192
    /// The header section's octets after the status line, line endings included (and the
    /// trailer section's, for chunked bodies).
    public var maxHeaderSectionSize = 16_384
    /// Field lines in the header section.
    public var maxFieldCount = 100
    /// The body's octets once decoded, however it is delimited.
    public var maxBodySize = 1 << 20
    /// Informational (1xx) responses before the final one: each is skipped, but a server
    /// sending them forever would keep the client reading.
    public var maxInformationalResponses = 16

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}
}

/// Why a response cannot be read. The connection cannot carry another exchange after it:
/// the client closes it.
public enum ResponseParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The octets break HTTP/1.1's grammar or framing (RFC 9112); our own words.
    case malformed(String)
    /// A status line, header section, body or trailer section over `ResponseLimits`.
    case tooLarge(String)
    /// The connection ended before the response was whole.
    case incomplete

    /// The same refusal as the request side words it (field lines and chunked bodies share
    /// their readers): 413 and 431 are sizes, the rest malformed.
    init(_ error: RequestError) {
        self = error.status == 413 || error.status == 431 ? .tooLarge(error.reason) : .malformed(error.reason)
    }

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed response: \(reason)"
        case .tooLarge(let reason): "response too large: \(reason)"
        case .incomplete: "the connection ended before the response was whole"
        }
    }
}
