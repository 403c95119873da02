/// Why DER (ITU-T X.690) was refused: which element (named by the reader's caller, e.g. "the
/// certificate's validity") and what was wrong with it. The reasons are declared once here.
public struct DERError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Equatable, Sendable {
        /// The bytes ended where the element should start.
        case missing
        /// Another tag stood where the element should.
        case unexpectedTag(found: DERTag)
        /// A tag of the high-tag-number form (number 31 or more).
        case highTagNumber
        /// A tag with no length after it, or a long-form length cut short.
        case truncatedLength
        /// A long-form length that the short form, or fewer bytes, could say.
        case nonMinimalLength
        /// The indefinite length 0x80: BER, never DER.
        case indefiniteLength
        /// A length of more than `DERReader.maximumLengthBytes` bytes.
        case lengthTooLong
        /// A length beyond the bytes that remain in the parent.
        case overrun(claimed: Int, remaining: Int)
        /// Bytes after the last element of a structure.
        case trailingBytes(count: Int)
        /// Constructed elements nested deeper than `DERReader.maximumDepth`.
        case nestingTooDeep
        /// An INTEGER with no contents octets or with a leading byte that adds nothing.
        case integerNotMinimal
        /// An INTEGER that must be positive (or not negative) and is not.
        case integerOutOfRange
        /// A BOOLEAN whose contents are not one byte 0x00 or 0xFF.
        case badBoolean
        /// A NULL with contents.
        case badNull
        /// A BIT STRING with no unused-bits byte, more than 7 unused bits, unused bits in an
        /// empty string or not zero, or (where whole bytes are required) any unused bit.
        case badBitString
        /// An OBJECT IDENTIFIER empty, cut inside an arc, with a padded arc, or an arc beyond 64 bits.
        case badObjectIdentifier
        /// A string whose bytes its type does not allow (PrintableString's set, ASCII, UTF-8).
        case badString
        /// A UTCTime or GeneralizedTime not in RFC 5280's form (seconds, `Z`) or not a real instant.
        case badTime
        /// A value DER allows but this structure does not, described.
        case unexpectedValue(String)
    }

    /// The element, as its reader's caller names it.
    public let element: String
    public let reason: Reason

    /// - Complexity: O(1).
    public init(_ element: String, _ reason: Reason) {
        self.element = element
        self.reason = reason
    }

    /// One line: the element and what was wrong with it.
    /// - Complexity: O(1).
    public var description: String {
        switch reason {
        case .missing: "\(element) is missing"
        case .unexpectedTag(let found): "expected \(element), found tag \(found)"
        case .highTagNumber: "\(element) has a tag of the high-tag-number form"
        case .truncatedLength: "\(element) has a truncated length"
        case .nonMinimalLength: "\(element) has a length not in its shortest form"
        case .indefiniteLength: "\(element) has an indefinite length (BER, not DER)"
        case .lengthTooLong: "\(element) has a length of more than \(DERReader.maximumLengthBytes) bytes"
        case .overrun(let claimed, let remaining): "\(element) claims \(claimed) bytes, \(remaining) remain"
        case .trailingBytes(let count): "\(count) unexpected bytes after \(element)"
        case .nestingTooDeep: "\(element) is nested more than \(DERReader.maximumDepth) deep"
        case .integerNotMinimal: "\(element) is not an INTEGER in DER (empty, or a leading byte too many)"
        case .integerOutOfRange: "\(element) is out of range"
        case .badBoolean: "\(element) is not a DER BOOLEAN (one byte, 0x00 or 0xFF)"
        case .badNull: "\(element) is a NULL with contents"
        case .badBitString: "\(element) is not a BIT STRING in DER"
        case .badObjectIdentifier: "\(element) is not an OBJECT IDENTIFIER this reader takes (arcs of at most 64 bits, shortest form)"
        case .badString: "\(element) holds bytes its string type does not allow"
        case .badTime: "\(element) is not a time in RFC 5280's form (YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ)"
        case .unexpectedValue(let what): "\(element): \(what)"
        }
    }
}
