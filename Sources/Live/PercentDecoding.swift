/// A query's `%XX` escapes (RFC 3986 §2.1) turned back into the bytes they stand for, as
/// Foundation's `removingPercentEncoding` did: without Foundation, which `pushsim` no longer links.
enum PercentDecoding {
    /// `text` with each `%` and two hex digits (either case) replaced by that byte; nil when a
    /// `%` is not followed by two hex digits or the bytes are not UTF-8. `+` stays a `+`.
    /// - Complexity: O(n) in the text's bytes.
    static func decoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
