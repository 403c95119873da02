/// Reads DER (ITU-T X.690) one element at a time, for the two key structures this module
/// knows. Strict: definite lengths in their shortest form only, every element inside its
/// parent, so a length can never point past the bytes. Errors name the element expected.
struct DERReader {
    /// The tags the key structures use.
    enum Tag: UInt8 {
        case integer = 0x02
        case bitString = 0x03
        case octetString = 0x04
        case objectIdentifier = 0x06
        case sequence = 0x30
        /// [0], constructed: ECPrivateKey's parameters, PKCS#8's attributes.
        case context0 = 0xA0
        /// [1], constructed: ECPrivateKey's public key.
        case context1 = 0xA1
    }

    private let bytes: ArraySlice<UInt8>
    private var index: Int

    /// A reader over `bytes` (a whole element's contents, or a whole file).
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    /// The tag of the next element, without reading it; nil at the end.
    var nextTag: UInt8? { isAtEnd ? nil : bytes[index] }

    /// The contents of the next element, which must have `tag`; `what` names it in errors.
    /// - Complexity: O(1).
    mutating func read(_ tag: Tag, _ what: String) throws(KeyError) -> ArraySlice<UInt8> {
        guard let found = nextTag else { throw .malformedDER("\(what) is missing") }
        guard found == tag.rawValue else { throw .malformedDER("expected \(what), found tag 0x\(String(found, radix: 16))") }
        var position = index + 1
        guard position < bytes.endIndex else { throw .malformedDER("\(what) has no length") }
        let first = bytes[position]
        position += 1
        var length: Int
        switch first {
        case 0..<0x80:
            length = Int(first)
        case 0x81, 0x82:
            // Long form: one or two length bytes (a key is far below 64 KiB), no leading
            // zero, and only for lengths the short form cannot say.
            let count = Int(first & 0x7F)
            guard bytes.endIndex - position >= count else { throw .malformedDER("\(what) has a truncated length") }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length >= (count == 1 ? 0x80 : 0x100) else { throw .malformedDER("\(what) has a length not in its shortest form") }
        case 0x80:
            throw .malformedDER("\(what) has an indefinite length (BER, not DER)")
        default:
            throw .malformedDER("\(what) is longer than a key can be")
        }
        guard bytes.endIndex - position >= length else {
            throw .malformedDER("\(what) claims \(length) bytes, \(bytes.endIndex - position) remain")
        }
        index = position + length
        return bytes[position..<index]
    }

    /// A SEQUENCE, as a reader over its contents.
    /// - Complexity: O(1).
    mutating func sequence(_ what: String) throws(KeyError) -> DERReader {
        DERReader(try read(.sequence, what))
    }

    /// A small non-negative INTEGER (a version), minimal encoding required.
    /// - Complexity: O(1).
    mutating func smallInteger(_ what: String) throws(KeyError) -> Int {
        let content = try read(.integer, what)
        guard let first = content.first, content.count <= 2,
              !(content.count == 2 && first == 0 && content.last! < 0x80) else {
            throw .malformedDER("\(what) is not a small integer in DER")
        }
        guard first < 0x80 else { throw .malformedDER("\(what) is negative") }
        return content.reduce(0) { $0 << 8 | Int($1) }
    }

    /// A BIT STRING whose length is whole bytes (no unused bits), as those bytes.
    /// - Complexity: O(1).
    mutating func byteAlignedBitString(_ what: String) throws(KeyError) -> ArraySlice<UInt8> {
        let content = try read(.bitString, what)
        guard content.first == 0 else { throw .malformedDER("\(what) is not whole bytes") }
        return content.dropFirst()
    }

    /// Throws unless every element was read: nothing may follow a structure's last field.
    /// - Complexity: O(1).
    func expectEnd(_ what: String) throws(KeyError) {
        guard isAtEnd else { throw .malformedDER("\(bytes.endIndex - index) unexpected bytes after \(what)") }
    }
}
