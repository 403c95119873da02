/// One whole HTTP/1.1 request: its request line, its header fields and its body, decoded
/// from whatever framing it came in (`Content-Length` or chunked).
public struct Request: Hashable, Sendable {
    /// The protocol versions a server of HTTP/1.1 answers (RFC 9112 §2.3): a later 1.x is
    /// read as 1.1.
    public enum Version: Hashable, Sendable {
        case http1_0
        case http1_1
    }

    /// The method token, case-sensitive as sent (`GET`, `POST`).
    public var method: String
    /// The request target as sent: origin form (`/path?query`), absolute form, authority
    /// form (CONNECT) or `*`.
    public var target: String
    public var version: Version
    /// Every field in the order received, names lowercase, `host` and the framing fields included.
    public var fields: [Field]
    /// The body with its transfer coding removed; trailer fields are dropped.
    public var body: [UInt8]
    /// Whether the connection stays open after the response (RFC 9112 §9.3): HTTP/1.1
    /// without `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
    public var keepAlive: Bool

    /// - Complexity: O(1).
    public init(method: String, target: String, version: Version = .http1_1, fields: [Field] = [], body: [UInt8] = [],
                keepAlive: Bool = true) {
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
        self.body = body
        self.keepAlive = keepAlive
    }

    /// The value of the first field named `name` (lowercase), or nil.
    /// - Complexity: O(f), f the fields.
    public func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The `Host` field: the authority the request is for.
    /// - Complexity: O(f), f the fields.
    public var host: String? { value("host") }
}
