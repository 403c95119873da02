/// A request's header section once validated (RFC 9113 §8.3.1): the pseudo-header fields
/// as text, the other fields in order.
public struct RequestHead: Hashable, Sendable {
    public var method: String
    /// Absent only for CONNECT (RFC 9113 §8.5).
    public var scheme: String?
    /// Absent only for CONNECT.
    public var path: String?
    /// `:authority`, or the `host` field when the request has no `:authority` (§8.3.1).
    public var authority: String?
    /// The fields other than pseudo-header fields, `host` included, in the order received.
    public var fields: [HeaderField]
    /// The `content-length` the body must match, if the request gave one.
    public var contentLength: Int?

    /// - Complexity: O(1).
    public init(method: String, scheme: String?, path: String?, authority: String?, fields: [HeaderField],
                contentLength: Int? = nil) {
        self.method = method
        self.scheme = scheme
        self.path = path
        self.authority = authority
        self.fields = fields
        self.contentLength = contentLength
    }

    /// The first field named `name` (lowercase), as text.
    /// - Complexity: O(f), f the fields.
    public func value(_ name: String) -> String? {
        let key = Array(name.utf8)
        return fields.first { $0.name == key }?.valueString
    }

    /// Every field named `name` (lowercase), as text, in order.
    /// - Complexity: O(f), f the fields.
    public func values(_ name: String) -> [String] {
        let key = Array(name.utf8)
        return fields.filter { $0.name == key }.map(\.valueString)
    }
}

/// The field rules of RFC 9113 §8.2 and §8.3: a request or trailers that break one is
/// malformed, a stream error PROTOCOL_ERROR (§8.1.1).
enum FieldValidation {
    /// Connection-specific fields HTTP/2 forbids (RFC 9113 §8.2.2).
    static let connectionSpecific: [[UInt8]] = ["connection", "proxy-connection", "keep-alive", "transfer-encoding",
                                                "upgrade"].map { Array($0.utf8) }
    // Names compared on every field of every request: made once (`Array("te".utf8)` in the
    // loop would allocate each time).
    static let teName = Array("te".utf8), trailersValue = Array("trailers".utf8), authorityName = Array(":authority".utf8)
    static let hostName = Array("host".utf8), contentLengthName = Array("content-length".utf8)

    /// Why `field` breaks RFC 9113 §8.2.1–§8.2.2 as a regular field, or nil.
    /// - Complexity: O(n), n the octets of the field.
    static func regularFieldProblem(_ field: HeaderField) -> String? {
        if field.name.isEmpty { return "an empty field name" }
        for octet in field.name {
            // "A field name MUST NOT contain characters in the ranges 0x00-0x20, 0x41-0x5a,
            // or 0x7f-0xff"; a colon only starts a pseudo-header field.
            if octet <= 0x20 || (0x41...0x5a).contains(octet) || octet >= 0x7f || octet == UInt8(ascii: ":") {
                return octet >= 0x41 && octet <= 0x5a ? "an uppercase field name" : "a field name with an invalid character"
            }
        }
        if let problem = valueProblem(field.value) { return problem }
        // Each connection-specific name has a length of its own among them: compare only that one.
        if connectionSpecific.contains(where: { $0.count == field.name.count && $0 == field.name }) {
            return "the connection-specific field \(field.nameString)"
        }
        if field.name == teName && field.value != trailersValue {
            return "a te field other than \"trailers\""
        }
        return nil
    }

    /// "A field value MUST NOT contain the zero value (0x00), line feed (0x0a), or carriage
    /// return (0x0d)" nor start or end with whitespace (RFC 9113 §8.2.1).
    static func valueProblem(_ value: [UInt8]) -> String? {
        if value.contains(where: { $0 == 0x00 || $0 == 0x0a || $0 == 0x0d }) { return "a field value with NUL, CR or LF" }
        if let first = value.first, first == 0x20 || first == 0x09 { return "a field value starting with whitespace" }
        if let last = value.last, last == 0x20 || last == 0x09 { return "a field value ending with whitespace" }
        return nil
    }

    /// Validates a request's fields into a `RequestHead` (RFC 9113 §8.3.1).
    /// - Complexity: O(n), n the octets of the fields.
    static func request(_ fields: [HeaderField], stream: StreamID, endStream: Bool) throws(ProtocolError) -> RequestHead {
        func malformed(_ reason: String) -> ProtocolError { .stream(stream, .protocolError, "malformed request: " + reason) }
        var method: String?, scheme: String?, path: String?, authority: String?
        var regular: [HeaderField] = []
        regular.reserveCapacity(fields.count)
        var host: [UInt8]?
        var contentLength: Int?
        for field in fields {
            if field.isPseudo {
                // "All pseudo-header fields MUST appear in a field block before all regular field lines."
                guard regular.isEmpty else { throw malformed("pseudo-header field \(field.nameString) after a regular field") }
                guard !field.value.isEmpty || field.name == authorityName else {
                    throw malformed("an empty \(field.nameString)")
                }
                guard field.value.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                    throw malformed("\(field.nameString) with a character outside visible ASCII")
                }
                let value = field.valueString
                func set(_ slot: inout String?) throws(ProtocolError) {
                    guard slot == nil else { throw malformed("a duplicate \(field.nameString)") }
                    slot = value
                }
                switch field.nameString {
                case ":method": try set(&method)
                case ":scheme": try set(&scheme)
                case ":path": try set(&path)
                case ":authority": try set(&authority)
                default: throw malformed("the pseudo-header field \(field.nameString), not one of a request")
                }
                continue
            }
            if let problem = regularFieldProblem(field) { throw malformed(problem) }
            if field.name == hostName { host = field.value }
            if field.name == contentLengthName {
                guard let length = decimal(field.value) else { throw malformed("content-length is not a number") }
                guard contentLength == nil || contentLength == length else { throw malformed("content-length values differ") }
                contentLength = length
            }
            regular.append(field)
        }
        guard let method else { throw malformed("no :method") }
        if method == "CONNECT" {
            // §8.5: ":scheme and :path pseudo-header fields MUST be omitted"; :authority is required.
            guard scheme == nil, path == nil else { throw malformed("CONNECT with :scheme or :path") }
            guard authority != nil else { throw malformed("CONNECT without :authority") }
        } else {
            guard scheme != nil else { throw malformed("no :scheme") }
            guard path != nil else { throw malformed("no :path") }
        }
        if let host {
            // §8.3.1: a host that names another entity than :authority makes it malformed.
            if let authority { guard Array(authority.utf8) == host else { throw malformed("host differs from :authority") } }
            else { authority = String(decoding: host, as: UTF8.self) }
        }
        if endStream, let contentLength, contentLength != 0 {
            throw malformed("content-length \(contentLength) and no body")
        }
        return RequestHead(method: method, scheme: scheme, path: path, authority: authority, fields: regular,
                           contentLength: contentLength)
    }

    /// Trailers carry no pseudo-header fields (RFC 9113 §8.1).
    /// - Complexity: O(n), n the octets of the fields.
    static func trailers(_ fields: [HeaderField], stream: StreamID) throws(ProtocolError) {
        for field in fields {
            if field.isPseudo { throw .stream(stream, .protocolError, "malformed trailers: pseudo-header field \(field.nameString)") }
            if let problem = regularFieldProblem(field) { throw .stream(stream, .protocolError, "malformed trailers: " + problem) }
        }
    }

    /// Why `fields` cannot be sent as response fields (no pseudo-header fields: `:status`
    /// is ours to add), or nil.
    static func responseProblem(_ fields: [HeaderField]) -> String? {
        for field in fields {
            if field.isPseudo { return "the pseudo-header field \(field.nameString)" }
            if let problem = regularFieldProblem(field) { return problem }
        }
        return nil
    }

    /// A non-negative decimal without sign or spaces, below 2⁶³.
    static func decimal(_ octets: [UInt8]) -> Int? {
        guard !octets.isEmpty, octets.count <= 18, octets.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return octets.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
