/// An OBJECT IDENTIFIER, kept as its DER contents (what is compared) and read as arcs.
/// Arcs beyond 64 bits are refused when read: nothing this module meets uses them.
public struct OID: Hashable, Sendable, CustomStringConvertible {
    /// The contents octets: the arcs in base 128, the first two as 40·a + b.
    public let contents: [UInt8]

    /// The OID whose DER contents are `contents`; nil when they are empty, end inside an arc,
    /// pad an arc with a leading 0x80, or hold an arc beyond 64 bits.
    /// - Complexity: O(n).
    public init?(contents: some Collection<UInt8>) {
        let bytes = Array(contents)
        guard let last = bytes.last, last & 0x80 == 0 else { return nil }
        var startsArc = true
        var arc: UInt64 = 0
        for byte in bytes {
            if startsArc && byte == 0x80 { return nil }
            // Seven more bits must fit in 64.
            guard arc >> 57 == 0 else { return nil }
            arc = arc << 7 | UInt64(byte & 0x7F)
            startsArc = byte & 0x80 == 0
            if startsArc { arc = 0 }
        }
        self.contents = bytes
    }

    /// The OID of dotted `text` (`"2.5.4.3"`), for constants: it traps on text that is not one.
    /// - Complexity: O(n).
    public init(_ text: StaticString) {
        let arcs = "\(text)".split(separator: ".").map { UInt64($0)! }
        precondition(arcs.count >= 2 && arcs[0] <= 2 && (arcs[0] == 2 || arcs[1] < 40), "not an OID: \(text)")
        self.init(arcs: arcs)
    }

    /// The OID of `arcs` (at least two; the first 0, 1 or 2).
    /// - Complexity: O(n).
    public init(arcs: [UInt64]) {
        var bytes: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var digits: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                digits.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes += digits.reversed()
        }
        contents = bytes
    }

    /// The arcs, the first two split from 40·a + b.
    /// - Complexity: O(n).
    public var arcs: [UInt64] {
        var arcs: [UInt64] = []
        var arc: UInt64 = 0
        for byte in contents {
            arc = arc << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(arc)
                arc = 0
            }
        }
        let first = min(arcs[0] / 40, 2)
        return [first, arcs[0] - 40 * first] + arcs.dropFirst()
    }

    /// Dotted form, with the name when it is one this module knows: `2.5.4.3 (CN)`.
    public var description: String {
        let dotted = arcs.map(String.init).joined(separator: ".")
        return KnownOID.name(self).map { "\($0) (\(dotted))" } ?? dotted
    }
}
