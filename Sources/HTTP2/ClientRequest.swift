/// A request as a `ClientConnection` sends it: the four pseudo-header fields, then the
/// other fields in order, then the body. Fields the caller owns, `content-length` among
/// them: the connection adds none.
public struct ClientRequest: Hashable, Sendable {
    public var method: String
    public var scheme: String
    /// The path with any query (`/3/device/…`).
    public var path: String
    /// `:authority`: the host (and port) the request is for.
    public var authority: String
    /// Regular fields: lowercase names, no connection-specific field (RFC 9113 §8.2.2).
    public var fields: [HeaderField]
    public var body: [UInt8]
    /// Sent after the body, with END_STREAM (RFC 9113 §8.1).
    public var trailers: [HeaderField]?

    /// - Complexity: O(1).
    public init(method: String, scheme: String = "http", path: String, authority: String, fields: [HeaderField] = [],
                body: [UInt8] = [], trailers: [HeaderField]? = nil) {
        self.method = method
        self.scheme = scheme
        self.path = path
        self.authority = authority
        self.fields = fields
        self.body = body
        self.trailers = trailers
    }

    /// The field block of the request's HEADERS: pseudo-header fields first, in the order
    /// RFC 9113 §8.3.1 lists them, then the regular fields.
    /// - Complexity: O(f), f the fields.
    var headerFields: [HeaderField] {
        [HeaderField(":method", method), HeaderField(":scheme", scheme), HeaderField(":path", path),
         HeaderField(":authority", authority)] + fields
    }

    /// Why HTTP/2 cannot carry this request, or nil.
    /// - Complexity: O(n), n the octets of the fields.
    var problem: String? {
        for (name, value) in [("method", method), ("scheme", scheme), ("path", path)] {
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                return "a :\(name) that is empty or not visible ASCII"
            }
        }
        guard authority.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return "an :authority that is not visible ASCII" }
        return FieldValidation.responseProblem(fields) ?? trailers.flatMap(FieldValidation.responseProblem)
    }
}

/// A whole response as a `ClientConnection` received it.
public struct ClientResponse: Hashable, Sendable {
    /// `:status`, 200…999 (informational answers are skipped).
    public var status: Int
    /// The regular fields in the order received.
    public var fields: [HeaderField]
    public var body: [UInt8]
    /// The trailer section, empty when there was none.
    public var trailers: [HeaderField]

    /// - Complexity: O(1).
    public init(status: Int, fields: [HeaderField] = [], body: [UInt8] = [], trailers: [HeaderField] = []) {
        self.status = status
        self.fields = fields
        self.body = body
        self.trailers = trailers
    }

    /// The first field named `name` (lowercase), as text.
    /// - Complexity: O(f), f the fields.
    public func value(_ name: String) -> String? {
        let key = Array(name.utf8)
        return fields.first { $0.name == key }?.valueString
    }
}
