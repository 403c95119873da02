/// What a `RequestParser` accepts before it refuses a request, so that a peer cannot make
/// it hold unbounded memory. The defaults suit a small JSON control API.
public struct RequestLimits: Hashable, Sendable {
    /// The request line's octets, without its line ending; longer gets 414 (URI Too Long),
    /// since the target is what makes a request line long.
    public var maxRequestLineLength = 8_192
    /// The header section's octets after the request line, line endings included (and the
    /// trailer section's, for chunked bodies); more gets 431.
    public var maxHeaderSectionSize = 16_384
    /// Field lines in the header section; more gets 431.
    public var maxFieldCount = 100
    /// The body's octets once decoded; more gets 413 (Content Too Large), as soon as a
    /// `Content-Length` or a chunk size announces it.
    public var maxBodySize = 1 << 20

    /// The defaults.
    /// - Complexity: O(1).
    public init() {}
}
