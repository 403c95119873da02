/// RFC 4180 CSV: comma-separated, CRLF-free (LF line ends, which RFC 4180 readers
/// accept), fields quoted only when they must be.
enum CSV {
    /// One field, quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record.
    static func row(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }
}

/// Decimal formatting by integer arithmetic: the same digits on every machine,
/// whatever the locale or the floating-point library.
enum Decimal {
    /// `numerator / denominator` rounded half up to `places` decimals ("" when the denominator is 0).
    static func ratio(_ numerator: Int64, _ denominator: Int64, places: Int = 6) -> String {
        guard denominator > 0 else { return "" }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        // Multiply in 128 bits: numerator × 10^places overflows Int64 above ~9e12.
        let (high, low) = numerator.multipliedFullWidth(by: scale)
        let (quotient, remainder) = denominator.dividingFullWidth((high, low))
        // `remainder * 2` could overflow when the denominator is above Int64.max / 2.
        let rounded = quotient + (remainder > 0 && remainder >= denominator - remainder ? 1 : 0)
        return fixed(rounded, places: places)
    }

    /// Microseconds as seconds with three decimals.
    static func seconds(microseconds: Int64) -> String { fixed((microseconds + 500) / 1000, places: 3) }

    /// `value / 10^places` written out.
    static func fixed(_ value: Int64, places: Int) -> String {
        let negative = value < 0
        var digits = String(negative ? -value : value)
        if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
        let split = digits.index(digits.endIndex, offsetBy: -places)
        let text = places == 0 ? digits : digits[..<split] + "." + digits[split...]
        return (negative ? "-" : "") + text
    }
}
