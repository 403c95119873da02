/// Comparisons of octet strings in place, for the names and values of fields: the hot
/// paths compare a field with the few it can be instead of hashing it.
enum Octets {
    /// Whether `a` and `b` hold the same octets.
    /// - Complexity: O(n), n the shorter count.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
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
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Below 0x80 (no high bit), an octet plus 0x5f carries into bit 7 when it is
            // at least 0x21, and plus 0x01 when it is 0x7f; no sum carries into the next octet.
            guard word & highBits == 0,
                  (word &+ 0x5f5f_5f5f_5f5f_5f5f) & ~(word &+ 0x0101_0101_0101_0101) & highBits == highBits else { return false }
            index += 8
        }
        while index < octets.count {
            guard octets[index] &- 0x21 < 0x5e else { return false }
            index += 1
        }
        return true
    }

    /// Whether any octet is NUL, LF or CR: eight octets at a time.
    /// - Complexity: O(n).
    static func containsNULCRLF(_ octets: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = octets.baseAddress else { return false }
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= octets.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if hasZeroOctet(word) || hasZeroOctet(word ^ 0x0a0a_0a0a_0a0a_0a0a) || hasZeroOctet(word ^ 0x0d0d_0d0d_0d0d_0d0d) {
                return true
            }
            index += 8
        }
        while index < octets.count {
            let octet = octets[index]
            if octet == 0x00 || octet == 0x0a || octet == 0x0d { return true }
            index += 1
        }
        return false
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether a word has a zero octet (the classic test: exact, whatever the other octets).
    @inline(__always)
    private static func hasZeroOctet(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & highBits != 0
    }
}
