/// Writes DER: each element as tag, shortest length and contents; constructed elements
/// from a closure that writes their contents. What it writes, `DERReader` reads back.
public struct DERWriter: Sendable {
    /// The encoding so far.
    public private(set) var bytes: [UInt8] = []

    /// - Complexity: O(1).
    public init() {}

    /// An element of `tag` with `contents`.
    /// - Complexity: O(n) in the contents.
    public mutating func element(_ tag: DERTag, _ contents: some Collection<UInt8>) {
        bytes.append(tag.rawValue)
        let count = contents.count
        if count < 0x80 {
            bytes.append(UInt8(count))
        } else {
            let lengthBytes = (count.bitWidth - count.leadingZeroBitCount + 7) / 8
            bytes.append(0x80 | UInt8(lengthBytes))
            for shift in stride(from: 8 * (lengthBytes - 1), through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
        bytes += contents
    }

    /// An element already encoded (a name copied from a certificate), as it is.
    /// - Complexity: O(n).
    public mutating func encoded(_ element: some Collection<UInt8>) { bytes += element }

    /// A constructed element of `tag` whose contents `body` writes.
    /// - Complexity: O(n) in the contents (written once, then copied once).
    public mutating func constructed(_ tag: DERTag, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        element(tag, inner.bytes)
    }

    /// - Complexity: O(n) in the contents.
    public mutating func sequence(_ body: (inout DERWriter) -> Void) { constructed(.sequence, body) }

    /// A SET whose elements are in the order `body` writes them: DER's sorted order for a SET
    /// OF is the caller's to keep (a name written here has one attribute per set).
    /// - Complexity: O(n) in the contents.
    public mutating func set(_ body: (inout DERWriter) -> Void) { constructed(.set, body) }

    /// An INTEGER of a small signed value.
    /// - Complexity: O(1).
    public mutating func integer(_ value: Int64) {
        var contents = (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        // Drop leading bytes that only repeat the sign.
        while contents.count > 1, (contents[0] == 0 && contents[1] < 0x80) || (contents[0] == 0xFF && contents[1] >= 0x80) {
            contents.removeFirst()
        }
        element(.integer, contents)
    }

    /// A non-negative INTEGER of big-endian `magnitude` (a serial, a modulus): leading zeros
    /// dropped, a zero byte put back when the top bit would read as a sign.
    /// - Complexity: O(n).
    public mutating func integer(magnitude: some Collection<UInt8>) {
        var contents = Array(magnitude.drop { $0 == 0 })
        if contents.first.map({ $0 >= 0x80 }) ?? true { contents.insert(0, at: 0) }
        element(.integer, contents)
    }

    /// - Complexity: O(1).
    public mutating func boolean(_ value: Bool) { element(.boolean, [value ? 0xFF : 0x00]) }

    /// - Complexity: O(1).
    public mutating func null() { element(.null, []) }

    /// - Complexity: O(n).
    public mutating func objectIdentifier(_ oid: OID) { element(.objectIdentifier, oid.contents) }

    /// A BIT STRING of whole bytes.
    /// - Complexity: O(n).
    public mutating func bitString(_ contents: some Collection<UInt8>) { element(.bitString, [0] + contents) }

    /// A BIT STRING of named bits (a key usage): bit 0 is the first byte's top bit; trailing
    /// zero bits are dropped, as DER asks of named bit lists (X.690 §11.2.2).
    /// - Complexity: O(n).
    public mutating func namedBits(_ bits: [Bool]) {
        guard let last = bits.lastIndex(of: true) else { return element(.bitString, [0]) }
        var bytes = [UInt8](repeating: 0, count: last / 8 + 1)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 0x80 >> UInt8(index % 8) }
        element(.bitString, [UInt8(7 - last % 8)] + bytes)
    }

    /// - Complexity: O(n).
    public mutating func octetString(_ contents: some Collection<UInt8>) { element(.octetString, contents) }

    /// - Complexity: O(n).
    public mutating func utf8String(_ text: String) { element(.utf8String, Array(text.utf8)) }

    /// A PrintableString; `text` must be of its set (a country code).
    /// - Complexity: O(n).
    public mutating func printableString(_ text: String) {
        precondition(text.utf8.allSatisfy(DirectoryString.isPrintable), "not PrintableString: \(text)")
        element(.printableString, Array(text.utf8))
    }

    /// An IA5String; `text` must be ASCII (a DNS name).
    /// - Complexity: O(n).
    public mutating func ia5String(_ text: String) {
        precondition(text.utf8.allSatisfy { $0 < 0x80 }, "not IA5String: \(text)")
        element(.ia5String, Array(text.utf8))
    }

    /// A UTCTime or GeneralizedTime, as RFC 5280 asks for `time`'s year.
    /// - Complexity: O(1).
    public mutating func time(_ time: CertificateTime) {
        element(time.isUTCTimeYear ? .utcTime : .generalizedTime, time.encodedContents)
    }
}
