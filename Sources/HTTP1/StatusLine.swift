/// The status line (RFC 9112 §4): `HTTP-version SP status-code SP [ reason-phrase ]`.
struct StatusLine: Hashable, Sendable {
    var version: Request.Version
    var status: Int

    /// Parses one status line, without its line ending. The reason phrase is read for its
    /// octets and dropped (a client "SHOULD ignore" it); a missing space before an empty
    /// one is tolerated, as many servers omit it.
    /// - Complexity: O(n), n the octets.
    static func parse(_ line: ArraySlice<UInt8>) throws(ResponseParseError) -> StatusLine {
        guard line.count >= 12, line[line.startIndex + 8] == CharacterClass.space else {
            throw .malformed("a status line that is not HTTP/d.d SP status")
        }
        let version: Request.Version
        do {
            version = try RequestLine.parseVersion(line.prefix(8))
        } catch {
            throw .malformed(error.status == 505 ? "an HTTP version other than 1.x" : "the HTTP version is not HTTP/digit.digit")
        }
        let digits = line[(line.startIndex + 9)..<(line.startIndex + 12)]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != 0x30 else {
            throw .malformed("a status code that is not three digits from 100")
        }
        let rest = line[(line.startIndex + 12)...]
        guard rest.isEmpty || rest.first == CharacterClass.space, rest.allSatisfy(CharacterClass.isFieldValue) else {
            throw .malformed("a reason phrase with a control octet")
        }
        return StatusLine(version: version, status: digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }
}
