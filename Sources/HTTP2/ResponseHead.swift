/// A response's header section once validated (RFC 9113 §8.3.2): `:status` and the
/// regular fields.
struct ResponseHead: Hashable, Sendable {
    var status: Int
    var fields: [HeaderField]
    var contentLength: Int?
}

extension FieldValidation {
    /// Validates a response's fields (RFC 9113 §8.3.2): `:status` once, first, three
    /// digits; no other pseudo-header field; the regular fields' rules of §8.2.
    /// - Complexity: O(n), n the octets of the fields.
    static func response(_ fields: [HeaderField], stream: StreamID) throws(ProtocolError) -> ResponseHead {
        func malformed(_ reason: String) -> ProtocolError { .stream(stream, .protocolError, "malformed response: " + reason) }
        var status: Int?
        var regular: [HeaderField] = []
        regular.reserveCapacity(fields.count)
        var contentLength: Int?
        for field in fields {
            try field.withOctets { name, value throws(ProtocolError) in
                if name.first == UInt8(ascii: ":") {
                    guard Octets.equal(name, ":status") else { throw malformed("the pseudo-header field \(field.nameString)") }
                    guard status == nil else { throw malformed("a duplicate :status") }
                    guard regular.isEmpty else { throw malformed(":status after a regular field") }
                    guard value.count == 3, let number = decimal(value), number >= 100 else {
                        throw malformed("a :status that is not three digits")
                    }
                    status = number
                    return
                }
                if let problem = regularFieldProblem(name: name, value: value) { throw malformed(problem) }
                if Octets.equal(name, "content-length") {
                    guard let length = decimal(value) else { throw malformed("content-length is not a number") }
                    guard contentLength == nil || contentLength == length else { throw malformed("content-length values differ") }
                    contentLength = length
                }
                regular.append(field)
            }
        }
        guard let status else { throw malformed("no :status") }
        // §8.6: 101 does not exist in HTTP/2.
        guard status != 101 else { throw malformed(":status 101") }
        return ResponseHead(status: status, fields: regular, contentLength: contentLength)
    }
}
