/// One push of a send log, as read (docs/send-log.md).
public struct SendLogRow: Sendable, Equatable {
    /// Its line in the file (the header is line 1).
    public var line: Int
    /// When it was sent, as written.
    public var time: SendLogTime
    /// The user or device it went to: an opaque string (maybe a hash). Never written to a report.
    public var user: String
    /// The app's bundle id or APNs topic.
    public var topic: String
    /// `apns-collapse-id`; nil: none.
    public var collapseID: String?
    /// The thread; nil: none.
    public var thread: String?
    /// Alert (the default) or background.
    public var kind: SendLogKind

    /// A value of the fields given.
    /// - Complexity: O(1).
    public init(line: Int, time: SendLogTime, user: String, topic: String, collapseID: String? = nil, thread: String? = nil,
                kind: SendLogKind = .alert) {
        self.line = line
        self.time = time
        self.user = user
        self.topic = topic
        self.collapseID = collapseID
        self.thread = thread
        self.kind = kind
    }
}
