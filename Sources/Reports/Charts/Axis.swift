import FoundationEssentials
import Glibc

/// One labelled mark on an axis.
package struct Tick: Equatable {
    /// Where, in data units.
    package var value: Double
    /// What it reads.
    package var label: String
    package init(value: Double, label: String) {
        self.value = value
        self.label = label
    }
}

/// A chart axis: its label (with the unit), its domain in data units, linear or
/// logarithmic, and its ticks.
package struct Axis {
    /// The axis title, unit included ("deliverability (%)").
    package var label: String
    /// The data values at the two ends.
    package var domain: ClosedRange<Double>
    /// Base-10 logarithmic (the domain must be positive).
    package var logarithmic = false
    /// Labelled marks, with grid lines across the plot.
    package var ticks: [Tick]

    package init(label: String, domain: ClosedRange<Double>, logarithmic: Bool = false, ticks: [Tick]) {
        self.label = label
        self.domain = domain
        self.logarithmic = logarithmic
        self.ticks = ticks
    }

    /// A linear axis over `data` widened to round tick values, about `count` ticks.
    /// - Complexity: O(ticks).
    package static func linear(_ label: String, covering data: ClosedRange<Double>, count: Int = 5, suffix: String = "") -> Axis {
        let step = Ticks.step(for: data, count: count)
        let lower = (data.lowerBound / step).rounded(.down) * step
        var upper = (data.upperBound / step).rounded(.up) * step
        if upper <= lower { upper = lower + step }
        return Axis(label: label, domain: lower...upper,
                    ticks: Ticks.linear(lower...upper, step: step).map { Tick(value: $0, label: Ticks.label($0, step: step) + suffix) })
    }

    /// A base-10 logarithmic axis over `data` (positive) widened to whole decades.
    /// - Complexity: O(decades).
    package static func logarithmic(_ label: String, covering data: ClosedRange<Double>) -> Axis {
        let decades = Ticks.decades(covering: data)
        return Axis(label: label, domain: decades.first!...decades.last!, logarithmic: true,
                    ticks: decades.map { Tick(value: $0, label: Ticks.decadeLabel($0)) })
    }

    /// Where `value` falls between `start` and `end` (pixels); values outside the domain extrapolate.
    /// - Complexity: O(1).
    package func position(_ value: Double, from start: Double, to end: Double) -> Double {
        let fraction: Double
        if logarithmic {
            let low = log10(domain.lowerBound), high = log10(domain.upperBound)
            fraction = high > low ? (log10(max(value, .leastNormalMagnitude)) - low) / (high - low) : 0
        } else {
            let width = domain.upperBound - domain.lowerBound
            fraction = width > 0 ? (value - domain.lowerBound) / width : 0
        }
        return start + fraction * (end - start)
    }
}

/// Tick choice: round steps (1, 2 or 5 × 10^k) and decades.
package enum Ticks {
    /// The round step that splits `range` into about `count` intervals.
    /// - Complexity: O(1).
    package static func step(for range: ClosedRange<Double>, count: Int) -> Double {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(max(1, count))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let residual = raw / magnitude
        let nice: Double = residual < 1.5 ? 1 : residual < 3 ? 2 : residual < 7 ? 5 : 10
        return nice * magnitude
    }

    /// The multiples of `step` inside `range` (ends included, with a little slack for rounding).
    /// - Complexity: O(ticks).
    package static func linear(_ range: ClosedRange<Double>, step: Double) -> [Double] {
        guard step > 0 else { return [] }
        let first = (range.lowerBound / step - 1e-9).rounded(.up)
        let last = (range.upperBound / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    /// The powers of ten from the one at or below `range`'s start to the one at or above its end.
    /// - Complexity: O(decades).
    package static func decades(covering range: ClosedRange<Double>) -> [Double] {
        let low = Int((log10(max(range.lowerBound, 1e-12)) + 1e-9).rounded(.down))
        var high = Int((log10(max(range.upperBound, 1e-12)) - 1e-9).rounded(.up))
        if high <= low { high = low + 1 }
        return (low...high).map { pow(10, Double($0)) }
    }

    /// `value` with as many decimals as `step` needs ("0.5", "96", "0.02").
    /// - Complexity: O(1).
    package static func label(_ value: Double, step: Double) -> String {
        let places = max(0, Int((-log10(step) - 1e-9).rounded(.up)))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return FixedPoint.fixed(Int64((value * scale).rounded()), places: places)
    }

    /// A power of ten written out between 0.01 and 1000 ("0.01", "1", "1000"), as 10 with a
    /// superscript exponent beyond ("10⁻⁶", "10⁴"), so a wide log axis keeps short labels.
    /// - Complexity: O(1).
    package static func decadeLabel(_ value: Double) -> String {
        let exponent = Int(log10(value).rounded())
        switch exponent {
        case 0...3: return "1" + String(repeating: "0", count: exponent)
        case -2..<0: return "0." + String(repeating: "0", count: -exponent - 1) + "1"
        default:
            let superscripts: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
            return "10" + (exponent < 0 ? "⁻" : "") + String(String(abs(exponent)).map { superscripts[Int(String($0))!] })
        }
    }
}
