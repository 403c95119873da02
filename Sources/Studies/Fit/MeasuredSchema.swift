import Base

/// The measured file's schema as a Frictionless Table Schema (JSON): each column of
/// `MeasuredColumn` with its type, constraints and meaning, for tools that check a CSV
/// before it reaches `pushsim fit` (`pushsim schema measured`). pushsim's own reader is the
/// judge: it also checks what a table schema cannot (one zone a file, logged ≤ sent ≤ mail,
/// a pair of columns for a statistic).
package enum MeasuredSchema {
    /// The schema's text, one member a line.
    /// - Complexity: O(columns).
    package static var text: String {
        let fields = MeasuredColumn.allCases.map { column -> String in
            var members: [(String, String)] = [("name", JSONText.string(column.name))]
            var constraints: [(String, String)] = []
            switch column {
            case .date:
                members.append(("type", JSONText.string("date")))
                members.append(("format", JSONText.string("%Y-%m-%d")))
                constraints = [("required", "true"), ("unique", "true")]
            case .timeZone:
                members.append(("type", JSONText.string("string")))
                constraints = [("required", "true"),
                               ("pattern", JSONText.string(#"UTC|UTC[+-](0\d|1[0-4]):[0-5]\d|[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)+"#))]
            case .mail, .sent, .logged, .launches, .consoleReceived, .consoleDelivered:
                members.append(("type", JSONText.string("integer")))
                constraints = [("minimum", "0"), ("maximum", String(MeasuredSeries.maxCount))]
            }
            members.append(("description", JSONText.string(column.summary)))
            members.append(("constraints", JSONText.object(constraints)))
            return JSONText.object(members)
        }
        return JSONText.pretty(JSONText.object([
            ("description", JSONText.string("pushsim fit's measured figures (docs/fit.md): a Frictionless Table Schema; the header names a subset of these columns: date, time_zone and the two columns of at least one figure, "
                                              + FitStatistic.columnPairs)),
            ("fields", JSONText.array(fields)),
            ("primaryKey", JSONText.string("date")),
            ("missingValues", JSONText.array([JSONText.string("")])),
        ]) + "\n")
    }
}
