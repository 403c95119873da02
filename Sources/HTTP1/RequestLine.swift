/// The request line (RFC 9112 §3): `method SP request-target SP HTTP-version`, single
/// spaces, nothing else. The target's length is the parser's to bound (414) before this.
struct RequestLine: Hashable, Sendable {
    var method: String
    var target: String
    var version: Request.Version

    /// Parses one request line, without its line ending.
    /// - Complexity: O(n), n the octets.
    static func parse(_ line: ArraySlice<UInt8>) throws(RequestError) -> RequestLine {
        guard let firstSpace = line.firstIndex(of: CharacterClass.space) else {
            throw .badRequest("a request line without spaces")
        }
        let method = line[line.startIndex..<firstSpace]
        guard !method.isEmpty, method.allSatisfy(CharacterClass.isToken) else {
            throw .badRequest("the method is not a token")
        }
        let afterMethod = line[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: CharacterClass.space) else {
            throw .badRequest("a request line without an HTTP version")
        }
        let target = afterMethod[afterMethod.startIndex..<secondSpace]
        guard !target.isEmpty, target.allSatisfy(CharacterClass.isTarget) else {
            throw .badRequest("the request target is empty or holds a space, a control or a non-ASCII octet")
        }
        let version = try parseVersion(afterMethod[(secondSpace + 1)...])
        return RequestLine(method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                           version: version)
    }

    /// `HTTP/` DIGIT `.` DIGIT (RFC 9112 §2.3); a major version other than 1 is well formed
    /// but not ours (505).
    static func parseVersion(_ octets: ArraySlice<UInt8>) throws(RequestError) -> Request.Version {
        let bytes = Array(octets)
        guard bytes.count == 8, bytes[0..<5] == Array("HTTP/".utf8)[...], bytes[6] == UInt8(ascii: "."),
              let major = digit(bytes[5]), let minor = digit(bytes[7]) else {
            throw .badRequest("the HTTP version is not HTTP/digit.digit")
        }
        guard major == 1 else { throw .versionNotSupported("HTTP/\(major).\(minor): this server speaks HTTP/1.1") }
        return minor == 0 ? .http1_0 : .http1_1
    }

    private static func digit(_ octet: UInt8) -> Int? {
        octet >= 0x30 && octet <= 0x39 ? Int(octet - 0x30) : nil
    }
}
