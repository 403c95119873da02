import Base

/// RFC 4180 CSV: comma-separated, CRLF-free (LF line ends, which RFC 4180 readers
/// accept), fields quoted only when they must be.
package enum CSV {
    /// One field, quoted when it holds a comma, a quote or a line break.
    package static func field(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing(every: "\"", with: "\"\"") + "\""
    }

    /// One record.
    package static func row(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }
}

/// Fixed-point decimal text by integer arithmetic: the same digits on every machine,
/// whatever the locale or the floating-point library.
package enum FixedPoint {
    /// `numerator / denominator` rounded half up to `places` decimals ("" when the
    /// denominator is 0). Exact for any counts, however large the ratio.
    /// - Complexity: O(places + digits).
    package static func ratio(_ numerator: Int64, _ denominator: Int64, places: Int = 6) -> String {
        guard denominator > 0 else { return "" }
        return point(rounded(numerator, denominator, shift: places), places: places)
    }

    /// `numerator / denominator` as a percentage rounded half up to `places` decimals,
    /// without the sign ("" when the denominator is 0).
    /// - Complexity: O(places + digits).
    package static func percent(_ numerator: Int64, _ denominator: Int64, places: Int) -> String {
        guard denominator > 0 else { return "" }
        return point(rounded(numerator, denominator, shift: places + 2), places: places)
    }

    /// The digits of |numerator| × 10^shift / denominator rounded half up, with the
    /// sign: the whole part and the fraction are divided apart, so nothing overflows
    /// (shift ≤ 18, denominator > 0).
    private static func rounded(_ numerator: Int64, _ denominator: Int64, shift: Int) -> (negative: Bool, digits: String) {
        var scale: UInt64 = 1
        for _ in 0..<shift { scale *= 10 }
        let divisor = UInt64(denominator)
        var whole = numerator.magnitude / divisor
        let remainder = numerator.magnitude % divisor
        // remainder < divisor ≤ 2^63, scale ≤ 10^18: the product fits in 128 bits and the quotient in `scale`.
        var (fraction, rest) = divisor.dividingFullWidth(remainder.multipliedFullWidth(by: scale))
        // `rest * 2` could overflow when the divisor is above UInt64.max / 2.
        if rest > 0 && rest >= divisor - rest { fraction += 1 }
        if fraction == scale { fraction = 0; whole += 1 }
        let fractionText = shift == 0 ? "" : String(fraction)
        var digits = String(repeating: "0", count: shift - fractionText.count) + fractionText
        if whole > 0 || digits.isEmpty { digits = String(whole) + digits }
        return (numerator < 0, digits)
    }

    /// A computed real (a standard error, an interval's end) rounded half away from
    /// zero to `places` decimals; "" when it is not finite. The value comes from
    /// integer sums by the same IEEE operations in the same order on every machine.
    /// - Complexity: O(digits).
    package static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.isFinite, abs(scaled) < 9e18 else { return "" }
        return fixed(Int64(scaled), places: places)
    }

    /// Microseconds as seconds with three decimals.
    /// - Complexity: O(digits).
    package static func seconds(microseconds: Int64) -> String { fixed((microseconds + 500) / 1000, places: 3) }

    /// `value / 10^places` written out.
    /// - Complexity: O(digits).
    package static func fixed(_ value: Int64, places: Int) -> String {
        point((value < 0, String(value.magnitude)), places: places)
    }

    /// Digits of an integer with a decimal point `places` from the right, at least one digit before it.
    private static func point(_ value: (negative: Bool, digits: String), places: Int) -> String {
        var digits = value.digits
        if let firstNonZero = digits.firstIndex(where: { $0 != "0" }) {
            digits = String(digits[firstNonZero...])
        } else {
            digits = "0"
        }
        if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
        let split = digits.index(digits.endIndex, offsetBy: -places)
        let text = places == 0 ? digits : digits[..<split] + "." + digits[split...]
        return (value.negative && value.digits.contains(where: { $0 != "0" }) ? "-" : "") + text
    }
}
