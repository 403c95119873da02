import FoundationEssentials
import Glibc

/// The shape of a line's point markers. Each strategy gets its own (as its own colour), so
/// lines stay apart where colours do not: in print, for a reader who cannot tell two
/// colours apart, and where lines lie on top of each other (their markers nest).
package enum Marker: CaseIterable, Sendable {
    case circle, square, diamond, triangle, triangleDown, star, plus, cross

    /// The marker of the `index`-th series; wraps around after eight, as `Palette.series`.
    /// - Complexity: O(1).
    package static func series(_ index: Int) -> Marker { allCases[index % allCases.count] }

    /// Draws the marker centred on (`x`, `y`), `radius` its size (a circle's radius; the
    /// other shapes are scaled to about the same area, so none looks heavier), filled with
    /// `fill` and outlined in `stroke`; `role` is its class (a legend's swatch is no point).
    /// - Complexity: O(1).
    package func draw(into svg: inout SVG, x: Double, y: Double, radius: Double, fill: String, stroke: String,
                      role: String = "point") {
        let paint = [("fill", fill), ("stroke", stroke), ("stroke-width", "1")]
        switch self {
        case .circle:
            svg.element("circle", [("class", role), ("cx", SVG.number(x)), ("cy", SVG.number(y)), ("r", SVG.number(radius))] + paint)
        case .square, .diamond, .triangle, .triangleDown, .star, .plus, .cross:
            let outline = vertices(radius: radius).enumerated().map { index, point in
                (index == 0 ? "M" : "L") + SVG.number(x + point.x) + " " + SVG.number(y + point.y)
            }
            svg.element("path", [("class", role), ("d", outline.joined(separator: " ") + " Z")] + paint)
        }
    }

    /// The outline's corners around the centre, clockwise from the top (y grows downwards).
    /// - Complexity: O(1).
    package func vertices(radius r: Double) -> [(x: Double, y: Double)] {
        func polar(_ count: Int, _ radii: [Double], turn: Double = 0) -> [(x: Double, y: Double)] {
            (0..<count).map { index in
                let angle = (Double(index) / Double(count) + turn) * 2 * Double.pi
                let length = radii[index % radii.count]
                return (length * sin(angle), -length * cos(angle))
            }
        }
        switch self {
        case .circle: return polar(24, [r])
        case .square: return [(-0.89 * r, -0.89 * r), (0.89 * r, -0.89 * r), (0.89 * r, 0.89 * r), (-0.89 * r, 0.89 * r)]
        case .diamond: return polar(4, [1.25 * r])
        case .triangle: return polar(3, [1.35 * r]).map { ($0.x, $0.y + 0.2 * r) }
        case .triangleDown: return polar(3, [1.35 * r], turn: 0.5).map { ($0.x, $0.y - 0.2 * r) }
        case .star: return polar(10, [1.5 * r, 0.65 * r])
        case .plus, .cross:
            // Twelve corners of a plus of arms a third as wide as it is long; the cross is it turned by 45°.
            let a = 1.2 * r, b = 0.4 * r
            let plus: [(x: Double, y: Double)] = [(-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b),
                                                  (b, a), (-b, a), (-b, b), (-a, b), (-a, -b), (-b, -b)]
            guard self == .cross else { return plus }
            let c = cos(Double.pi / 4)
            return plus.map { ((($0.x - $0.y) * c), (($0.x + $0.y) * c)) }
        }
    }
}
