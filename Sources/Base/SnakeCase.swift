/// Names written in files, made from the Swift names that declare them, so a name is
/// declared once: by its case (a counter's column, a trace event's kind).
package enum SnakeCase {
    /// `camelCase` → `snake_case`; a run of capitals is one word (`deviceIDChanges` →
    /// `device_id_changes`, `tooManyRequests` → `too_many_requests`).
    /// - Complexity: O(n) in the name's length.
    package static func of(_ name: String) -> String {
        let characters = Array(name)
        var text = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    text += "_"
                }
            }
            text += character.lowercased()
        }
        return text
    }

    /// The snake_case name of an enum case (`String(describing:)` of a case without payload).
    /// - Complexity: O(n) in the name's length.
    package static func of<Case>(case value: Case) -> String { of(String(describing: value)) }
}
