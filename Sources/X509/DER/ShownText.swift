/// Text from a certificate as a message may repeat it: control and invisible-format
/// characters written as `\u{…}`, cut to `limit` characters, so a hostile name cannot break
/// a log line or forge one.
enum ShownText {
    /// The most characters of one value a message repeats.
    static let limit = 200

    /// - Complexity: O(n).
    static func escape(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return shown + "…" }
            let visible = scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value)
                && scalar.properties.generalCategory != .format && scalar.properties.generalCategory != .lineSeparator
                && scalar.properties.generalCategory != .paragraphSeparator
            shown += visible ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
            count += 1
        }
        return shown
    }
}
