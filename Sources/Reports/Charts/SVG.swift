/// A small SVG (and XHTML) writer: elements are appended in order, attribute values and
/// text are escaped, numbers are written with at most two decimals by integer rounding,
/// so the same chart gives the same bytes on every machine.
package struct SVG {
    /// The markup written so far.
    package private(set) var text = ""
    private var open: [String] = []

    /// An SVG document of `width` × `height` user units whose accessible name is `title`;
    /// `id` prefixes the ids inside, so several charts can share one page.
    /// - Complexity: O(title).
    package init(width: Double, height: Double, id: String, title: String, kind: String) {
        start("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("class", "chart " + kind), ("data-chart", id),
                      ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"),
                      ("width", Self.number(width)), ("height", Self.number(height)),
                      ("role", "img"), ("aria-labelledby", id + "-title"),
                      ("font-family", "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"),
                      ("font-size", "12"), ("fill", "#222")])
        element("title", [("id", id + "-title")], text: title)
    }

    /// Escapes `&`, `<`, `>`, `"` and `'`: safe in text and in quoted attribute values, in SVG and in HTML.
    /// - Complexity: O(n).
    package static func escape(_ raw: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(raw.utf8.count)
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `value` rounded half away from zero to two decimals, trailing zeros dropped ("12", "3.5", "-0.25").
    /// Not-finite values, which no chart should produce, are written as 0 so the document stays valid.
    /// - Complexity: O(1).
    package static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "0" }
        var text = FixedPoint.fixed(Int64((value * 100).rounded()), places: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Opens an element; `end()` closes it.
    /// - Complexity: O(attributes).
    package mutating func start(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<" + name + Self.attributes(attributes) + ">"
        open.append(name)
    }

    /// Closes the innermost open element.
    /// - Complexity: O(1).
    package mutating func end() {
        text += "</" + open.removeLast() + ">"
    }

    /// A whole element: empty (`<rect …/>`) or with escaped `text`.
    /// - Complexity: O(attributes + text).
    package mutating func element(_ name: String, _ attributes: [(String, String)] = [], text content: String? = nil) {
        if let content {
            text += "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name + ">"
        } else {
            text += "<" + name + Self.attributes(attributes) + "/>"
        }
        if name == "title" || open.isEmpty { return }
        text += "\n"
    }

    /// The document with every element closed.
    /// - Complexity: O(depth).
    package func finished() -> String {
        var copy = self
        while !copy.open.isEmpty { copy.end() }
        return copy.text + "\n"
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " " + $0.0 + "=\"" + escape($0.1) + "\"" }.joined()
    }
}
