import Base
import Reports
import ScenarioFormat

/// One varied field of `pushsim fit`: `--vary PATH=LOW..HIGH`, a number or a duration range
/// (`connectivity.offline.mean=10m..2h`, `device.launches.perDay=1..8`). The fit simulates
/// `nodes` values equally spaced from LOW to HIGH and looks for the field's value between.
package struct FitRange: Sendable, Equatable {
    /// The field path, as in `--set`.
    package var path: String
    /// The ends, in the field's unit: a number as written, a duration in seconds.
    package var low: Double
    package var high: Double
    /// Whether the values are durations (written back as seconds: `"5400s"`).
    package var isDuration: Bool
    /// The argument as given, for messages.
    package var argument: String

    /// Reads `PATH=LOW..HIGH`. A malformed argument, ends of different kinds or an empty
    /// range is a scenario error naming the argument (after `option`: `--vary` or `--guess`).
    /// - Complexity: O(n) in the argument's length.
    package init(_ argument: String, option: String = "--vary") throws(ScenarioError) {
        func fail(_ message: String) -> ScenarioError {
            ScenarioError(.invalidValue(message), file: option + " " + UserText.escape(argument), path: "", location: nil)
        }
        self.argument = argument
        guard let equals = argument.firstIndex(of: "="), let dots = argument[equals...].firstRange(of: "..") else {
            throw fail("expected PATH=LOW..HIGH, e.g. connectivity.offline.mean=10m..2h or device.launches.perDay=1..8")
        }
        path = String(argument[..<equals])
        guard ScenarioOverride.steps(path) != nil else {
            throw fail("not a field path: \(UserText.quote(path, limit: UserText.pathLimit)) (\(ScenarioOverride.pathExample))")
        }
        let lowText = String(argument[argument.index(after: equals)..<dots.lowerBound])
        let highText = String(argument[dots.upperBound...])
        // `10m...2h` is a slip, not 10m to 0.2h.
        guard !lowText.hasSuffix("."), !highText.hasPrefix("."), !lowText.isEmpty, !highText.isEmpty else {
            throw fail("expected PATH=LOW..HIGH with two dots between the ends, e.g. connectivity.offline.mean=10m..2h")
        }
        if let low = Self.number(lowText), let high = Self.number(highText) {
            (self.low, self.high, isDuration) = (low, high, false)
        } else if let low = FieldReader.parseDuration(lowText), let high = FieldReader.parseDuration(highText) {
            (self.low, self.high, isDuration) = (low / 1e6, high / 1e6, true)
        } else {
            throw fail("the ends must be two numbers (1..8, 0.05..0.3) or two durations (10m..2h); found "
                       + UserText.quote(lowText) + " and " + UserText.quote(highText))
        }
        guard low != high else { throw fail("the range has no width: LOW must be below HIGH (fix a field with --set)") }
        guard low < high else { throw fail("the range is empty: write the smaller end first") }
    }

    /// A plain decimal number (no exponent, no `inf`), else nil.
    private static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ "0123456789.-".contains($0) }), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value at `fraction` (0 at LOW, 1 at HIGH).
    /// - Complexity: O(1).
    package func value(at fraction: Double) -> Double { low + (high - low) * fraction }

    /// `value` as the override's text: a number with up to 6 significant digits, a duration
    /// in seconds, whole from 10 s up (`"5400s"`), else to the millisecond (`"2.5s"`).
    /// - Complexity: O(1).
    package func text(_ value: Double) -> String {
        if isDuration {
            // Whole seconds from 10 s up (a scenario's durations need no finer), else milliseconds.
            return abs(value) >= 10 ? Self.trimmed(value.rounded(), places: 0) + "s" : Self.trimmed(value, places: 3) + "s"
        }
        return Self.significant(value, digits: 6)
    }

    /// `value` for people: a duration in the unit that suits it (`1.5h`, `20m`, `45s`), a
    /// number with 4 significant digits.
    /// - Complexity: O(1).
    package func display(_ value: Double) -> String {
        guard isDuration else { return Self.significant(value, digits: 4) }
        let units: [(String, Double)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        let unit = units.first { abs(value) >= $0.1 } ?? ("s", 1)
        return Self.significant(value / unit.1, digits: 3) + unit.0
    }

    /// `value` rounded to `digits` significant digits, without trailing zeros.
    package static func significant(_ value: Double, digits: Int) -> String {
        guard value != 0, value.isFinite else { return value.isFinite ? "0" : "" }
        let magnitude = Int((abs(value)).log10Floor)
        let places = max(0, digits - 1 - magnitude)
        return trimmed(value, places: min(places, 12))
    }

    /// `value` with `places` decimals, trailing zeros (and a trailing point) dropped.
    package static func trimmed(_ value: Double, places: Int) -> String {
        var text = FixedPoint.decimal(value, places: places)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}

private extension Double {
    var log10Floor: Double {
        var exponent = 0.0, scaled = self
        while scaled >= 10 { scaled /= 10; exponent += 1 }
        while scaled < 1 { scaled *= 10; exponent -= 1 }
        return exponent
    }
}

