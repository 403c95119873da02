/// HPACK's integer representation (RFC 7541 §5.1): a value in the low `prefix` bits of
/// an octet whose high bits belong to the representation, continued in 7-bit groups,
/// least significant first, when it does not fit.
enum HPACKInteger {
    /// The largest value decoded: 2³²−1 is far above any index, length or table size a
    /// block can mean, and keeps every sum of such values inside `Int`.
    static let maximum = Int(UInt32.max)

    /// Appends `value` with `flags` in the octet's bits above the prefix.
    /// - Precondition: `value >= 0`, `1...8` prefix bits.
    /// - Complexity: O(log value).
    static func encode(_ value: Int, prefix: Int, flags: UInt8, into bytes: inout [UInt8]) {
        let limit = (1 << prefix) - 1
        if value < limit {
            bytes.append(flags | UInt8(value))
            return
        }
        bytes.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            bytes.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads an integer whose first octet is `bytes[index]`, advancing `index` past it.
    /// - Complexity: O(1): at most 6 octets are read.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int,
                       prefix: Int) throws(HPACKError) -> Int {
        guard index < bytes.count else { throw .truncated }
        let limit = (1 << prefix) - 1
        var value = Int(bytes[index]) & limit
        index += 1
        guard value == limit else { return value }
        var shift = 0
        while true {
            guard index < bytes.count else { throw .truncated }
            let octet = bytes[index]
            index += 1
            // Five groups of 7 bits hold 2^35; a sixth would only add zeros or overflow.
            guard shift <= 28 else { throw .integerOverflow }
            value += Int(octet & 0x7f) << shift
            guard value <= maximum else { throw .integerOverflow }
            if octet & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
