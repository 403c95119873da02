// A strict RFC 8259 JSON parser that remembers where every value came from.
//
// Scenario files are written by hand, so when one is wrong the user needs
// `file:line:column: message` pointing at the exact character. Every value,
// and every object key, therefore carries its `SourceLocation`, and every
// syntax error names what was expected, what was found, and where.
//
// The parser works on the UTF-8 bytes with an index and an explicit stack of
// open containers instead of recursion, so hostile nesting cannot overflow
// the call stack; the nesting limit below is a policy, not a safety net.
// Only the standard library is used, and the package's one JSON string escaper
// (`JSONText.string`) to quote keys in messages.


/// A JSON number, kept as written so callers can choose their own precision.
package struct JSONNumber: Equatable, Sendable {
    /// The literal exactly as written, e.g. `"-1.5e3"`.
    package var text: String
    /// True when the literal has no fraction and no exponent (`-0` included,
    /// `1e2` and `1.0` not), whatever its magnitude.
    package var isInteger: Bool
    /// The exact value when `isInteger` and it fits in `Int64`; otherwise nil.
    package var int64Value: Int64?
    /// The nearest `Double`; magnitudes beyond `Double` range become ±infinity.
    package var doubleValue: Double

    /// Creates a number from its parts; the parser fills them consistently.
    package init(text: String, isInteger: Bool, int64Value: Int64?, doubleValue: Double) {
        self.text = text
        self.isInteger = isInteger
        self.int64Value = int64Value
        self.doubleValue = doubleValue
    }
}

/// A JSON value whose children keep their source locations.
package indirect enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as written.
    case number(JSONNumber)
    /// A string with all escapes resolved.
    case string(String)
    /// An array; each element knows where it starts.
    case array([JSONNode])
    /// An object; members stay in file order.
    case object(JSONObject)

    /// The kind with its article, for messages like
    /// "expected a number, found a string": `"null"`, `"a boolean"`,
    /// `"a number"`, `"a string"`, `"an array"` or `"an object"`.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A value together with the location of its first character.
package struct JSONNode: Equatable, Sendable {
    /// The value.
    package var value: JSONValue
    /// Where the value's first character is (`[`, `{`, `"`, `-`, a digit or a letter).
    package var location: SourceLocation

    /// Creates a node.
    package init(value: JSONValue, location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// One `"key": value` pair of an object.
package struct JSONMember: Equatable, Sendable {
    /// The key with escapes resolved.
    package var key: String
    /// Where the key's opening quote is, so "unknown key" errors can point at it.
    package var keyLocation: SourceLocation
    /// The member's value.
    package var value: JSONNode

    /// Creates a member.
    package init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A JSON object: its members in file order. The parser guarantees unique keys.
package struct JSONObject: Equatable, Sendable {
    /// The members in the order they appear in the file.
    package var members: [JSONMember]

    /// Creates an object from members in file order.
    package init(members: [JSONMember]) {
        self.members = members
    }

    /// The value for `key`, or nil when absent.
    ///
    /// Keys compare with `String` equality (canonical equivalence), the same
    /// rule the parser uses to reject duplicates.
    /// - Complexity: O(number of members); scenario objects are small.
    package subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }
}

/// Why a JSON text was rejected, and where.
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A short message quoting what was found, e.g.
    /// `expected ',' or '}' after object member, found ']'`.
    package var message: String
    /// The exact position of the offending character (the end of the text for
    /// "unexpected end of input", the opening quote for "unterminated string").
    package var location: SourceLocation

    /// Creates an error.
    package init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `"line:column: message"`; callers prefix the file name.
    package var description: String { "\(location): \(message)" }
}

/// Entry points of the strict JSON parser.
package enum JSONParser {
    /// The deepest nesting of arrays and objects accepted; one more is an error.
    package static let maximumDepth = 512

    /// Parses one JSON text (RFC 8259). Leading UTF-8 BOM allowed and skipped.
    ///
    /// Strict: no comments, trailing commas, single quotes, leading zeros,
    /// `+`, `.5`, `1.`, NaN or Infinity; only whitespace (space, tab, LF, CR)
    /// may follow the value; strings must be valid UTF-8 without raw control
    /// characters or lone surrogates; keys must be unique within an object.
    /// - Complexity: O(n) in the number of bytes.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONByteParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses one JSON text (RFC 8259) given as a string; see `parse(_:)` for bytes.
    /// - Complexity: O(n) in the number of UTF-8 bytes of `text`.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }
}

// MARK: - Implementation

/// ASCII code points used by the grammar, named so the switches read like it.
/// Byte classes of ASCII text, for the parsers of outside bytes.
package enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// Letters, digits and `_`: what we treat as one "word" when quoting a bad
    /// literal such as `NaN` or `tru`, so the message shows the whole word.
    static func isWordByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_")
    }

    /// The value of a hex digit (either case), or nil.
    /// - Complexity: O(1).
    package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case zero...nine: UInt32(byte - zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// An array or object that has been opened but not yet closed.
///
/// Keeping these on an explicit stack, rather than recursing, bounds the call
/// stack no matter how deep the input nests.
private struct OpenContainer {
    var isObject: Bool
    /// Location of the `[` or `{`, which becomes the container node's location.
    var location: SourceLocation
    var elements: [JSONNode] = []
    var members: [JSONMember] = []
    /// Keys seen so far, so duplicate detection stays O(1) per key.
    var keys: Set<String> = []
    /// The key whose value is being parsed (objects only).
    var pendingKey = ""
    var pendingKeyLocation = SourceLocation(line: 0, column: 0)

    var opener: String { isObject ? "{" : "[" }
}

/// The parsing state: the bytes, a cursor, and what is needed to turn a byte
/// offset into a line and column.
private struct JSONByteParser {
    let bytes: [UInt8]
    var position = 0

    // Newlines can only occur in whitespace (raw control characters inside
    // strings are errors), so lines are counted in `skipWhitespace` alone.
    var line = 1
    var lineStart = 0

    // Columns are counted lazily from the last computed position on the same
    // line. Locations are requested in increasing order, so the total work is
    // O(n) even for a 1 MB file on one line.
    var columnCacheOffset = 0
    var columnCacheValue = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A BOM is not part of the text: skip it and start column 1 after it.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
            lineStart = 3
            columnCacheOffset = 3
        }
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        var stack: [OpenContainer] = []
        var result: JSONNode

        document: while true {
            // Here a value is expected.
            skipWhitespace()
            guard position < bytes.count else {
                throw endOfInput(innermost: stack.last)
            }
            let start = location(at: position)
            var node: JSONNode
            switch bytes[position] {
            case ASCII.openBracket:
                try checkDepth(stack.count)
                position += 1
                skipWhitespace()
                if peek() == ASCII.closeBracket {
                    position += 1
                    node = JSONNode(value: .array([]), location: start)
                } else {
                    stack.append(OpenContainer(isObject: false, location: start))
                    continue document
                }
            case ASCII.openBrace:
                try checkDepth(stack.count)
                position += 1
                skipWhitespace()
                if peek() == ASCII.closeBrace {
                    position += 1
                    node = JSONNode(value: .object(JSONObject(members: [])), location: start)
                } else {
                    var container = OpenContainer(isObject: true, location: start)
                    try parseKey(into: &container, afterComma: false)
                    stack.append(container)
                    continue document
                }
            case ASCII.quote:
                node = JSONNode(value: .string(try parseString()), location: start)
            case ASCII.minus, ASCII.zero...ASCII.nine:
                node = JSONNode(value: .number(try parseNumber()), location: start)
            case let byte where ASCII.isLetter(byte):
                node = JSONNode(value: try parseLiteral(), location: start)
            default:
                throw unexpected("expected a value", at: position, innermost: stack.last)
            }

            // A value is complete: hand it to the enclosing container, closing
            // every container that ends right after it.
            while true {
                guard !stack.isEmpty else {
                    result = node
                    break document
                }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(JSONMember(
                        key: stack[top].pendingKey,
                        keyLocation: stack[top].pendingKeyLocation,
                        value: node))
                } else {
                    stack[top].elements.append(node)
                }
                skipWhitespace()
                let closer = stack[top].isObject ? ASCII.closeBrace : ASCII.closeBracket
                switch peek() {
                case ASCII.comma:
                    // Located now: the whitespace after it may start a new line.
                    let commaLocation = location(at: position)
                    position += 1
                    skipWhitespace()
                    if peek() == closer {
                        // Point at the comma itself: it is the offending character.
                        throw JSONSyntaxError(
                            message: "trailing comma before '\(Character(Unicode.Scalar(closer)))'",
                            location: commaLocation)
                    }
                    if stack[top].isObject {
                        try parseKey(into: &stack[top], afterComma: true)
                    }
                    continue document
                case closer:
                    position += 1
                    let container = stack.removeLast()
                    node = container.isObject
                        ? JSONNode(value: .object(JSONObject(members: container.members)), location: container.location)
                        : JSONNode(value: .array(container.elements), location: container.location)
                default:
                    let what = stack[top].isObject
                        ? "expected ',' or '}' after object member"
                        : "expected ',' or ']' after array element"
                    throw unexpected(what, at: position, innermost: stack[top])
                }
            }
        }

        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describe(at: position)) after the JSON value", at: position)
        }
        return result
    }

    /// Rejects opening one more container when `depth` are already open.
    mutating func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        if depth >= JSONParser.maximumDepth {
            throw error("nesting is deeper than \(JSONParser.maximumDepth) levels", at: position)
        }
    }

    /// Parses `"key" :` and records the key as `container`'s pending key.
    mutating func parseKey(into container: inout OpenContainer, afterComma: Bool) throws(JSONSyntaxError) {
        guard peek() == ASCII.quote else {
            let what = afterComma ? "expected a string key after ','" : "expected a string key or '}'"
            throw unexpected(what, at: position, innermost: container)
        }
        let keyLocation = location(at: position)
        let key = try parseString()
        guard container.keys.insert(key).inserted else {
            throw JSONSyntaxError(message: "duplicate key \(UserText.quote(key))", location: keyLocation)
        }
        skipWhitespace()
        guard peek() == ASCII.colon else {
            throw unexpected("expected ':' after object key", at: position, innermost: container)
        }
        position += 1
        container.pendingKey = key
        container.pendingKeyLocation = keyLocation
    }

    // MARK: Scalars

    /// Parses `true`, `false` or `null`. The whole run of word characters is
    /// taken so that `nulls` or `NaN` is reported as one word.
    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var end = start
        while end < bytes.count, ASCII.isWordByte(bytes[end]) { end += 1 }
        let word = bytes[start..<end]
        let value: JSONValue
        if word.elementsEqual("true".utf8) {
            value = .bool(true)
        } else if word.elementsEqual("false".utf8) {
            value = .bool(false)
        } else if word.elementsEqual("null".utf8) {
            value = .null
        } else {
            throw error("expected a value, found \(describe(at: start))", at: start)
        }
        position = end
        return value
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        var isInteger = true
        if peek() == ASCII.minus {
            position += 1
            guard let byte = peek(), ASCII.isDigit(byte) else {
                throw unexpected("expected a digit after '-'", at: position, innermost: nil)
            }
        }
        if peek() == ASCII.zero {
            if position + 1 < bytes.count, ASCII.isDigit(bytes[position + 1]) {
                throw error("invalid number '\(numberLikeText(from: start))': leading zeros are not allowed", at: position)
            }
            position += 1
        } else {
            skipDigits()
        }
        if peek() == ASCII.dot {
            isInteger = false
            position += 1
            guard let byte = peek(), ASCII.isDigit(byte) else {
                throw unexpected("expected a digit after '.' in number", at: position, innermost: nil)
            }
            skipDigits()
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if let sign = peek(), sign == ASCII.plus || sign == ASCII.minus { position += 1 }
            guard let byte = peek(), ASCII.isDigit(byte) else {
                throw unexpected("expected a digit in number exponent", at: position, innermost: nil)
            }
            skipDigits()
        }

        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        let integer = isInteger ? exactInt64(start..<position) : nil
        // The standard library's conversion is correctly rounded and accepts
        // exactly this grammar; it yields ±infinity when out of range.
        let double = Double(text) ?? .nan
        return JSONNumber(text: text, isInteger: isInteger, int64Value: integer, doubleValue: double)
    }

    mutating func skipDigits() {
        while position < bytes.count, ASCII.isDigit(bytes[position]) { position += 1 }
    }

    /// The value of an integer literal in `range` if it fits in `Int64`.
    /// Accumulates toward the literal's sign so that `Int64.min` still fits.
    func exactInt64(_ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(bytes[index] - ASCII.zero)
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The run of number-like characters from `start`, to quote a bad number whole.
    func numberLikeText(from start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 32 {
            let byte = bytes[end]
            guard ASCII.isDigit(byte) || byte == ASCII.minus || byte == ASCII.plus || byte == ASCII.dot
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { break }
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote, validating UTF-8.
    ///
    /// Without escapes the contents are decoded straight from the input; a
    /// buffer is built only once the first escape appears.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let openingQuote = position
        position += 1
        var segmentStart = position
        var buffer: [UInt8] = []
        var sawEscape = false
        while true {
            guard position < bytes.count else {
                // Pointing at the end of the file would not help; the opening
                // quote shows which string never ends.
                throw error("unterminated string", at: openingQuote)
            }
            let byte = bytes[position]
            if byte == ASCII.quote {
                let contents: String
                if sawEscape {
                    buffer.append(contentsOf: bytes[segmentStart..<position])
                    contents = String(decoding: buffer, as: UTF8.self)
                } else {
                    contents = String(decoding: bytes[segmentStart..<position], as: UTF8.self)
                }
                position += 1
                return contents
            } else if byte == ASCII.backslash {
                sawEscape = true
                buffer.append(contentsOf: bytes[segmentStart..<position])
                try parseEscape(into: &buffer, openingQuote: openingQuote)
                segmentStart = position
            } else if byte < 0x20 {
                throw error("unescaped control character \(scalarCode(UInt32(byte))) in string", at: position)
            } else if byte < 0x80 {
                position += 1
            } else if let length = validUTF8Length(at: position) {
                position += length
            } else {
                throw error("invalid UTF-8 in string (byte \(byteCode(byte)))", at: position)
            }
        }
    }

    /// Parses one escape at `position` (a backslash) and appends its UTF-8.
    /// Escape errors point at the backslash, where the bad escape begins.
    mutating func parseEscape(into buffer: inout [UInt8], openingQuote: Int) throws(JSONSyntaxError) {
        let backslash = position
        guard backslash + 1 < bytes.count else {
            throw error("unterminated string", at: openingQuote)
        }
        let simple: UInt8?
        switch bytes[backslash + 1] {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case ASCII.slash: simple = ASCII.slash
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = ASCII.lineFeed
        case UInt8(ascii: "r"): simple = ASCII.carriageReturn
        case UInt8(ascii: "t"): simple = ASCII.tab
        case UInt8(ascii: "u"): simple = nil
        default:
            throw error("invalid escape \(describeEscape(at: backslash + 1))", at: backslash)
        }
        if let simple {
            buffer.append(simple)
            position += 2
            return
        }

        let unit = try hex4(after: backslash, openingQuote: openingQuote)
        position += 6
        var scalarValue = unit
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate is only meaningful followed by `\u` + low surrogate.
            guard position + 1 < bytes.count,
                  bytes[position] == ASCII.backslash,
                  bytes[position + 1] == UInt8(ascii: "u"),
                  let low = hex4IfPresent(after: position),
                  (0xDC00...0xDFFF).contains(low)
            else {
                throw error("unpaired surrogate '\\u\(hex4Text(unit))' in string", at: backslash)
            }
            position += 6
            scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error("unpaired surrogate '\\u\(hex4Text(unit))' in string", at: backslash)
        default:
            break
        }
        appendUTF8(scalarValue, to: &buffer)
    }

    /// The four hex digits of a `\u` escape whose backslash is at `backslash`.
    mutating func hex4(after backslash: Int, openingQuote: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for index in (backslash + 2)..<(backslash + 6) {
            guard index < bytes.count else {
                throw error("unterminated string", at: openingQuote)
            }
            guard let digit = ASCII.hexValue(bytes[index]) else {
                // Quote just the one bad character: `\u12G4` should say 'G', not 'G4'.
                let byte = bytes[index]
                let found = byte > 0x20 && byte < 0x7F && byte != ASCII.apostrophe
                    ? "'\(Character(Unicode.Scalar(byte)))'"
                    : describe(at: index)
                throw error("invalid escape '\\u': expected 4 hex digits, found \(found)", at: backslash)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Like `hex4(after:openingQuote:)` but nil instead of an error, for
    /// looking ahead at the low half of a surrogate pair.
    func hex4IfPresent(after backslash: Int) -> UInt32? {
        guard backslash + 6 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in (backslash + 2)..<(backslash + 6) {
            guard let digit = ASCII.hexValue(bytes[index]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    func appendUTF8(_ value: UInt32, to buffer: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            buffer.append(UInt8(value))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | (value >> 6)))
            buffer.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | (value >> 12)))
            buffer.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (value & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | (value >> 18)))
            buffer.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629:
    /// no overlong forms, no encoded surrogates, nothing above U+10FFFF),
    /// or nil when it is malformed or truncated.
    func validUTF8Length(at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: Positions

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Skips JSON whitespace, counting lines. CRLF is one line break; a lone
    /// CR or LF is one too.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case ASCII.space, ASCII.tab:
                position += 1
            case ASCII.lineFeed:
                position += 1
                startLine()
            case ASCII.carriageReturn:
                position += 1
                if position < bytes.count, bytes[position] == ASCII.lineFeed { position += 1 }
                startLine()
            default:
                return
            }
        }
    }

    mutating func startLine() {
        line += 1
        lineStart = position
        columnCacheOffset = position
        columnCacheValue = 1
    }

    /// The location of `offset`, which must lie on the current line.
    ///
    /// Counts scalar-leading bytes (everything but 10xxxxxx continuation bytes);
    /// all bytes before an error have been validated, so this is the scalar count.
    mutating func location(at offset: Int) -> SourceLocation {
        if offset < columnCacheOffset {
            columnCacheOffset = lineStart
            columnCacheValue = 1
        }
        var column = columnCacheValue
        var index = columnCacheOffset
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnCacheOffset = offset
        columnCacheValue = column
        return SourceLocation(line: line, column: column)
    }

    // MARK: Messages

    mutating func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location(at: offset))
    }

    /// "`expectation`, found X", or, at the end of the text, which container
    /// is still open (the end of the file alone rarely tells the user much).
    mutating func unexpected(_ expectation: String, at offset: Int, innermost: OpenContainer?) -> JSONSyntaxError {
        if offset >= bytes.count {
            guard let innermost else { return error("unexpected end of input", at: offset) }
            return error("unexpected end of input, '\(innermost.opener)' at \(innermost.location) is not closed", at: offset)
        }
        return error("\(expectation), found \(describe(at: offset))", at: offset)
    }

    mutating func endOfInput(innermost: OpenContainer?) -> JSONSyntaxError {
        unexpected("expected a value", at: bytes.count, innermost: innermost)
    }

    /// What sits at `offset`, quoted for a message: `']'`, `'NaN'`, `"'"`,
    /// `'é' (U+00E9)`, `control character U+0001`, `end of input`...
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        switch byte {
        case ASCII.apostrophe:
            return "\"'\""
        case let letter where ASCII.isWordByte(letter):
            // Quote the whole word so `NaN` reads as NaN, not N; cap its length.
            var end = offset
            while end < bytes.count, end - offset < 24, ASCII.isWordByte(bytes[end]) { end += 1 }
            let more = end < bytes.count && ASCII.isWordByte(bytes[end]) ? "..." : ""
            return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))\(more)'"
        case 0x20..<0x7F:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x20, 0x7F:
            return "control character \(scalarCode(UInt32(byte)))"
        default:
            guard let length = validUTF8Length(at: offset) else {
                return "invalid UTF-8 (byte \(byteCode(byte)))"
            }
            let text = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            // The code point too: a stray non-breaking space is invisible when quoted.
            let scalar = text.unicodeScalars.first?.value ?? 0
            return "'\(UserText.escape(text))' (\(scalarCode(scalar)))"
        }
    }

    /// The escape character after a backslash, quoted with its backslash: `'\q'`.
    func describeEscape(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x20, byte < 0x7F {
            return "'\\\(Character(Unicode.Scalar(byte)))'"
        }
        return "'\\' followed by \(describe(at: offset))"
    }

    func hex4Text(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func scalarCode(_ value: UInt32) -> String { "U+" + hex4Text(value) }

    func byteCode(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" : "") + digits
    }
}

/// A position in a JSON text (a scenario file): 1-based line and column.
///
/// The column counts Unicode scalars from the start of the line, so a line
/// holding `"é": x` puts `x` at column 7 even though `é` takes two bytes;
/// a tab counts as one column. LF, CR and CRLF each end one line.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `"line:column"`, ready to follow `file:` in a diagnostic.
    public var description: String { "\(line):\(column)" }
}
