import Base

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
            guard let high = iterator.next().flatMap(ASCII.hexValue), let low = iterator.next().flatMap(ASCII.hexValue)
            else { return nil }
            bytes.append(UInt8(high << 4 | low))
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
