/// Rows of cells as plain-text columns for a terminal: each column padded to its widest
/// cell, two spaces apart, trailing spaces dropped. The tables of `sweep`, `check`, `diff`
/// and `fit` lay out through it.
package enum TextColumns {
    /// `rows` (the header first, if any), one line each.
    /// - Complexity: O(total characters).
    package static func lines(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { cells in
            var text = zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }.joined()
    }
}
