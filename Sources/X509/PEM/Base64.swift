/// Base64 (RFC 4648 section 4, the PEM body) and base64url (section 5, the three parts
/// of a JWS), strict both ways: one spelling per byte string. Decoding refuses a
/// character outside the alphabet, whitespace, the other alphabet's characters, wrong or
/// missing padding (PEM: required; base64url: none) and non-zero bits after the last
/// byte, so two different texts never decode to the same bytes. Public for ProviderAuth's
/// JWS parts and for whoever writes PEM.
///
/// A PEM body may be a private key, so characters and 6-bit values are converted by
/// arithmetic on masks, without a table indexed by them or a branch on them (as libsodium's
/// and BoringSSL's constant-time base64 do); a refusal is decided once the whole text is read.
public enum Base64 {
    /// The two characters after the 62 letters and digits: `+/` or `-_`.
    private struct Alphabet {
        let value62: UInt32
        let value63: UInt32
    }

    private static let standard = Alphabet(value62: UInt32(UInt8(ascii: "+")), value63: UInt32(UInt8(ascii: "/")))
    private static let url = Alphabet(value62: UInt32(UInt8(ascii: "-")), value63: UInt32(UInt8(ascii: "_")))

    /// `bytes` in base64 with `=` padding.
    /// - Complexity: O(n).
    public static func encode(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: standard, pad: true) }

    /// `bytes` in base64url without padding.
    /// - Complexity: O(n).
    public static func encodeURL(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: url, pad: false) }

    /// The bytes of padded base64 `text`; nil when it is not exactly that.
    /// - Complexity: O(n).
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var body = Array(text)
        // At most two `=`, only at the end.
        for _ in 0..<2 where body.last == UInt8(ascii: "=") { body.removeLast() }
        return decode(body, alphabet: standard)
    }

    /// The bytes of unpadded base64url `text`; nil when it is not exactly that.
    /// - Complexity: O(n).
    public static func decodeURL(_ text: some Collection<UInt8>) -> [UInt8]? {
        decode(Array(text), alphabet: url)
    }

    /// All ones when `x < y`, else zero; both below 2³¹.
    @inline(__always) private static func lessMask(_ x: UInt32, _ y: UInt32) -> UInt32 { 0 &- ((x &- y) >> 31) }

    /// All ones when `x == y`, else zero; both below 2³¹.
    @inline(__always) private static func equalMask(_ x: UInt32, _ y: UInt32) -> UInt32 { lessMask(x ^ y, 1) }

    /// The character of a 6-bit value.
    @inline(__always) private static func character(_ x: UInt32, _ alphabet: Alphabet) -> UInt8 {
        let upper = lessMask(x, 26) & (x &+ 65)
        let lower = ~lessMask(x, 26) & lessMask(x, 52) & (x &+ 71)
        let digit = ~lessMask(x, 52) & lessMask(x, 62) & (x &- 4)
        let symbols = (equalMask(x, 62) & alphabet.value62) | (equalMask(x, 63) & alphabet.value63)
        return UInt8(truncatingIfNeeded: upper | lower | digit | symbols)
    }

    /// The 6-bit value of a character, and all ones in `invalid` when it is not in the alphabet.
    @inline(__always) private static func value(_ c: UInt32, _ alphabet: Alphabet) -> (value: UInt32, invalid: UInt32) {
        let upper = ~lessMask(c, 65) & lessMask(c, 91)
        let lower = ~lessMask(c, 97) & lessMask(c, 123)
        let digit = ~lessMask(c, 48) & lessMask(c, 58)
        let is62 = equalMask(c, alphabet.value62), is63 = equalMask(c, alphabet.value63)
        let value = (upper & (c &- 65)) | (lower & (c &- 71)) | (digit & (c &+ 4)) | (is62 & 62) | (is63 & 63)
        return (value, ~(upper | lower | digit | is62 | is63))
    }

    private static func encode(_ bytes: [UInt8], alphabet: Alphabet, pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
            // n bytes make n + 1 characters; the rest of the quantum is padding.
            for position in 0...count { out.append(character(group >> UInt32(18 - 6 * position) & 0x3F, alphabet)) }
            if pad { out += [UInt8](repeating: UInt8(ascii: "="), count: 3 - count) }
            index += count
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Unpadded characters to bytes: a final group of 1 character is impossible, and the
    /// bits a final group of 2 or 3 characters has beyond its bytes must be zero.
    private static func decode(_ characters: [UInt8], alphabet: Alphabet) -> [UInt8]? {
        guard characters.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var invalid: UInt32 = 0
        for character in characters {
            let (value, refused) = value(UInt32(character), alphabet)
            invalid |= refused
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return invalid | accumulator == 0 ? out : nil
    }
}
