/// A DER identifier octet (X.690 §8.1.2): class, constructed bit and a tag number below 31.
/// The high-tag-number form is not read: nothing X.509 or PKCS#8 uses needs it.
public struct DERTag: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    /// - Complexity: O(1).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let boolean = DERTag(rawValue: 0x01)
    public static let integer = DERTag(rawValue: 0x02)
    public static let bitString = DERTag(rawValue: 0x03)
    public static let octetString = DERTag(rawValue: 0x04)
    public static let null = DERTag(rawValue: 0x05)
    public static let objectIdentifier = DERTag(rawValue: 0x06)
    public static let utf8String = DERTag(rawValue: 0x0C)
    public static let printableString = DERTag(rawValue: 0x13)
    public static let teletexString = DERTag(rawValue: 0x14)
    public static let ia5String = DERTag(rawValue: 0x16)
    public static let utcTime = DERTag(rawValue: 0x17)
    public static let generalizedTime = DERTag(rawValue: 0x18)
    public static let universalString = DERTag(rawValue: 0x1C)
    public static let bmpString = DERTag(rawValue: 0x1E)
    public static let sequence = DERTag(rawValue: 0x30)
    public static let set = DERTag(rawValue: 0x31)

    /// `[number]` in the context-specific class: constructed (explicit tagging, or a tagged
    /// SEQUENCE) or primitive (implicit tagging of a primitive type).
    /// - Complexity: O(1).
    public static func context(_ number: UInt8, constructed: Bool) -> DERTag {
        precondition(number < 31, "context tag numbers from 31 take the high-tag-number form")
        return DERTag(rawValue: 0x80 | (constructed ? 0x20 : 0) | number)
    }

    /// Whether the element's contents are elements (the constructed bit).
    /// - Complexity: O(1).
    public var isConstructed: Bool { rawValue & 0x20 != 0 }

    /// `0x30`-style hexadecimal, as X.690 prints identifiers.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        return "0x" + String(decoding: [digits[Int(rawValue >> 4)], digits[Int(rawValue & 0xF)]], as: UTF8.self)
    }
}
