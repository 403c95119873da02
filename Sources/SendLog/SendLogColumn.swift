/// The columns of a send log (docs/send-log.md), declared once: the header names them,
/// in any order; `time`, `user` and `topic` are required, the others optional (absent or
/// empty: none, and `kind` alert). The Table Schema in `schema/send-log.schema.json` lists
/// the same (`SendLogTests` compares them).
public enum SendLogColumn: String, CaseIterable, Sendable {
    /// When the provider sent the push: RFC 3339 with its offset (`2026-03-02T09:15:00.250+03:00`).
    case time
    /// The user or device the push went to: any opaque string (it may be hashed).
    case user
    /// The app's bundle id or APNs topic.
    case topic
    /// `apns-collapse-id`, if any (at most 64 bytes, as APNs allows).
    case collapseID = "collapse_id"
    /// The thread or conversation the push belongs to, if any.
    case thread
    /// `alert` (the default) or `background`.
    case kind

    /// Whether every row must have a value in it.
    public var isRequired: Bool {
        switch self {
        case .time, .user, .topic: true
        case .collapseID, .thread, .kind: false
        }
    }

    /// The column's meaning, for the Table Schema and docs.
    public var summary: String {
        switch self {
        case .time: "when the provider sent the push: RFC 3339 with its offset (2026-03-02T09:15:00.250+03:00); placed at its local wall time"
        case .user: "the user or device it went to: any opaque string, hashed or not; never written to a report"
        case .topic: "the app's bundle id or APNs topic; rows of another topic than the scenario's app are left out"
        case .collapseID: "apns-collapse-id, if any (empty: none; at most 64 bytes)"
        case .thread: "the thread or conversation it belongs to, if any (empty: none)"
        case .kind: "alert (the default when empty) or background"
        }
    }

    /// Most bytes of a value: APNs's limit for a collapse id; a bound on the others, so
    /// that a runaway line is refused rather than held.
    public var byteLimit: Int {
        switch self {
        case .time: 64
        case .collapseID: 64
        case .user, .topic, .thread: 1_024
        case .kind: 16
        }
    }
}

/// What a push in the log is: an alert (a mail the user sees) or a background push.
public enum SendLogKind: String, CaseIterable, Sendable {
    case alert, background
}
