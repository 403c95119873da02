/// A request as a client writes it (RFC 9112 §3, §6): the request line, the fields, then
/// `content-length` and, when the connection ends after it, `connection: close`, then the
/// body. Never chunked: every body is whole.
extension Request {
    /// Fields the writer adds itself, so a caller's cannot contradict them.
    static let ownedFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// Methods whose requests carry a body by their meaning: they get `content-length`
    /// even when it is 0 (RFC 9110 §8.6: a user agent SHOULD send it then).
    static let methodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

    /// Appends the request to `output`, or nothing if it cannot be written. An HTTP/1.1
    /// request must name its `host` among its fields (RFC 9112 §3.2); `keepAlive` false
    /// adds `connection: close`.
    /// - Complexity: O(h + b), the octets of the fields and of the body.
    public func encode(into output: inout [UInt8]) throws(RequestEncodingError) {
        guard !method.isEmpty, method.utf8.allSatisfy(CharacterClass.isToken) else { throw .invalidMethod(method) }
        guard !target.isEmpty, target.utf8.allSatisfy(CharacterClass.isTarget) else { throw .invalidTarget(target) }
        if let field = Field.firstUnwritable(fields, owned: Self.ownedFields) { throw .invalidField(name: field.name) }
        let hosts = fields.filter { $0.name.lowercased() == "host" }.count
        guard hosts == 1 || (hosts == 0 && version == .http1_0) else { throw .host(count: hosts) }
        output.append(contentsOf: "\(method) \(target) HTTP/1.\(version == .http1_0 ? 0 : 1)\r\n".utf8)
        Field.write(fields, into: &output)
        if !body.isEmpty || Self.methodsWithBody.contains(method) { output.append(contentsOf: "content-length: \(body.count)\r\n".utf8) }
        if !keepAlive { output.append(contentsOf: "connection: close\r\n".utf8) }
        if keepAlive && version == .http1_0 { output.append(contentsOf: "connection: keep-alive\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: body)
    }
}

/// Why a `Request` cannot be written: what it holds would break the message or the
/// connection (request splitting, a second framing).
public enum RequestEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A method that is not a token.
    case invalidMethod(String)
    /// A target that is empty or holds a space, a control or a non-ASCII octet.
    case invalidTarget(String)
    /// A field whose name is not a token, whose value holds CR, LF or another control
    /// octet, or that the writer owns (`content-length`, `transfer-encoding`, `connection`).
    case invalidField(name: String)
    /// An HTTP/1.1 request without exactly one `host` field (this many).
    case host(count: Int)

    public var description: String {
        switch self {
        case .invalidMethod(let method): "the method \(method.debugDescription) is not a token"
        case .invalidTarget(let target): "the request target \(target.debugDescription) cannot be written"
        case .invalidField(let name): "the request field \(name.debugDescription) cannot be written"
        case .host(let count): "an HTTP/1.1 request needs one host field, not \(count)"
        }
    }
}
