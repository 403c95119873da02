/// Comparisons of octet strings in place, for the names and values of fields: the hot
/// paths compare a field with the few it can be instead of hashing it.
enum Octets {
    /// Whether `a` and `b` hold the same octets.
    /// - Complexity: O(n), n the shorter count.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let first = a.baseAddress, let second = b.baseAddress else { return true }
        // Words, not octets: eight at a time, the last word overlapping the one before; four,
        // at each end, for 4–7 octets; the first, middle and last for 1–3.
        let x = UnsafeRawPointer(first), y = UnsafeRawPointer(second)
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                guard x.loadUnaligned(fromByteOffset: index, as: UInt64.self) == y.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                else { return false }
                index += 8
            }
            return index == count
                || x.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == y.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        return first[0] == second[0] && first[count / 2] == second[count / 2] && first[count - 1] == second[count - 1]
    }

    /// Whether `a` holds the octets of `text` (an ASCII constant).
    /// - Complexity: O(n).
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard a.count == text.utf8CodeUnitCount else { return false }
        return equal(a, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether every octet is visible ASCII, 0x21…0x7e: eight octets at a time.
    /// - Complexity: O(n).
    static func allVisibleASCII(_ octets: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = octets.baseAddress else { return true }
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= octets.count {
            // Below 0x80 (no high bit), an octet plus 0x5f carries into bit 7 when it is
            // at least 0x21, and plus 0x01 when it is 0x7f; no sum carries into the next octet.
            guard isVisibleASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return false }
            index += 8
        }
        // The last octets: as one word overlapping the last one checked, when there was one.
        if index < octets.count && index >= 8 { return isVisibleASCII(raw.loadUnaligned(fromByteOffset: octets.count - 8, as: UInt64.self)) }
        while index < octets.count {
            guard octets[index] &- 0x21 < 0x5e else { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func isVisibleASCII(_ word: UInt64) -> Bool {
        word & highBits == 0
            && (word &+ 0x5f5f_5f5f_5f5f_5f5f) & ~(word &+ 0x0101_0101_0101_0101) & highBits == highBits
    }

    /// Whether every octet may be in a field name (RFC 9113 §8.2.1: not 0x00–0x20,
    /// 0x41–0x5a or 0x7f–0xff, and no colon, which only starts a pseudo-header field):
    /// eight octets at a time.
    /// - Complexity: O(n).
    static func allNameOctets(_ octets: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = octets.baseAddress else { return true }
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= octets.count {
            guard areNameOctets(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return false }
            index += 8
        }
        if index < octets.count && index >= 8 { return areNameOctets(raw.loadUnaligned(fromByteOffset: octets.count - 8, as: UInt64.self)) }
        while index < octets.count {
            guard FieldValidation.isNameOctet(octets[index]) else { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func areNameOctets(_ word: UInt64) -> Bool {
        // With no high bit set, no sum below carries into the next octet. Bit 7 of an
        // octet plus 0x5f: at least 0x21; plus 0x01: 0x7f; plus 0x3f and not plus 0x25:
        // 0x41–0x5a; of (octet ^ 0x3a) plus 0x7f: not a colon.
        word & highBits == 0
            && (word &+ 0x5f5f_5f5f_5f5f_5f5f) & highBits == highBits
            && (word &+ 0x0101_0101_0101_0101) & highBits == 0
            && (word &+ 0x3f3f_3f3f_3f3f_3f3f) & ~(word &+ 0x2525_2525_2525_2525) & highBits == 0
            && ((word ^ 0x3a3a_3a3a_3a3a_3a3a) &+ 0x7f7f_7f7f_7f7f_7f7f) & highBits == highBits
    }

    /// Whether any octet is NUL, LF or CR: eight octets at a time.
    /// - Complexity: O(n).
    static func containsNULCRLF(_ octets: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = octets.baseAddress else { return false }
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= octets.count {
            if hasNULCRLF(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        if index < octets.count && index >= 8 { return hasNULCRLF(raw.loadUnaligned(fromByteOffset: octets.count - 8, as: UInt64.self)) }
        while index < octets.count {
            let octet = octets[index]
            if octet == 0x00 || octet == 0x0a || octet == 0x0d { return true }
            index += 1
        }
        return false
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func hasNULCRLF(_ word: UInt64) -> Bool {
        hasZeroOctet(word) || hasZeroOctet(word ^ 0x0a0a_0a0a_0a0a_0a0a) || hasZeroOctet(word ^ 0x0d0d_0d0d_0d0d_0d0d)
    }

    /// Whether a word has a zero octet (the classic test: exact, whatever the other octets).
    @inline(__always)
    private static func hasZeroOctet(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & highBits != 0
    }
}
