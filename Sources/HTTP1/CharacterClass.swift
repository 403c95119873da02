/// The octet classes of RFC 9110 §5.6 and RFC 9112 that request syntax is checked against.
enum CharacterClass {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let carriageReturn = UInt8(ascii: "\r")
    static let lineFeed = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")

    /// tchar (RFC 9110 §5.6.2), what methods, field names and codings are made of, as a
    /// table: the scan over a header section asks once per octet.
    private static let tokenTable: [Bool] = (0..<256).map { octet in
        switch octet {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(UInt8(octet))
        }
    }

    /// Whether `octet` may appear in a token.
    /// - Complexity: O(1).
    static func isToken(_ octet: UInt8) -> Bool { tokenTable[Int(octet)] }

    /// Whether `octet` may appear in a field value: VCHAR, obs-text, SP and HTAB (RFC 9110
    /// §5.5). CR, LF, NUL, the other controls and DEL may not.
    /// - Complexity: O(1).
    static func isFieldValue(_ octet: UInt8) -> Bool {
        octet == tab || (octet >= 0x20 && octet != 0x7f)
    }

    /// Whether `octet` may appear in a request target: visible ASCII (RFC 9112 §3.2; the
    /// URI grammar allows no space, control or non-ASCII octet).
    /// - Complexity: O(1).
    static func isTarget(_ octet: UInt8) -> Bool { octet > 0x20 && octet < 0x7f }

    /// Whether `octet` is optional whitespace (OWS: SP or HTAB).
    /// - Complexity: O(1).
    static func isWhitespace(_ octet: UInt8) -> Bool { octet == space || octet == tab }

    /// `octet` in lowercase if it is an ASCII capital.
    /// - Complexity: O(1).
    static func lowercased(_ octet: UInt8) -> UInt8 { octet >= 0x41 && octet <= 0x5a ? octet | 0x20 : octet }

    /// `octets` without the OWS at either end.
    /// - Complexity: O(n).
    static func trimmed(_ octets: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = octets
        while let first = slice.first, isWhitespace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isWhitespace(last) { slice = slice.dropLast() }
        return slice
    }

    /// The elements of a comma-separated list (RFC 9110 §5.6.1), trimmed and lowercased,
    /// empty elements dropped.
    /// - Complexity: O(n).
    static func listElements(_ value: String) -> [String] {
        value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).compactMap { element in
            let trimmed = trimmed(ArraySlice(element))
            return trimmed.isEmpty ? nil : String(decoding: trimmed.map(lowercased), as: UTF8.self)
        }
    }
}
