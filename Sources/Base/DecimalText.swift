import Glibc

/// A number written for people as C's `%.Nf` and `%.Ng` write it: the characters
/// Foundation's `String(format:)` gave, without linking Foundation (whose internationalization
/// and ICU libraries cost every `pushsim` command about 8 M instructions to load). glibc's own
/// formatter writes them, in the C locale (PushSim never calls `setlocale`): the decimal
/// expansion of the binary value rounded to nearest, halves to even; no thousands separators.
/// Only the conversion and its precision are chosen, never the format text.
package enum DecimalText {
    /// `value` with `digits` digits after the point: `%.<digits>f` (`-0.5` → `"-0"`, `2.25` → `"2.2"`).
    /// - Complexity: O(d), d the digits written (at most 309 + `digits`).
    package static func fixed(_ value: Double, digits: Int) -> String {
        printed(value, digits: digits, conversion: "%.*f")
    }

    /// `value` to `digits` significant digits: `%.<digits>g`, in scientific notation when its
    /// exponent is below -4 or at least `digits` (`1234.5` with 3 → `"1.23e+03"`), trailing zeros dropped.
    /// - Complexity: O(digits).
    package static func significant(_ value: Double, digits: Int) -> String {
        printed(value, digits: digits, conversion: "%.*g")
    }

    /// The longest `%f` of a `Double` (`-1.8e308` with 17 digits) is 328 characters.
    private static let capacity = 400

    private static func printed(_ value: Double, digits: Int, conversion: String) -> String {
        precondition((0...17).contains(digits), "a precision of 0 to 17 digits")
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            let count = withVaList([Int32(digits), value]) { arguments in
                vsnprintf(buffer.baseAddress!, capacity, conversion, arguments)
            }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(count)), as: UTF8.self)
        }
    }
}
