/// What a response's status and fields say about its body and the connection (RFC 9112
/// §6.3, §9.3), for the request it answers.
struct ResponseFraming: Hashable, Sendable {
    enum Body: Hashable, Sendable {
        case none
        case length(Int)
        case chunked
        /// Read until the server closes the connection (§6.3 item 8).
        case untilClose
    }

    var body: Body
    var keepAlive: Bool

    /// The framing of a final response, in §6.3's order: no body for HEAD, 204 and 304;
    /// then `Transfer-Encoding` (chunked only: we offer no other coding), then
    /// `Content-Length`, else the body runs to the connection's end. Refused as malformed
    /// where a guess would be needed: both fields (§6.3 lets a recipient close rather than
    /// trust either), a coding other than chunked, lengths that differ or are not digits.
    /// - Complexity: O(f), f the octets of the fields.
    static func of(status: Int, version: Request.Version, fields: [Field], requestMethod: String,
                   limits: ResponseLimits) throws(ResponseParseError) -> ResponseFraming {
        var transferCodings: [String]?
        var contentLengths: [Substring] = []
        var connectionOptions: [String] = []
        for field in fields {
            switch field.name {
            case "transfer-encoding": transferCodings = (transferCodings ?? []) + CharacterClass.listElements(field.value)
            case "content-length": contentLengths += field.value.split(separator: ",", omittingEmptySubsequences: false)
            case "connection": connectionOptions += CharacterClass.listElements(field.value)
            default: break
            }
        }
        var keepAlive = switch version {
        case .http1_1: !connectionOptions.contains("close")
        case .http1_0: connectionOptions.contains("keep-alive") && !connectionOptions.contains("close")
        }
        let body: Body
        if requestMethod == "HEAD" || status == 204 || status == 304 {
            body = .none
        } else if let codings = transferCodings {
            guard contentLengths.isEmpty else { throw .malformed("both Transfer-Encoding and Content-Length") }
            let names = codings.map { String($0.prefix { $0 != ";" }).trimmingWhitespace }
            guard names == ["chunked"] else { throw .malformed("a transfer coding other than chunked once") }
            body = .chunked
        } else if !contentLengths.isEmpty {
            let values = contentLengths.map { CharacterClass.trimmed(ArraySlice($0.utf8)) }
            guard values.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else {
                throw .malformed("a Content-Length that is not a number")
            }
            guard values.allSatisfy({ $0.elementsEqual(values[0]) }) else { throw .malformed("Content-Length values that differ") }
            let digits = values[0].drop { $0 == 0x30 }
            let length = digits.count <= 18 ? digits.reduce(0) { $0 * 10 + Int($1 - 0x30) } : Int.max
            guard length <= limits.maxBodySize else { throw .tooLarge("a body larger than \(limits.maxBodySize) octets") }
            body = length == 0 ? .none : .length(length)
        } else {
            body = .untilClose
            keepAlive = false
        }
        return ResponseFraming(body: body, keepAlive: keepAlive)
    }
}
