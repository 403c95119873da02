/// Coinciding lines in words, for the note under a chart: "queue-as-published and
/// queue-no-collapse-id lie on queue on every day; rollout lies on no-queue on Jan 1 –
/// Jan 31 and on queue on Feb 12 – Feb 28".
extension Coincidence {
    /// One phrase per set of series lying on the same lines at the same x values, in
    /// order of the series. `name` names a series; `when` says where one lies on another
    /// from the x values where it does and those where both have a value ("on every day").
    /// - Complexity: O(coincidences²).
    package static func phrases(_ coincidences: [LineChart.Coincident], name: (Int) -> String,
                                when: (_ xs: [Double], _ shared: [Double]) -> String) -> [String] {
        // Series lying on the same line at the same x values are named together.
        var merged: [(members: [Int], under: Int, xs: [Double], when: String)] = []
        for coincident in coincidences {
            if let index = merged.firstIndex(where: { $0.under == coincident.under && $0.xs == coincident.xs }) {
                merged[index].members.append(coincident.series)
            } else {
                merged.append(([coincident.series], coincident.under, coincident.xs, when(coincident.xs, coincident.shared)))
            }
        }
        // Then one phrase per set: "rollout lies on no-queue on …, on queue on …".
        var phrases: [(members: [Int], parts: [String])] = []
        for (members, under, _, phrase) in merged {
            let part = "on " + name(under) + " " + phrase
            if let index = phrases.firstIndex(where: { $0.members == members }) {
                phrases[index].parts.append(part)
            } else {
                phrases.append((members, [part]))
            }
        }
        return phrases.sorted { $0.members.lexicographicallyPrecedes($1.members) }.map { members, parts in
            list(members.map(name)) + (members.count == 1 ? " lies " : " lie ") + list(parts)
        }
    }

    /// "a", "a and b", "a, b and c".
    /// - Complexity: O(n).
    package static func list(_ items: [String]) -> String {
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
