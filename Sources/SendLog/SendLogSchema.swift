import Base

/// The send log's Frictionless Table Schema (`pushsim schema send-log`, shipped as
/// `schema/pushsim-send-log.tableschema.json`), from `SendLogColumn`. The reader is the
/// judge: it also counts bytes where the schema counts characters.
public enum SendLogSchema {
    /// The RFC 3339 date-time with an offset that `SendLogTime.parse` reads (its ranges are the reader's).
    static let timePattern = #"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"#

    /// The schema's text, one member a line.
    /// - Complexity: O(columns).
    public static var text: String {
        let fields = SendLogColumn.allCases.map { column -> String in
            var constraints: [(String, String)] = column.isRequired ? [("required", "true")] : []
            switch column {
            case .time: constraints.append(("pattern", JSONText.string(timePattern)))
            case .kind: constraints.append(("enum", JSONText.array(SendLogKind.allCases.map { JSONText.string($0.rawValue) })))
            case .user, .topic, .collapseID, .thread: constraints.append(("maxLength", String(column.byteLimit)))
            }
            return JSONText.object([("name", JSONText.string(column.rawValue)), ("type", JSONText.string("string")),
                                    ("description", JSONText.string(column.summary)), ("constraints", JSONText.object(constraints))])
        }
        return JSONText.pretty(JSONText.object([
            ("description", JSONText.string("A provider's send log (docs/send-log.md): a Frictionless Table Schema; CSV with a header naming "
                                              + "time, user and topic and any of collapse_id, thread and kind, in any order; one row a push")),
            ("fields", JSONText.array(fields)),
            ("missingValues", JSONText.array([JSONText.string("")])),
        ]) + "\n")
    }
}
