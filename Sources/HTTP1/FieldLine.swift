/// A field line (RFC 9112 §5): `field-name ":" OWS field-value OWS`.
enum FieldLine {
    /// Parses one field line, without its line ending. Refused (400): a line folded onto
    /// the previous one (obs-fold, which a server may reject, §5.2), whitespace before the
    /// colon (§5.1: MUST be rejected), a name that is not a token, a value with a control
    /// octet (a bare CR among them).
    /// - Complexity: O(n), n the octets.
    static func parse(_ line: ArraySlice<UInt8>) throws(RequestError) -> Field {
        guard let first = line.first, !CharacterClass.isWhitespace(first) else {
            throw .badRequest("a field line starting with whitespace (obs-fold)")
        }
        guard let colon = line.firstIndex(of: CharacterClass.colon) else { throw .badRequest("a field line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(CharacterClass.isToken) else {
            throw .badRequest("a field name that is not a token (or whitespace before its colon)")
        }
        let value = CharacterClass.trimmed(line[(colon + 1)...])
        guard value.allSatisfy(CharacterClass.isFieldValue) else {
            throw .badRequest("a field value with a control octet")
        }
        return Field(String(decoding: name.map(CharacterClass.lowercased), as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
}
