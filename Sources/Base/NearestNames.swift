/// "Did you mean …?": the declared names nearest a misspelt one, by edit distance. The
/// callers pass their own declarations (the scenario's field keys, the command table, a
/// command's options), so no second list of names exists to drift from the first.
public enum NearestNames {
    /// The optimal-string-alignment distance between `a` and `b`, ignoring case: the
    /// fewest insertions, deletions, substitutions and swaps of two neighbours turning
    /// one into the other. A swap counts once because `rnu` for `run` is one slip of the
    /// fingers, not two.
    /// - Complexity: O(m × n) in the lengths.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows: the one before the previous is needed for a swap.
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var best = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, older[j - 2] + 1)
                }
                current[j] = best
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }

    /// The most edits a name of `length` characters may be from a suggestion: a third of
    /// it, at least one and at most three, so a short name is not "near" every other
    /// short name and a long one still forgives a couple of slips.
    /// - Complexity: O(1).
    public static func tolerance(forLength length: Int) -> Int { Swift.min(3, Swift.max(1, length / 3)) }

    /// The candidates nearest `name` within its tolerance, in the candidates' order (all
    /// those at the smallest distance); empty when none is near or `name` is one of them.
    /// - Complexity: O(candidates × m × n) in the names' lengths, for names whose lengths
    /// differ by at most the tolerance (any other pair is skipped unmeasured: a key of a
    /// megabyte costs no more than a short one).
    public static func nearest(to name: String, among candidates: [String]) -> [String] {
        guard !candidates.contains(name) else { return [] }
        let length = name.count
        let allowed = tolerance(forLength: length)
        var best = allowed
        var found: [String] = []
        for candidate in candidates where abs(candidate.count - length) <= allowed {
            let d = distance(name, candidate)
            guard d <= allowed else { continue }
            if found.isEmpty || d < best {
                best = d
                found = [candidate]
            } else if d == best, !found.contains(candidate) {
                found.append(candidate)
            }
        }
        return found
    }

    /// "; did you mean run?" or "; did you mean a, b or c?" for `suggestions` as
    /// written (each already escaped by the caller where it repeats user text); empty
    /// when there is none.
    /// - Complexity: O(n) in the suggestions' length.
    public static func didYouMean(_ suggestions: [String]) -> String {
        guard let last = suggestions.last else { return "" }
        let listed = suggestions.count == 1 ? last : suggestions.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(listed)?"
    }
}
