/// Comparisons whose time depends on the lengths only, never on where two secrets first differ:
/// an AEAD's tag, a Finished message's verify_data.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Every byte of both is read whatever they hold;
    /// the lengths are public (different lengths answer false at once).
    /// - Complexity: O(n) in the length, always all of it.
    public static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return isZero(difference)
    }

    /// Whether `a` and `b` hold the same bytes, as `equals(_:_:)` on their storage.
    /// - Complexity: O(n) in the length, always all of it.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { a in b.withUnsafeBytes { b in equals(a, b) } }
    }

    /// Whether `value` is zero, by arithmetic: 0 − v borrows into the top bit for any v ≠ 0.
    @inline(__always)
    static func isZero(_ value: UInt8) -> Bool {
        (0 &- UInt32(value)) >> 31 == 0
    }
}
