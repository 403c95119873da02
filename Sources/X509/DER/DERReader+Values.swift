/// The primitive values X.509 and PKCS#8 use, each checked for its one DER encoding.
extension DERReader {
    /// An INTEGER's contents in two's complement, minimal (X.690 §8.3.2): not empty, and no
    /// leading 0x00 before a byte below 0x80 nor 0xFF before one from 0x80.
    /// - Complexity: O(1).
    public mutating func integerContents(_ what: String) throws(DERError) -> ArraySlice<UInt8> {
        let contents = try read(.integer, what)
        guard let first = contents.first else { throw DERError(what, .integerNotMinimal) }
        if contents.count > 1 {
            let second = contents[contents.startIndex + 1]
            guard !(first == 0 && second < 0x80), !(first == 0xFF && second >= 0x80) else { throw DERError(what, .integerNotMinimal) }
        }
        return contents
    }

    /// A positive INTEGER's magnitude, big-endian, without the sign byte (an RSA modulus, an
    /// ECDSA r or s). Zero and negative numbers are refused.
    /// - Complexity: O(n).
    public mutating func positiveInteger(_ what: String) throws(DERError) -> ArraySlice<UInt8> {
        let contents = try integerContents(what)
        guard contents.first! < 0x80 else { throw DERError(what, .integerOutOfRange) }
        let magnitude = contents.first == 0 ? contents.dropFirst() : contents
        guard !magnitude.isEmpty else { throw DERError(what, .integerOutOfRange) }
        return magnitude
    }

    /// A small non-negative INTEGER (a version, a path length) of at most 4 bytes.
    /// - Complexity: O(1).
    public mutating func smallInteger(_ what: String) throws(DERError) -> Int {
        let contents = try integerContents(what)
        guard contents.first! < 0x80, contents.count <= 4 else { throw DERError(what, .integerOutOfRange) }
        return contents.reduce(0) { $0 << 8 | Int($1) }
    }

    /// A BOOLEAN: one byte, 0x00 or 0xFF (X.690 §11.1).
    /// - Complexity: O(1).
    public mutating func boolean(_ what: String) throws(DERError) -> Bool {
        let contents = try read(.boolean, what)
        guard contents.count == 1, contents.first == 0 || contents.first == 0xFF else { throw DERError(what, .badBoolean) }
        return contents.first == 0xFF
    }

    /// A NULL (no contents).
    /// - Complexity: O(1).
    public mutating func null(_ what: String) throws(DERError) {
        guard try read(.null, what).isEmpty else { throw DERError(what, .badNull) }
    }

    /// A BIT STRING: its bytes and how many bits of the last are unused, which must be zero
    /// (X.690 §11.2.1).
    /// - Complexity: O(1).
    public mutating func bitString(_ what: String) throws(DERError) -> (bytes: ArraySlice<UInt8>, unusedBits: Int) {
        let contents = try read(.bitString, what)
        guard let unused = contents.first, unused < 8 else { throw DERError(what, .badBitString) }
        let bits = contents.dropFirst()
        guard unused == 0 || (bits.last.map { $0 & (1 << unused - 1) == 0 } ?? false) else { throw DERError(what, .badBitString) }
        return (bits, Int(unused))
    }

    /// A BIT STRING of whole bytes (a key, a signature), as those bytes.
    /// - Complexity: O(1).
    public mutating func byteAlignedBitString(_ what: String) throws(DERError) -> ArraySlice<UInt8> {
        let (bytes, unused) = try bitString(what)
        guard unused == 0 else { throw DERError(what, .badBitString) }
        return bytes
    }

    /// An OBJECT IDENTIFIER.
    /// - Complexity: O(n).
    public mutating func objectIdentifier(_ what: String) throws(DERError) -> OID {
        guard let oid = OID(contents: try read(.objectIdentifier, what)) else { throw DERError(what, .badObjectIdentifier) }
        return oid
    }

    /// A UTCTime or GeneralizedTime in RFC 5280 §4.1.2.5's form.
    /// - Complexity: O(1).
    public mutating func time(_ what: String) throws(DERError) -> CertificateTime {
        let element = try element(what)
        let time: CertificateTime?
        switch element.tag {
        case .utcTime: time = CertificateTime(utcTime: element.contents)
        case .generalizedTime: time = CertificateTime(generalizedTime: element.contents)
        default: throw DERError(what, .unexpectedTag(found: element.tag))
        }
        guard let time else { throw DERError(what, .badTime) }
        return time
    }

    /// A character string of any type X.520 names use (UTF8String, PrintableString,
    /// IA5String, TeletexString read as Latin-1, BMPString, UniversalString), as text.
    /// - Complexity: O(n).
    public mutating func string(_ what: String) throws(DERError) -> (text: String, tag: DERTag) {
        let element = try element(what)
        guard let text = DirectoryString.decode(element.contents, tag: element.tag) else {
            if DirectoryString.isStringTag(element.tag) { throw DERError(what, .badString) }
            throw DERError(what, .unexpectedTag(found: element.tag))
        }
        return (text, element.tag)
    }
}
