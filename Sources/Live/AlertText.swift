import Base

/// What iOS reads of a payload: whether it draws an alert, whether the extension may
/// run, and the alert's words. A payload that is not JSON (RFC 8259, as `JSONParser`
/// reads it), or has no `aps`, draws nothing (APNs itself does not judge the JSON: it
/// checks only the size).
package struct AlertText: Equatable {
    /// `aps.alert` is there (a string, or an object with a title or body).
    package var hasAlert = false
    /// `aps.mutable-content` is 1.
    package var mutableContent = false
    package var title: String?
    package var body: String?

    /// Reads a payload: a scan of its bytes when it is plain ASCII without escapes where
    /// the words are (nearly every push), else the JSON parser. Both read the same.
    /// - Complexity: O(n) in the payload.
    package init(payload: [UInt8]) {
        if let scanned = PayloadScan.read(payload) {
            self = scanned
        } else {
            self.init(parsing: payload)
        }
    }

    /// Reads a payload with the JSON parser.
    /// - Complexity: O(n) in the payload.
    package init(parsing payload: [UInt8]) {
        guard let root = try? JSONParser.parse(payload), case .object(let object) = root.value,
              case .object(let aps)? = object["aps"]?.value else { return }
        if case .number(let flag)? = aps["mutable-content"]?.value { mutableContent = flag.int64Value == 1 }
        switch aps["alert"]?.value {
        case .string(let text)?:
            hasAlert = true
            body = Self.cut(text)
        case .object(let alert)?:
            hasAlert = true
            if case .string(let text)? = alert["title"]?.value { title = Self.cut(text) }
            if case .string(let text)? = alert["body"]?.value { body = Self.cut(text) }
        case .null?, .bool?, .number?, .array?, nil:
            break
        }
    }

    package init(hasAlert: Bool = false, mutableContent: Bool = false, title: String? = nil, body: String? = nil) {
        self.hasAlert = hasAlert
        self.mutableContent = mutableContent
        self.title = title
        self.body = body
    }

    /// At most `PushRecords.textLimit` bytes, cut at a character.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > PushRecords.textLimit else { return text }
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= PushRecords.textLimit - 3 else { break }
            kept.append(character)
        }
        return kept + "…"
    }
}

/// The fast reading of a payload: one pass over its bytes that checks the JSON grammar as
/// it skips what iOS does not read. It answers only when it is sure to read what the
/// parser would: it gives up (nil) on any byte outside ASCII, any escape in a key or in
/// the alert's words, a `mutable-content` that is not plain digits, deep nesting, or more
/// than `keysKept` keys in an object and those around it; a duplicate key, like any syntax
/// error, makes the payload draw nothing, as the parser's refusal does.
enum PayloadScan {
    /// Keys the scan remembers at once (of an object and those around it); past them it
    /// gives up, and the parser reads the payload.
    static let keysKept = 64

    static func read(_ payload: [UInt8]) -> AlertText? {
        payload.withUnsafeBufferPointer { bytes in
            // The keys seen, for the duplicate check, on the stack: no allocation a payload.
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: keysKept) { keys in
                var scan = Scanner(bytes: bytes, keys: keys)
                return scan.document()
            }
        }
    }

    private struct GiveUp: Error {}

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The keys of the objects being read, innermost last (`keyCount` of them), where they are in `bytes`.
        let keys: UnsafeMutableBufferPointer<Range<Int>>
        var keyCount = 0
        var at = 0
        var result = AlertText()
        /// A syntax error: the payload draws nothing (what the parser's refusal means).
        var broken = false

        init(bytes: UnsafeBufferPointer<UInt8>, keys: UnsafeMutableBufferPointer<Range<Int>>) {
            self.bytes = bytes
            self.keys = keys
        }

        mutating func document() -> AlertText? {
            do {
                skipSpace()
                guard let first = peek(), first == UInt8(ascii: "{") else {
                    // Not an object: nothing to draw, valid or not; a byte-order mark goes to the parser.
                    if let first = peek(), first >= 0x80 { throw GiveUp() }
                    return AlertText()
                }
                try object(depth: 0) { scanner, key in
                    if Self.equal(key, "aps"), scanner.peek() == UInt8(ascii: "{") {
                        try scanner.object(depth: 1) { scanner, key in try scanner.apsMember(key) }
                    } else {
                        try scanner.skipValue(depth: 1)
                    }
                }
                skipSpace()
                if broken || at != bytes.count { return AlertText() }
                return result
            } catch {
                return nil
            }
        }

        mutating func apsMember(_ key: UnsafeBufferPointer<UInt8>.SubSequence) throws {
            if Self.equal(key, "alert") {
                switch peek() {
                case UInt8(ascii: "\""):
                    result.hasAlert = true
                    result.body = try words()
                case UInt8(ascii: "{"):
                    result.hasAlert = true
                    try object(depth: 2) { scanner, key in
                        if Self.equal(key, "title"), scanner.peek() == UInt8(ascii: "\"") {
                            scanner.result.title = try scanner.words()
                        } else if Self.equal(key, "body"), scanner.peek() == UInt8(ascii: "\"") {
                            scanner.result.body = try scanner.words()
                        } else {
                            try scanner.skipValue(depth: 3)
                        }
                    }
                default:
                    try skipValue(depth: 2)
                }
            } else if Self.equal(key, "mutable-content"), let first = peek(), first == UInt8(ascii: "-") || isDigit(first) {
                let start = at
                try skipNumber()
                let text = bytes[start..<at]
                // Only plain digits are read here; "1.0" or "1e0" go to the parser.
                guard text.allSatisfy(isDigit) else { throw GiveUp() }
                result.mutableContent = Self.equal(text, "1")
            } else {
                try skipValue(depth: 2)
            }
        }

        /// Whether `a` and `b` hold the same octets (`elementsEqual` over a `String.UTF8View`
        /// walks it generically, a cost on every key).
        static func equal(_ a: UnsafeBufferPointer<UInt8>.SubSequence, _ b: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
            guard a.count == b.count else { return false }
            var i = a.startIndex, j = b.startIndex
            while i < a.endIndex {
                guard a.base[i] == b.base[j] else { return false }
                i += 1
                j += 1
            }
            return true
        }

        /// Whether `a` holds the octets of `text` (an ASCII constant).
        static func equal(_ a: UnsafeBufferPointer<UInt8>.SubSequence, _ text: StaticString) -> Bool {
            equal(a, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)[...])
        }

        func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0a || bytes[at] == 0x0d { at += 1 }
        }

        /// An object's members, each value handed to `member` with the scanner at its first byte.
        mutating func object(depth: Int,
                             _ member: (inout Scanner, UnsafeBufferPointer<UInt8>.SubSequence) throws -> Void) throws {
            guard depth < 64 else { throw GiveUp() }
            at += 1  // {
            skipSpace()
            // This object's keys are `keys[first..<keyCount]`; the scan forgets them when it leaves it.
            let first = keyCount
            defer { keyCount = first }
            if peek() == UInt8(ascii: "}") { at += 1; return }
            while !broken {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { broken = true; return }
                let key = try plainString()
                for seen in first..<keyCount where Self.equal(bytes[keys[seen]], key) {
                    broken = true
                    return
                }
                guard keyCount < keys.count else { throw GiveUp() }
                keys[keyCount] = key.startIndex..<key.endIndex
                keyCount += 1
                skipSpace()
                guard peek() == UInt8(ascii: ":") else { broken = true; return }
                at += 1
                skipSpace()
                guard at < bytes.count else { broken = true; return }
                try member(&self, key)
                if broken { return }
                skipSpace()
                switch peek() {
                case UInt8(ascii: ","): at += 1
                case UInt8(ascii: "}"): at += 1; return
                default: broken = true; return
                }
            }
        }

        /// A string without escapes or bytes outside ASCII (else the parser reads it); its contents.
        mutating func plainString() throws -> UnsafeBufferPointer<UInt8>.SubSequence {
            at += 1
            let start = at
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    at += 1
                    return bytes[start..<(at - 1)]
                }
                if byte == UInt8(ascii: "\\") || byte >= 0x80 { throw GiveUp() }
                if byte < 0x20 { broken = true; return bytes[start..<at] }
                at += 1
            }
            broken = true
            return bytes[start..<at]
        }

        /// The alert's words, cut as the parser's reading is.
        mutating func words() throws -> String {
            let text = try plainString()
            return AlertText.cut(String(decoding: text, as: UTF8.self))
        }

        mutating func skipValue(depth: Int) throws {
            guard depth < 64 else { throw GiveUp() }
            guard let first = peek() else { broken = true; return }
            switch first {
            case UInt8(ascii: "{"):
                try object(depth: depth) { scanner, _ in try scanner.skipValue(depth: depth + 1) }
            case UInt8(ascii: "["):
                at += 1
                skipSpace()
                if peek() == UInt8(ascii: "]") { at += 1; return }
                while !broken {
                    skipSpace()
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    switch peek() {
                    case UInt8(ascii: ","): at += 1
                    case UInt8(ascii: "]"): at += 1; return
                    default: broken = true
                    }
                }
            case UInt8(ascii: "\""):
                _ = try plainString()
            case UInt8(ascii: "t"): literal("true")
            case UInt8(ascii: "f"): literal("false")
            case UInt8(ascii: "n"): literal("null")
            default:
                if first == UInt8(ascii: "-") || isDigit(first) { try skipNumber() } else if first >= 0x80 { throw GiveUp() } else { broken = true }
            }
        }

        mutating func literal(_ word: StaticString) {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count,
                  bytes[at..<(at + count)].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count)) else {
                broken = true
                return
            }
            at += count
        }

        /// RFC 8259's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func skipNumber() throws {
            if peek() == UInt8(ascii: "-") { at += 1 }
            guard let first = peek(), isDigit(first) else { broken = true; return }
            at += 1
            if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) { broken = true; return }
            while let byte = peek(), isDigit(byte) { at += 1 }
            if peek() == UInt8(ascii: ".") {
                at += 1
                guard let byte = peek(), isDigit(byte) else { broken = true; return }
                while let byte = peek(), isDigit(byte) { at += 1 }
            }
            if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                at += 1
                if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { at += 1 }
                guard let byte = peek(), isDigit(byte) else { broken = true; return }
                while let byte = peek(), isDigit(byte) { at += 1 }
            }
        }
    }
}
