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
}
