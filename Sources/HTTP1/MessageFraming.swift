/// What a request's header fields say about its body and its connection (RFC 9112 §6,
/// §9.3): how the body is delimited, whether the connection persists, whether the client
/// waits for `100 Continue`. Decided once the header section is whole.
struct MessageFraming: Hashable, Sendable {
    enum Body: Hashable, Sendable {
        case none
        case length(Int)
        case chunked
    }

    var body: Body
    var keepAlive: Bool
    var expectsContinue: Bool

    /// Reads the framing of a request from its fields, refusing what cannot be framed
    /// without guessing, since guessing is how request smuggling starts:
    /// - `Transfer-Encoding` with `Content-Length` (400: RFC 9112 §6.3 allows rejecting it),
    ///   in HTTP/1.0 (400, §6.1: its framing is faulty), with a coding other than chunked
    ///   (501: none is implemented), with chunked twice or not at all (400);
    /// - `Content-Length` that is not digits, or values that differ (400), or more than
    ///   `limits.maxBodySize` (413);
    /// - an HTTP/1.1 request without exactly one `Host`, any request with two (400, §3.2).
    /// - Complexity: O(f), f the octets of the fields.
    static func of(version: Request.Version, fields: [Field], limits: RequestLimits) throws(RequestError) -> MessageFraming {
        var hosts = 0
        var transferCodings: [String]?
        var contentLengths: [Substring.UTF8View] = []
        var connectionOptions: [String] = []
        var expectations: [String] = []
        for field in fields {
            switch field.name {
            case "host": hosts += 1
            case "transfer-encoding": transferCodings = (transferCodings ?? []) + CharacterClass.listElements(field.value)
            case "content-length":
                contentLengths += field.value.split(separator: ",", omittingEmptySubsequences: false).map(\.utf8)
            case "connection": connectionOptions += CharacterClass.listElements(field.value)
            case "expect": expectations += CharacterClass.listElements(field.value)
            default: break
            }
        }
        guard hosts <= 1 else { throw .badRequest("more than one Host field") }
        guard hosts == 1 || version == .http1_0 else { throw .badRequest("an HTTP/1.1 request without a Host field") }

        let body: Body
        if let codings = transferCodings {
            guard version == .http1_1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            guard contentLengths.isEmpty else { throw .badRequest("both Transfer-Encoding and Content-Length") }
            guard !codings.isEmpty else { throw .badRequest("an empty Transfer-Encoding") }
            // A coding's parameters follow a semicolon; its name is what decides.
            let names = codings.map { String($0.prefix { $0 != ";" }).trimmingWhitespace }
            guard names.allSatisfy({ $0 == "chunked" }) else {
                throw .notImplemented("a transfer coding other than chunked")
            }
            guard names.count == 1 else { throw .badRequest("chunked applied more than once") }
            body = .chunked
        } else if let first = contentLengths.first {
            // "Content-Length: 5, 5" and repeated equal fields are one length (§6.3 item 5).
            let values = contentLengths.map { CharacterClass.trimmed(ArraySlice($0)) }
            guard values.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else {
                throw .badRequest("a Content-Length that is not a number")
            }
            guard values.allSatisfy({ $0.elementsEqual(CharacterClass.trimmed(ArraySlice(first))) }) else {
                throw .badRequest("Content-Length values that differ")
            }
            let digits = values[0].drop { $0 == 0x30 }
            guard digits.count <= 18 else { throw .contentTooLarge("a body larger than \(limits.maxBodySize) octets") }
            let length = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard length <= limits.maxBodySize else { throw .contentTooLarge("a body larger than \(limits.maxBodySize) octets") }
            body = length == 0 ? .none : .length(length)
        } else {
            body = .none // a request without either has no body (§6.3 item 7)
        }

        let keepAlive = switch version {
        case .http1_1: !connectionOptions.contains("close")
        case .http1_0: connectionOptions.contains("keep-alive") && !connectionOptions.contains("close")
        }
        // RFC 9110 §10.1.1: only an HTTP/1.1 client waits for 100 Continue.
        let expectsContinue = version == .http1_1 && body != .none && expectations.contains("100-continue")
        return MessageFraming(body: body, keepAlive: keepAlive, expectsContinue: expectsContinue)
    }
}

extension String {
    /// Without SP and HTAB at either end.
    var trimmingWhitespace: String {
        String(decoding: CharacterClass.trimmed(ArraySlice(utf8)), as: UTF8.self)
    }
}
