/// The character string types of X.520 names and X.509 fields, decoded to text and checked
/// against what each type allows.
enum DirectoryString {
    /// Whether `tag` is one of the string types read here.
    static func isStringTag(_ tag: DERTag) -> Bool {
        [DERTag.utf8String, .printableString, .ia5String, .teletexString, .bmpString, .universalString].contains(tag)
    }

    /// The text of `bytes` as a string of type `tag`; nil when the type is not a string type
    /// read here or the bytes are not of that type.
    /// - Complexity: O(n).
    static func decode(_ bytes: ArraySlice<UInt8>, tag: DERTag) -> String? {
        switch tag {
        case .utf8String:
            return String(validating: bytes, as: UTF8.self)
        case .printableString:
            return bytes.allSatisfy(isPrintable) ? String(decoding: bytes, as: UTF8.self) : nil
        case .ia5String:
            return bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
        case .teletexString:
            // T.61 in theory; in practice certificates put Latin-1 there, as openssl reads it.
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .bmpString:
            return units(bytes, width: 2)
        case .universalString:
            return units(bytes, width: 4)
        default:
            return nil
        }
    }

    /// PrintableString's set (X.680 §41.4): letters, digits, space and `'()+,-./:=?`.
    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array(" '()+,-./:=?".utf8).contains(byte)
        }
    }

    /// Big-endian code units of `width` bytes (UCS-2 or UCS-4), each a Unicode scalar.
    private static func units(_ bytes: ArraySlice<UInt8>, width: Int) -> String? {
        guard bytes.count % width == 0 else { return nil }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let value = bytes[index..<index + width].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
            index += width
        }
        return String(scalars)
    }
}
