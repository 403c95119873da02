/// FNV-1a over a string's UTF-8: the same 64 bits in every process and on every platform,
/// unlike `Hasher`, so ids can be keyed without being kept.
public enum StableHash {
    /// FNV-1a of `text`'s UTF-8 bytes.
    /// - Complexity: O(n) in the UTF-8 length.
    @inlinable
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// FNV-1a then SplitMix64's finaliser: every input bit reaches every output bit, so keys
    /// of ids that differ in one character are far apart.
    /// - Complexity: O(n) in the UTF-8 length.
    @inlinable
    public static func mixed(_ text: String) -> UInt64 { SplitMix64.mix(fnv1a(text)) }
}
