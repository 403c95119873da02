/// One element as read: its tag, its contents, and its whole encoding (tag, length and
/// contents: what a signature covers, what a name is compared by).
public struct DERElement: Equatable, Sendable {
    public let tag: DERTag
    public let contents: ArraySlice<UInt8>
    public let encoded: ArraySlice<UInt8>
}

/// Reads DER (ITU-T X.690) one element at a time. Strict: single-byte tags, definite lengths
/// in their shortest form only, every element inside its parent (so a length can never
/// point past the bytes), nesting bounded. Errors name the element expected, as the caller
/// calls it. It never traps on any input: every index is checked against the bytes first.
public struct DERReader: Sendable {
    /// The deepest nesting of constructed elements a reader follows. A certificate goes 8
    /// deep (a name inside a general name inside an extension); 32 leaves room and bounds
    /// whatever recursion a caller builds on the reader.
    public static let maximumDepth = 32
    /// The most bytes a long-form length may take: 4 say up to 4 GiB, beyond any file read.
    public static let maximumLengthBytes = 4

    private let bytes: ArraySlice<UInt8>
    private var index: Int
    /// How many constructed elements enclose these bytes.
    public let depth: Int

    /// A reader over `bytes` (a whole file, or an element's contents at `depth`).
    /// - Complexity: O(1).
    public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        index = bytes.startIndex
        self.depth = depth
    }

    /// A reader over a whole array.
    /// - Complexity: O(1).
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Whether every element was read.
    /// - Complexity: O(1).
    public var isAtEnd: Bool { index == bytes.endIndex }

    /// The tag of the next element, without reading it; nil at the end.
    /// - Complexity: O(1).
    public var nextTag: DERTag? { isAtEnd ? nil : DERTag(rawValue: bytes[index]) }

    /// The bytes not read yet.
    /// - Complexity: O(1).
    public var remaining: ArraySlice<UInt8> { bytes[index...] }

    /// The next element, whatever its tag.
    /// - Complexity: O(1).
    public mutating func element(_ what: String) throws(DERError) -> DERElement {
        guard let tag = nextTag else { throw DERError(what, .missing) }
        guard tag.rawValue & 0x1F != 0x1F else { throw DERError(what, .highTagNumber) }
        var position = index + 1
        guard position < bytes.endIndex else { throw DERError(what, .truncatedLength) }
        let first = bytes[position]
        position += 1
        var length = 0
        switch first {
        case 0..<0x80:
            length = Int(first)
        case 0x80:
            throw DERError(what, .indefiniteLength)
        case 0x81...0x84:
            let count = Int(first & 0x7F)
            guard bytes.endIndex - position >= count else { throw DERError(what, .truncatedLength) }
            // No leading zero byte, and only lengths the short form cannot say.
            guard bytes[position] != 0, count > 1 || bytes[position] >= 0x80 else { throw DERError(what, .nonMinimalLength) }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
        default:
            throw DERError(what, .lengthTooLong)
        }
        guard bytes.endIndex - position >= length else {
            throw DERError(what, .overrun(claimed: length, remaining: bytes.endIndex - position))
        }
        let start = index
        index = position + length
        return DERElement(tag: tag, contents: bytes[position..<index], encoded: bytes[start..<index])
    }

    /// The next element, which must have `tag`.
    /// - Complexity: O(1).
    public mutating func element(_ tag: DERTag, _ what: String) throws(DERError) -> DERElement {
        guard let found = nextTag else { throw DERError(what, .missing) }
        guard found == tag else { throw DERError(what, .unexpectedTag(found: found)) }
        return try element(what)
    }

    /// The contents of the next element, which must have `tag`.
    /// - Complexity: O(1).
    public mutating func read(_ tag: DERTag, _ what: String) throws(DERError) -> ArraySlice<UInt8> {
        try element(tag, what).contents
    }

    /// Whether the next element has `tag` (an OPTIONAL or DEFAULT field is there).
    /// - Complexity: O(1).
    public func next(is tag: DERTag) -> Bool { nextTag == tag }

    /// A constructed element with `tag`, as a reader over its contents one level deeper.
    /// - Complexity: O(1).
    public mutating func constructed(_ tag: DERTag, _ what: String) throws(DERError) -> DERReader {
        let contents = try read(tag, what)
        guard depth < Self.maximumDepth else { throw DERError(what, .nestingTooDeep) }
        return DERReader(contents, depth: depth + 1)
    }

    /// A SEQUENCE, as a reader over its contents.
    /// - Complexity: O(1).
    public mutating func sequence(_ what: String) throws(DERError) -> DERReader { try constructed(.sequence, what) }

    /// A SET (OF), as a reader over its contents.
    /// - Complexity: O(1).
    public mutating func set(_ what: String) throws(DERError) -> DERReader { try constructed(.set, what) }

    /// Throws unless every element was read: nothing may follow a structure's last field.
    /// - Complexity: O(1).
    public func expectEnd(_ what: String) throws(DERError) {
        guard isAtEnd else { throw DERError(what, .trailingBytes(count: bytes.endIndex - index)) }
    }
}
