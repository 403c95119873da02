/// An HTTP/1.1 response as a server writes it (RFC 9112 §4, §6): the status line with its
/// reason phrase, the fields, then `content-length` and, when the connection ends after it,
/// `connection: close`, then the body. Never chunked: every body is whole.
public struct Response: Hashable, Sendable {
    public var status: Int
    /// Names lowercase or not (they are case-insensitive); without the fields the writer owns.
    public var fields: [Field]
    public var body: [UInt8]

    /// - Complexity: O(1).
    public init(status: Int, fields: [Field] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The answer to a request that could not be read: its status, and its reason as text.
    /// - Complexity: O(n), n the reason's length.
    public init(error: RequestError) {
        self.init(status: error.status, fields: [Field("content-type", "text/plain; charset=utf-8")],
                  body: Array((error.reason + "\n").utf8))
    }

    /// `100 Continue`: the interim answer to `Expect: 100-continue`.
    public static let `continue` = Response(status: 100)

    /// Fields the writer adds itself, so a caller's cannot contradict them.
    static let ownedFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// Appends the response to `output`, or nothing if it cannot be written.
    /// - Parameters:
    ///   - omittingBody: the answer to HEAD: `content-length` says what GET would send, no body follows.
    ///   - closingConnection: adds `connection: close` (not to 1xx, which never ends an exchange).
    /// - Complexity: O(h + b), the octets of the fields and of the body.
    public func encode(into output: inout [UInt8], omittingBody: Bool = false, closingConnection: Bool = false) throws(ResponseError) {
        guard (100...999).contains(status) else { throw .invalidStatus(status) }
        if let field = Field.firstUnwritable(fields, owned: Self.ownedFields) { throw .invalidField(name: field.name) }
        output.append(contentsOf: "HTTP/1.1 \(status) \(ReasonPhrase.of(status))\r\n".utf8)
        Field.write(fields, into: &output)
        let interim = status < 200
        // 204 and 304 have no body and 1xx none either (RFC 9110 §15.3.5, §15.4.5, §15.2).
        let bodiless = interim || status == 204 || status == 304
        if !bodiless { output.append(contentsOf: "content-length: \(body.count)\r\n".utf8) }
        if closingConnection && !interim { output.append(contentsOf: "connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        if !bodiless && !omittingBody { output.append(contentsOf: body) }
    }
}
