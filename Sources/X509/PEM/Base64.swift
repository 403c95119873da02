/// Base64 (RFC 4648 section 4, the PEM body) and base64url (section 5, the three parts
/// of a JWS), strict both ways: one spelling per byte string. Decoding refuses a
/// character outside the alphabet, whitespace, the other alphabet's characters, wrong or
/// missing padding (PEM: required; base64url: none) and non-zero bits after the last
/// byte, so two different texts never decode to the same bytes. Public for ProviderAuth's
/// JWS parts and for whoever writes PEM.
public enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's 6-bit value in an alphabet; 0xFF: not in it.
    private static let standardValues = values(standardAlphabet)
    private static let urlValues = values(urlAlphabet)

    private static func values(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }

    /// `bytes` in base64 with `=` padding.
    /// - Complexity: O(n).
    public static func encode(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: standardAlphabet, pad: true) }

    /// `bytes` in base64url without padding.
    /// - Complexity: O(n).
    public static func encodeURL(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: urlAlphabet, pad: false) }

    /// The bytes of padded base64 `text`; nil when it is not exactly that.
    /// - Complexity: O(n).
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var body = Array(text)
        // At most two `=`, only at the end.
        for _ in 0..<2 where body.last == UInt8(ascii: "=") { body.removeLast() }
        return decode(body, values: standardValues)
    }

    /// The bytes of unpadded base64url `text`; nil when it is not exactly that.
    /// - Complexity: O(n).
    public static func decodeURL(_ text: some Collection<UInt8>) -> [UInt8]? {
        decode(Array(text), values: urlValues)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
            // n bytes make n + 1 characters; the rest of the quantum is padding.
            for position in 0...count { out.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)]) }
            if pad { out += [UInt8](repeating: UInt8(ascii: "="), count: 3 - count) }
            index += count
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Unpadded characters to bytes: a final group of 1 character is impossible, and the
    /// bits a final group of 2 or 3 characters has beyond its bytes must be zero.
    private static func decode(_ characters: [UInt8], values: [UInt8]) -> [UInt8]? {
        guard characters.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return accumulator == 0 ? out : nil
    }
}
