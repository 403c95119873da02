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
    /// The fields other than pseudo-header fields, `host` included, in the order received:
    /// the decoded block itself, its octets read in place.
    public var fields: HeaderList
    /// The `content-length` the body must match, if the request gave one.
    public var contentLength: Int?

    /// - Complexity: O(1).
    public init(method: String, scheme: String?, path: String?, authority: String?, fields: HeaderList,
                contentLength: Int? = nil) {
        self.method = method
        self.scheme = scheme
        self.path = path
        self.authority = authority
        self.fields = fields
        self.contentLength = contentLength
    }

    /// - Complexity: O(n), n the octets of the fields.
    public init(method: String, scheme: String?, path: String?, authority: String?, fields: [HeaderField],
                contentLength: Int? = nil) {
        self.init(method: method, scheme: scheme, path: path, authority: authority, fields: HeaderList(fields),
                  contentLength: contentLength)
    }

    /// The first field named `name` (lowercase), as text.
    /// - Complexity: O(f), f the fields.
    public func value(_ name: String) -> String? { fields.value(name) }

    /// Every field named `name` (lowercase), as text, in order.
    /// - Complexity: O(f), f the fields.
    public func values(_ name: String) -> [String] {
        fields.indices.filter { fields.name(at: $0) == name }.map(fields.value(at:))
    }
}

/// The field rules of RFC 9113 §8.2 and §8.3: a request or trailers that break one is
/// malformed, a stream error PROTOCOL_ERROR (§8.1.1). Fields are judged by their octets
/// in place; text is made only for what a request head keeps, and for the reason of an error.
enum FieldValidation {
    /// Connection-specific fields HTTP/2 forbids (RFC 9113 §8.2.2).
    static let connectionSpecific: [StaticString] = ["connection", "proxy-connection", "keep-alive", "transfer-encoding",
                                                     "upgrade"]

    /// Why a field breaks RFC 9113 §8.2.1–§8.2.2 as a regular field, or nil.
    /// - Complexity: O(n), n the octets of the field.
    static func regularFieldProblem(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> String? {
        if name.isEmpty { return "an empty field name" }
        // Eight octets at a time; the first octet at fault is looked for only to say why.
        if !Octets.allNameOctets(name) {
            for octet in name where !isNameOctet(octet) {
                return octet >= 0x41 && octet <= 0x5a ? "an uppercase field name" : "a field name with an invalid character"
            }
        }
        if let problem = valueProblem(value) { return problem }
        switch name.count {
        case 2:
            if Octets.equal(name, "te") && !Octets.equal(value, "trailers") { return "a te field other than \"trailers\"" }
        case 7, 10, 16, 17: // the lengths of the connection-specific names
            for forbidden in connectionSpecific where Octets.equal(name, forbidden) {
                return "the connection-specific field " + String(decoding: name, as: UTF8.self)
            }
        default:
            break
        }
        return nil
    }

    /// "A field name MUST NOT contain characters in the ranges 0x00-0x20, 0x41-0x5a, or
    /// 0x7f-0xff"; a colon only starts a pseudo-header field. The allowed octets, all below
    /// 0x80, as two 64-bit masks: one test an octet.
    @inline(__always)
    static func isNameOctet(_ octet: UInt8) -> Bool {
        // 0x21–0x39, 0x3b–0x40 and 0x5b–0x7e: bit n of `low` is octet n, of `high` octet 0x40 + n.
        let low: UInt64 = 0xfbff_fffe_0000_0000, high: UInt64 = 0x7fff_ffff_f800_0001
        return octet < 0x40 ? (low >> UInt64(octet)) & 1 == 1 : octet < 0x80 && (high >> UInt64(octet - 0x40)) & 1 == 1
    }

    /// Why `field` breaks RFC 9113 §8.2.1–§8.2.2 as a regular field, or nil.
    /// - Complexity: O(n), n the octets of the field.
    static func regularFieldProblem(_ field: HeaderField) -> String? {
        field.withOctets { name, value in regularFieldProblem(name: name, value: value) }
    }

    /// "A field value MUST NOT contain the zero value (0x00), line feed (0x0a), or carriage
    /// return (0x0d)" nor start or end with whitespace (RFC 9113 §8.2.1).
    static func valueProblem(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        // NUL, LF and CR as bits 0, 10 and 13: one comparison and one shift an octet.
        if Octets.containsNULCRLF(value) { return "a field value with NUL, CR or LF" }
        if let first = value.first, first == 0x20 || first == 0x09 { return "a field value starting with whitespace" }
        if let last = value.last, last == 0x20 || last == 0x09 { return "a field value ending with whitespace" }
        return nil
    }

    /// The pseudo-header fields of a request (§8.3.1).
    enum RequestPseudoHeader {
        case method, scheme, path, authority

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            if Octets.equal(name, ":method") { self = .method }
            else if Octets.equal(name, ":path") { self = .path }
            else if Octets.equal(name, ":scheme") { self = .scheme }
            else if Octets.equal(name, ":authority") { self = .authority }
            else { return nil }
        }
    }

    /// Validates a request's fields into a `RequestHead` (RFC 9113 §8.3.1), whose fields
    /// are `list` without its pseudo-header fields.
    /// - Complexity: O(n), n the octets of the fields.
    static func request(_ list: HeaderList, stream: StreamID, endStream: Bool) throws(ProtocolError) -> RequestHead {
        func malformed(_ reason: String) -> ProtocolError { .stream(stream, .protocolError, "malformed request: " + reason) }
        var method: String?, scheme: String?, path: String?, authority: String?
        var pseudoCount = 0
        var host: Range<Int>?, authorityOctets: Range<Int>?
        var contentLength: Int?
        try list.octets.withUnsafeBufferPointer { all throws(ProtocolError) in
            for (position, entry) in list.listed.enumerated() {
                let name = UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart])
                let value = UnsafeBufferPointer(rebasing: all[entry.valueStart..<entry.end])
                let nameText = { String(decoding: name, as: UTF8.self) }
                if name.first == UInt8(ascii: ":") {
                    // "All pseudo-header fields MUST appear in a field block before all regular field lines."
                    guard position == pseudoCount else { throw malformed("pseudo-header field \(nameText()) after a regular field") }
                    pseudoCount += 1
                    guard let pseudo = RequestPseudoHeader(name) else {
                        throw malformed("the pseudo-header field \(nameText()), not one of a request")
                    }
                    guard !value.isEmpty || pseudo == .authority else { throw malformed("an empty \(nameText())") }
                    guard Octets.allVisibleASCII(value) else {
                        throw malformed("\(nameText()) with a character outside visible ASCII")
                    }
                    func set(_ slot: inout String?, _ text: String) throws(ProtocolError) {
                        guard slot == nil else { throw malformed("a duplicate \(nameText())") }
                        slot = text
                    }
                    switch pseudo {
                    case .method: try set(&method, methodText(value))
                    case .scheme: try set(&scheme, schemeText(value))
                    case .path: try set(&path, String(decoding: value, as: UTF8.self))
                    case .authority:
                        try set(&authority, String(decoding: value, as: UTF8.self))
                        authorityOctets = entry.valueStart..<entry.end
                    }
                    continue
                }
                if let problem = regularFieldProblem(name: name, value: value) { throw malformed(problem) }
                if Octets.equal(name, "host") { host = entry.valueStart..<entry.end }
                if Octets.equal(name, "content-length") {
                    guard let length = decimal(value) else { throw malformed("content-length is not a number") }
                    guard contentLength == nil || contentLength == length else { throw malformed("content-length values differ") }
                    contentLength = length
                }
            }
            if let host, let authorityOctets {
                // §8.3.1: a host that names another entity than :authority makes it malformed.
                guard Octets.equal(UnsafeBufferPointer(rebasing: all[host]), UnsafeBufferPointer(rebasing: all[authorityOctets])) else {
                    throw malformed("host differs from :authority")
                }
            } else if let host {
                authority = String(decoding: UnsafeBufferPointer(rebasing: all[host]), as: UTF8.self)
            }
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
        if endStream, let contentLength, contentLength != 0 {
            throw malformed("content-length \(contentLength) and no body")
        }
        var fields = list
        fields.removeFirst(pseudoCount)
        return RequestHead(method: method, scheme: scheme, path: path, authority: authority, fields: fields,
                           contentLength: contentLength)
    }

    /// The method as text: the common ones are constants, made without decoding.
    static func methodText(_ value: UnsafeBufferPointer<UInt8>) -> String {
        if Octets.equal(value, "POST") { return "POST" }
        if Octets.equal(value, "GET") { return "GET" }
        if Octets.equal(value, "HEAD") { return "HEAD" }
        if Octets.equal(value, "PUT") { return "PUT" }
        if Octets.equal(value, "DELETE") { return "DELETE" }
        return String(decoding: value, as: UTF8.self)
    }

    /// The scheme as text, `http` and `https` without decoding.
    static func schemeText(_ value: UnsafeBufferPointer<UInt8>) -> String {
        if Octets.equal(value, "http") { return "http" }
        if Octets.equal(value, "https") { return "https" }
        return String(decoding: value, as: UTF8.self)
    }

    /// Trailers carry no pseudo-header fields (RFC 9113 §8.1).
    /// - Complexity: O(n), n the octets of the fields.
    static func trailers(_ fields: HeaderList, stream: StreamID) throws(ProtocolError) {
        for position in fields.indices {
            try fields.withOctets(at: position) { name, value throws(ProtocolError) in
                if name.first == UInt8(ascii: ":") {
                    throw .stream(stream, .protocolError, "malformed trailers: pseudo-header field " + String(decoding: name, as: UTF8.self))
                }
                if let problem = regularFieldProblem(name: name, value: value) {
                    throw .stream(stream, .protocolError, "malformed trailers: " + problem)
                }
            }
        }
    }

    /// Why `fields` cannot be sent as response fields (no pseudo-header fields: `:status`
    /// is ours to add), or nil.
    static func responseProblem(_ fields: [HeaderField]) -> String? {
        for field in fields {
            if let problem = field.withOctets({ name, value in responseFieldProblem(name: name, value: value) }) { return problem }
        }
        return nil
    }

    /// Why `fields` cannot be sent as response fields, or nil.
    static func responseProblem(_ fields: HeaderList) -> String? {
        fields.octets.withUnsafeBufferPointer { all in
            for entry in fields.listed {
                if let problem = responseFieldProblem(name: UnsafeBufferPointer(rebasing: all[entry.start..<entry.valueStart]),
                                                      value: UnsafeBufferPointer(rebasing: all[entry.valueStart..<entry.end])) {
                    return problem
                }
            }
            return nil
        }
    }

    private static func responseFieldProblem(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> String? {
        if name.first == UInt8(ascii: ":") { return "the pseudo-header field " + String(decoding: name, as: UTF8.self) }
        return regularFieldProblem(name: name, value: value)
    }

    /// A non-negative decimal without sign or spaces, below 2⁶³.
    static func decimal(_ octets: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !octets.isEmpty, octets.count <= 18, octets.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return octets.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
