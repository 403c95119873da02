@testable import Base
import Testing

/// A JSON text the parser must reject, with the exact message and location.
struct JSONRejection: Sendable, CustomTestStringConvertible {
    var input: String
    var message: String
    var line: Int
    var column: Int

    init(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        self.input = input
        self.message = message
        self.line = line
        self.column = column
    }

    var testDescription: String { input.debugDescription }
}

@Suite("JSON parser")
struct JSONParserTests {

    // MARK: Helpers

    /// Parses `text`, returning the error it throws, or nil when it parses.
    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        syntaxError(Array(text.utf8))
    }

    /// Parses `bytes`, returning the error it throws, or nil when it parses.
    private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The error expected at `line`:`column`, for comparing with `syntaxError(_:)`.
    private func expected(_ message: String, _ line: Int, _ column: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: SourceLocation(line: line, column: column))
    }

    // MARK: Values and locations

    @Test("parses literals, numbers and strings at the top level")
    func parsesScalars() throws {
        #expect(try JSONParser.parse("null").value == .null)
        #expect(try JSONParser.parse("true").value == .bool(true))
        #expect(try JSONParser.parse("false").value == .bool(false))
        #expect(try JSONParser.parse("\"hi\"").value == .string("hi"))
        #expect(try JSONParser.parse("[]").value == .array([]))
        #expect(try JSONParser.parse("{}").value == .object(JSONObject(members: [])))
        guard case .number(let number) = try JSONParser.parse(" 42 ").value else {
            Issue.record("42 did not parse as a number")
            return
        }
        #expect(number.int64Value == 42)
    }

    @Test("every value, key and element records the location of its first character")
    func recordsLocations() throws {
        let text = """
            {
              "name": "demo",
              "list": [1, true, null],
              "nested": {"k": -2.5e1}
            }
            """
        let root = try JSONParser.parse(text)
        #expect(root.location == SourceLocation(line: 1, column: 1))
        guard case .object(let object) = root.value else {
            Issue.record("root is not an object")
            return
        }
        #expect(object.members.map(\.key) == ["name", "list", "nested"])
        #expect(object.members.map(\.keyLocation) == [
            SourceLocation(line: 2, column: 3),
            SourceLocation(line: 3, column: 3),
            SourceLocation(line: 4, column: 3),
        ])
        #expect(object["name"]?.location == SourceLocation(line: 2, column: 11))

        let list = try #require(object["list"])
        #expect(list.location == SourceLocation(line: 3, column: 11))
        guard case .array(let elements) = list.value else {
            Issue.record("list is not an array")
            return
        }
        #expect(elements.map(\.location) == [
            SourceLocation(line: 3, column: 12),
            SourceLocation(line: 3, column: 15),
            SourceLocation(line: 3, column: 21),
        ])

        let nested = try #require(object["nested"])
        #expect(nested.location == SourceLocation(line: 4, column: 13))
        guard case .object(let inner) = nested.value else {
            Issue.record("nested is not an object")
            return
        }
        #expect(inner.members.first?.keyLocation == SourceLocation(line: 4, column: 14))
        #expect(inner["k"]?.location == SourceLocation(line: 4, column: 19))
    }

    @Test("object members keep file order and the subscript finds them by key")
    func objectOrderAndLookup() throws {
        let root = try JSONParser.parse(#"{"b": 1, "a": 2, "c": {"a": 3}}"#)
        guard case .object(let object) = root.value else {
            Issue.record("root is not an object")
            return
        }
        #expect(object.members.map(\.key) == ["b", "a", "c"])
        guard case .number(let a) = object["a"]?.value else {
            Issue.record("a is missing or not a number")
            return
        }
        #expect(a.int64Value == 2)
        #expect(object["missing"] == nil)
    }

    @Test("the same key may appear in different objects")
    func sameKeyInSiblingObjects() throws {
        #expect(syntaxError(#"{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]}"#) == nil)
    }

    @Test("kindName names each kind with its article")
    func kindNames() throws {
        let kinds = try ["null", "true", "1", "\"s\"", "[]", "{}"].map { try JSONParser.parse($0).value.kindName }
        #expect(kinds == ["null", "a boolean", "a number", "a string", "an array", "an object"])
    }

    @Test("parsing a String gives the same result as parsing its UTF-8 bytes")
    func stringAndBytesAgree() throws {
        let text = "{\"ключ\": [1, \"é\", {\"x\": null}]}"
        #expect(try JSONParser.parse(text) == JSONParser.parse(Array(text.utf8)))
    }

    @Test("an error describes itself as line:column: message")
    func errorDescription() {
        #expect(expected("unterminated string", 3, 7).description == "3:7: unterminated string")
        #expect(SourceLocation(line: 12, column: 1).description == "12:1")
    }

    // MARK: Whitespace, lines and columns

    @Test("a leading UTF-8 byte order mark is skipped and columns start after it")
    func skipsByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1, x]".utf8)
        #expect(syntaxError(bytes) == expected("expected a value, found 'x'", 1, 5))
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("true".utf8))
        #expect(node == JSONNode(value: .bool(true), location: SourceLocation(line: 1, column: 1)))
    }

    @Test("a byte order mark is only allowed at the very start")
    func byteOrderMarkElsewhereIsAnError() {
        let bytes: [UInt8] = Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("1".utf8)
        // An invisible character is shown escaped, never raw.
        #expect(syntaxError(bytes) == expected("expected a value, found '\\u{FEFF}' (U+FEFF)", 1, 2))
    }

    @Test("space, tab, LF and CR are whitespace anywhere between tokens")
    func acceptsAllWhitespace() throws {
        let node = try JSONParser.parse(" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n2 \t\r\n} \t\r\n] \t\r\n")
        // The leading CRLF is one line break, so '[' starts line 2.
        #expect(node.location == SourceLocation(line: 2, column: 1))
    }

    @Test("CRLF counts as one line break, and so does a lone CR")
    func crlfIsOneLineBreak() {
        #expect(syntaxError("[\r\n  1,\r\n  x]") == expected("expected a value, found 'x'", 3, 3))
        #expect(syntaxError("[\r  1,\r\r  x]") == expected("expected a value, found 'x'", 4, 3))
    }

    @Test("a tab counts as one column")
    func tabIsOneColumn() {
        #expect(syntaxError("[\t\tx]") == expected("expected a value, found 'x'", 1, 4))
    }

    @Test("columns count Unicode scalars, not bytes, on the line of the error")
    func columnsCountScalars() {
        // é and ж take 2 bytes, 😀 takes 4; each is one column.
        #expect(syntaxError(#"{"é": 1 "ж": 2}"#) == expected("expected ',' or '}' after object member, found '\"'", 1, 9))
        #expect(syntaxError(#"["жжж", tru]"#) == expected("expected a value, found 'tru'", 1, 9))
        #expect(syntaxError(#"["😀", x]"#) == expected("expected a value, found 'x'", 1, 7))
        // A combining accent is a scalar of its own, so e + U+0301 is two columns.
        #expect(syntaxError("[\"e\u{301}\", x]") == expected("expected a value, found 'x'", 1, 8))
        // Multi-byte characters on earlier lines do not shift later columns.
        #expect(syntaxError("[\"жжж\",\n x]") == expected("expected a value, found 'x'", 2, 2))
    }

    @Test("values after multi-byte characters get scalar-based locations")
    func nodeLocationsAfterMultiByteCharacters() throws {
        guard case .array(let elements) = try JSONParser.parse(#"["ж", "é", 7]"#).value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.map(\.location.column) == [2, 7, 12])
    }

    // MARK: End of input

    @Test("empty or whitespace-only input is an unexpected end of input at the end position")
    func emptyInput() {
        #expect(syntaxError("") == expected("unexpected end of input", 1, 1))
        #expect(syntaxError("   ") == expected("unexpected end of input", 1, 4))
        #expect(syntaxError("  \n  ") == expected("unexpected end of input", 2, 3))
        #expect(syntaxError("\r\n") == expected("unexpected end of input", 2, 1))
        #expect(syntaxError([0xEF, 0xBB, 0xBF]) == expected("unexpected end of input", 1, 1))
    }

    @Test("input ending inside a container names the container left open")
    func endOfInputInsideContainer() {
        #expect(syntaxError("[1,") == expected("unexpected end of input, '[' at 1:1 is not closed", 1, 4))
        #expect(syntaxError("[1") == expected("unexpected end of input, '[' at 1:1 is not closed", 1, 3))
        #expect(syntaxError("{\"a\":") == expected("unexpected end of input, '{' at 1:1 is not closed", 1, 6))
        #expect(syntaxError("{\"a\"") == expected("unexpected end of input, '{' at 1:1 is not closed", 1, 5))
        #expect(syntaxError("{") == expected("unexpected end of input, '{' at 1:1 is not closed", 1, 2))
        #expect(syntaxError("[\n  {\"a\": [1]\n") == expected("unexpected end of input, '{' at 2:3 is not closed", 3, 1))
    }

    // MARK: Strictness

    static let rejections: [JSONRejection] = [
        // Comments.
        JSONRejection("// note\n1", "expected a value, found '/'", 1, 1),
        JSONRejection("/* note */ 1", "expected a value, found '/'", 1, 1),
        JSONRejection("[1, /* two */ 2]", "expected a value, found '/'", 1, 5),
        JSONRejection("1 // note", "unexpected '/' after the JSON value", 1, 3),
        // Trailing commas: reported at the comma.
        JSONRejection("[1, 2,]", "trailing comma before ']'", 1, 6),
        JSONRejection("{\"a\": 1,}", "trailing comma before '}'", 1, 8),
        JSONRejection("[1,\n]", "trailing comma before ']'", 1, 3),
        // Single quotes.
        JSONRejection("['a']", "expected a value, found \"'\"", 1, 2),
        JSONRejection("{'a': 1}", "expected a string key or '}', found \"'\"", 1, 2),
        // Numbers.
        JSONRejection("01", "invalid number '01': leading zeros are not allowed", 1, 1),
        JSONRejection("[-007]", "invalid number '-007': leading zeros are not allowed", 1, 3),
        JSONRejection("+1", "expected a value, found '+'", 1, 1),
        JSONRejection(".5", "expected a value, found '.'", 1, 1),
        JSONRejection("[1.]", "expected a digit after '.' in number, found ']'", 1, 4),
        JSONRejection("1.", "unexpected end of input", 1, 3),
        JSONRejection("1.e3", "expected a digit after '.' in number, found 'e3'", 1, 3),
        JSONRejection("[1e]", "expected a digit in number exponent, found ']'", 1, 4),
        JSONRejection("[1e+]", "expected a digit in number exponent, found ']'", 1, 5),
        JSONRejection("-", "unexpected end of input", 1, 2),
        JSONRejection("[- 1]", "expected a digit after '-', found ' '", 1, 3),
        JSONRejection("0x10", "unexpected 'x10' after the JSON value", 1, 2),
        JSONRejection("NaN", "expected a value, found 'NaN'", 1, 1),
        JSONRejection("Infinity", "expected a value, found 'Infinity'", 1, 1),
        JSONRejection("-Infinity", "expected a digit after '-', found 'Infinity'", 1, 2),
        // Literals are case-sensitive and must be whole words.
        JSONRejection("tru", "expected a value, found 'tru'", 1, 1),
        JSONRejection("[nulls]", "expected a value, found 'nulls'", 1, 2),
        JSONRejection("True", "expected a value, found 'True'", 1, 1),
        // Only whitespace after the value.
        JSONRejection("1 2", "unexpected '2' after the JSON value", 1, 3),
        JSONRejection("{} x", "unexpected 'x' after the JSON value", 1, 4),
        JSONRejection("[1]]", "unexpected ']' after the JSON value", 1, 4),
        JSONRejection("\"a\"\n\"b\"", "unexpected '\"' after the JSON value", 2, 1),
        // Structure.
        JSONRejection("]", "expected a value, found ']'", 1, 1),
        JSONRejection("[,1]", "expected a value, found ','", 1, 2),
        JSONRejection("[1 2]", "expected ',' or ']' after array element, found '2'", 1, 4),
        JSONRejection("[1}", "expected ',' or ']' after array element, found '}'", 1, 3),
        JSONRejection("{\"a\":1]", "expected ',' or '}' after object member, found ']'", 1, 7),
        JSONRejection("{\"a\"}", "expected ':' after object key, found '}'", 1, 5),
        JSONRejection("{\"a\" 1}", "expected ':' after object key, found '1'", 1, 6),
        JSONRejection("{\"a\": }", "expected a value, found '}'", 1, 7),
        JSONRejection("{,}", "expected a string key or '}', found ','", 1, 2),
        JSONRejection("{a: 1}", "expected a string key or '}', found 'a'", 1, 2),
        JSONRejection("{\"a\":1,,}", "expected a string key after ',', found ','", 1, 8),
        JSONRejection("{\"a\":1, 2}", "expected a string key after ',', found '2'", 1, 9),
        // Characters that are not JSON at all.
        JSONRejection("[1,\u{A0}2]", "expected a value, found '\\u{A0}' (U+00A0)", 1, 4),
        JSONRejection("[\u{1}]", "expected a value, found control character U+0001", 1, 2),
    ]

    @Test("strict RFC 8259: rejects comments, trailing commas, single quotes, bad numbers and trailing content", arguments: rejections)
    func rejectsNonStrictJSON(_ rejection: JSONRejection) {
        #expect(syntaxError(rejection.input) == expected(rejection.message, rejection.line, rejection.column))
    }

    // MARK: Strings

    @Test("resolves every simple escape")
    func simpleEscapes() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#).value == .string("\"\\/\u{8}\u{C}\n\r\t"))
    }

    @Test("resolves \\u escapes in either case, including U+0000")
    func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u0041\u00e9\u0416\u20AC""#).value == .string("AéЖ€"))
        #expect(try JSONParser.parse(#""a\u0000b""#).value == .string("a\u{0}b"))
    }

    @Test("joins a surrogate pair into one scalar")
    func surrogatePairs() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#).value == .string("😀"))
        #expect(try JSONParser.parse(#""x\ud83d\ude00y""#).value == .string("x😀y"))
    }

    @Test("a lone or mismatched surrogate is an error at its backslash")
    func loneSurrogates() {
        #expect(syntaxError(#""\uD83D""#) == expected("unpaired surrogate '\\uD83D' in string", 1, 2))
        #expect(syntaxError(#""\uD83Dx""#) == expected("unpaired surrogate '\\uD83D' in string", 1, 2))
        #expect(syntaxError(#""\uD83D\u0041""#) == expected("unpaired surrogate '\\uD83D' in string", 1, 2))
        #expect(syntaxError(#""\uD83D\uD83D""#) == expected("unpaired surrogate '\\uD83D' in string", 1, 2))
        #expect(syntaxError(#""a\uDE00""#) == expected("unpaired surrogate '\\uDE00' in string", 1, 3))
    }

    @Test("unknown escapes and short \\u escapes are errors at the backslash")
    func badEscapes() {
        #expect(syntaxError(#""a\qb""#) == expected("invalid escape '\\q'", 1, 3))
        #expect(syntaxError(#""\'""#) == expected("invalid escape '\\''", 1, 2))
        #expect(syntaxError(#""\u12G4""#) == expected("invalid escape '\\u': expected 4 hex digits, found 'G'", 1, 2))
        #expect(syntaxError(#""\u12""#) == expected("invalid escape '\\u': expected 4 hex digits, found '\"'", 1, 2))
        #expect(syntaxError("\"\\é\"") == expected("invalid escape '\\' followed by 'é' (U+00E9)", 1, 2))
    }

    @Test("raw control characters in a string are errors at the character")
    func rawControlCharacters() {
        #expect(syntaxError("\"a\tb\"") == expected("unescaped control character U+0009 in string", 1, 3))
        #expect(syntaxError("\"a\u{0}b\"") == expected("unescaped control character U+0000 in string", 1, 3))
        #expect(syntaxError("\"a\u{1F}b\"") == expected("unescaped control character U+001F in string", 1, 3))
        // A line break inside a string is a raw control character too.
        #expect(syntaxError("{\n  \"name\": \"abc\n}") == expected("unescaped control character U+000A in string", 2, 15))
    }

    @Test("DEL and other non-control characters are allowed raw in strings")
    func rawNonControlCharacters() throws {
        #expect(try JSONParser.parse("\"\u{7F}\u{A0}😀\"").value == .string("\u{7F}\u{A0}😀"))
    }

    @Test("an unterminated string is reported at its opening quote")
    func unterminatedString() {
        #expect(syntaxError("\"abc") == expected("unterminated string", 1, 1))
        #expect(syntaxError("{\n  \"name\": \"abc") == expected("unterminated string", 2, 11))
        #expect(syntaxError("[\"abc\\") == expected("unterminated string", 1, 2))
        #expect(syntaxError("[\"abc\\u12") == expected("unterminated string", 1, 2))
    }

    @Test("invalid UTF-8 in a string is an error at the offending byte")
    func invalidUTF8InString() {
        let quote = UInt8(ascii: "\"")
        let cases: [(bytes: [UInt8], column: Int, byte: String)] = [
            ([quote, 0x61, 0xFF, quote], 3, "0xFF"),              // never valid
            ([quote, 0xC3, 0xA9, 0xFE, quote], 3, "0xFE"),        // after a valid é
            ([quote, 0xC0, 0x80, quote], 2, "0xC0"),              // overlong NUL
            ([quote, 0xE0, 0x80, 0x80, quote], 2, "0xE0"),        // overlong 3-byte
            ([quote, 0xED, 0xA0, 0x80, quote], 2, "0xED"),        // encoded surrogate
            ([quote, 0xF4, 0x90, 0x80, 0x80, quote], 2, "0xF4"),  // above U+10FFFF
            ([quote, 0x80, quote], 2, "0x80"),                    // stray continuation
            ([quote, 0x61, 0xC3, quote], 3, "0xC3"),              // truncated sequence
            ([quote, 0x61, 0xE2, 0x82], 3, "0xE2"),               // truncated at end of input
        ]
        for testCase in cases {
            #expect(syntaxError(testCase.bytes) == expected("invalid UTF-8 in string (byte \(testCase.byte))", 1, testCase.column))
        }
    }

    @Test("invalid UTF-8 outside a string is an error at the offending byte")
    func invalidUTF8OutsideString() {
        #expect(syntaxError([UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")]) == expected("expected a value, found invalid UTF-8 (byte 0xFF)", 1, 2))
        #expect(syntaxError(Array("[1]\n".utf8) + [0xC3]) == expected("unexpected invalid UTF-8 (byte 0xC3) after the JSON value", 2, 1))
    }

    @Test("valid multi-byte UTF-8 of every length survives unchanged")
    func validUTF8() throws {
        let text = "\"$ é ж € 𐍈 😀 \u{10FFFF}\""
        #expect(try JSONParser.parse(text).value == .string("$ é ж € 𐍈 😀 \u{10FFFF}"))
    }

    // MARK: Keys

    @Test("a duplicate key is an error at the second key")
    func duplicateKey() {
        let text = """
            {
              "name": "a",
              "other": 1,
              "name": "b"
            }
            """
        #expect(syntaxError(text) == expected("duplicate key \"name\"", 4, 3))
    }

    @Test("keys are compared after resolving escapes")
    func duplicateKeyThroughEscape() {
        #expect(syntaxError(#"{"a": 1, "\u0061": 2}"#) == expected("duplicate key \"a\"", 1, 10))
    }

    @Test("a duplicate key is quoted with its quotes and control characters escaped")
    func duplicateKeyMessageEscapes() {
        #expect(syntaxError(#"{"a\"b\n": 1, "a\"b\n": 2}"#) == expected(#"duplicate key "a\"b\n""#, 1, 15))
    }

    // MARK: Nesting

    @Test("nesting up to 512 levels is accepted")
    func nestingAtLimit() throws {
        let depth = JSONParser.maximumDepth
        #expect(depth == 512)
        var node = try JSONParser.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 1
        while case .array(let elements) = node.value, let first = elements.first {
            node = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test("nesting deeper than 512 levels is an error at the opening bracket too many")
    func nestingBeyondLimit() {
        let arrays = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(syntaxError(arrays) == expected("nesting is deeper than 512 levels", 1, 513))
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(syntaxError(objects) == expected("nesting is deeper than 512 levels", 1, 512 * 5 + 1))
    }

    @Test("100,000 open brackets fail cleanly instead of overflowing the stack")
    func hostileNesting() {
        #expect(syntaxError(String(repeating: "[", count: 100_000)) == expected("nesting is deeper than 512 levels", 1, 513))
        #expect(syntaxError(String(repeating: "{\"a\":[", count: 100_000)) == expected("nesting is deeper than 512 levels", 1, 256 * 6 + 1))
    }

    // MARK: Error positions in realistic files

    @Test("a missing comma is reported at the next member on line 3")
    func missingCommaPosition() {
        let text = """
            {
              "a": 1
              "b": 2
            }
            """
        #expect(syntaxError(text) == expected("expected ',' or '}' after object member, found '\"'", 3, 3))
    }

    @Test("a bad escape is reported at its backslash on its own line")
    func badEscapePosition() {
        #expect(syntaxError("[\"ok\",\n \"bad \\x escape\"]") == expected("invalid escape '\\x'", 2, 7))
    }

    @Test("a trailing comma before '}' is reported at the comma")
    func trailingCommaPosition() {
        #expect(syntaxError("{\n  \"a\": 1,\n}") == expected("trailing comma before '}'", 2, 9))
        #expect(syntaxError("{\r\n  \"é\": \"ж\",\r\n}") == expected("trailing comma before '}'", 2, 11))
    }

    // MARK: Numbers

    /// The number parsed from `text`, or nil (with an issue) when it is not one.
    private func number(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONNumber? {
        guard case .number(let number) = try JSONParser.parse(text).value else {
            Issue.record("\(text) is not a number", sourceLocation: sourceLocation)
            return nil
        }
        return number
    }

    @Test("integers that fit Int64 get an exact int64Value")
    func int64Integers() throws {
        #expect(try number("0") == JSONNumber(text: "0", isInteger: true, int64Value: 0, doubleValue: 0))
        #expect(try number("-17") == JSONNumber(text: "-17", isInteger: true, int64Value: -17, doubleValue: -17))
        #expect(try number("9223372036854775807")?.int64Value == Int64.max)
        #expect(try number("-9223372036854775808")?.int64Value == Int64.min)
        // 2^53 + 1 is exact as Int64 though not as Double.
        #expect(try number("9007199254740993")?.int64Value == 9_007_199_254_740_993)
    }

    @Test("-0 is an integer with value 0 and a negative-zero double")
    func negativeZero() throws {
        let zero = try #require(try number("-0"))
        #expect(zero.text == "-0")
        #expect(zero.isInteger)
        #expect(zero.int64Value == 0)
        #expect(zero.doubleValue == 0 && zero.doubleValue.sign == .minus)
    }

    @Test("integers beyond Int64 have no int64Value but keep a doubleValue")
    func hugeIntegers() throws {
        let huge = try #require(try number("99999999999999999999"))
        #expect(huge.isInteger)
        #expect(huge.int64Value == nil)
        #expect(huge.doubleValue == 1e20)
        #expect(try number("9223372036854775808")?.int64Value == nil)
        #expect(try number("-9223372036854775809")?.int64Value == nil)
    }

    @Test("a fraction or exponent makes a number non-integer, even when its value is whole")
    func nonIntegers() throws {
        #expect(try number("1e2") == JSONNumber(text: "1e2", isInteger: false, int64Value: nil, doubleValue: 100))
        #expect(try number("1.0") == JSONNumber(text: "1.0", isInteger: false, int64Value: nil, doubleValue: 1))
        #expect(try number("-1.5e3") == JSONNumber(text: "-1.5e3", isInteger: false, int64Value: nil, doubleValue: -1500))
        #expect(try number("1E+2")?.doubleValue == 100)
        #expect(try number("25e-2")?.doubleValue == 0.25)
        #expect(try number("0.1")?.doubleValue == 0.1)
    }

    @Test("a number beyond Double range becomes infinity rather than an error")
    func outOfRangeDoubles() throws {
        #expect(try number("1e400")?.doubleValue == .infinity)
        #expect(try number("-1e400")?.doubleValue == -.infinity)
        #expect(try number("1e-400")?.doubleValue == 0)
    }

    // MARK: Size

    @Test("parses about 1 MB, on one line or many, with the last element's position right")
    func parsesOneMegabyte() throws {
        var item = #"{"id": 123456, "name": "item é ж 😀", "values": [1.5, -2, true, null, 1e3], "#
        item += #""escaped": "a\nb\u00e9\uD83D\uDE00", "nested": {"deep": [[{}], []]}}"#
        let count = 1_000_000 / item.utf8.count + 1
        for separator in [",", ",\n"] {
            let text = "[" + Array(repeating: item, count: count).joined(separator: separator) + "]"
            #expect(text.utf8.count >= 1_000_000)
            let root: JSONNode? = try JSONParser.parse(text)
            guard case .array(let elements) = root?.value else {
                Issue.record("root is not an array")
                return
            }
            #expect(elements.count == count)
            if separator == ",\n" {
                #expect(elements.last?.location == SourceLocation(line: count, column: 1))
            } else {
                #expect(elements.last?.location.line == 1)
            }
        }
    }
}
