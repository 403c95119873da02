/// The errors found while reading one scenario file. The decoder reads a field
/// through `attempt`: an error is logged and the field counts as absent (its default),
/// so the fields after it are still checked and one pass reports them all.
package final class ScenarioErrorLog {
    /// The scenario file, as named on the command line.
    package let file: String
    /// The errors so far, in the order found.
    package private(set) var errors: [ScenarioError] = []

    /// An empty log for `file`.
    /// - Complexity: O(1).
    package init(file: String) { self.file = file }

    /// Logs `error`.
    /// - Complexity: amortised O(1).
    package func record(_ error: ScenarioError) { errors.append(error) }

    /// The result of `read`, or nil after logging the error it threw.
    /// - Complexity: that of `read`.
    package func attempt<Value>(_ read: () throws -> Value) -> Value? {
        do {
            return try read()
        } catch let error as ScenarioError {
            record(error)
        } catch {
            record(ScenarioError(.invalidValue("\(error)"), file: file, path: "", location: nil))
        }
        return nil
    }

    /// The optional field `read` reads, or nil when it is absent or after logging the
    /// error it threw.
    /// - Complexity: that of `read`.
    package func attemptOptional<Value>(_ read: () throws -> Value?) -> Value? {
        attempt(read) ?? nil
    }

    /// Every error in file order (those without a position first) as one
    /// `ScenarioError` listing at most `ScenarioError.listLimit`; nil when there is none.
    /// - Complexity: O(n log n) in the errors, plus the suggestions of the unknown fields.
    package func combined() -> ScenarioError? {
        // A misspelt required field is one mistake, not two: the unknown key's message names
        // the field it resembles, so that field's "required field is missing" is left out.
        let misspelt = Set(errors.flatMap { error in error.suggestions.map(error.siblingPath) })
        let errors = errors.filter { $0.kind != .missingField || !misspelt.contains($0.path) }
        let sorted = errors.enumerated().sorted { left, right in
            let l = left.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            let r = right.element.location.map { ($0.line, $0.column) } ?? (0, 0)
            return l != r ? l < r : left.offset < right.offset
        }.map(\.element)
        guard var first = sorted.first else { return nil }
        let listed = sorted.prefix(ScenarioError.listLimit)
        first.more = Array(listed.dropFirst())
        first.unlisted = sorted.count - listed.count
        return first
    }
}
