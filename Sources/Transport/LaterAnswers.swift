/// Where a request answered `HTTPResponse.later` is: its connection and stream.
public struct LaterAnswer: Hashable, Sendable {
    public var connection: Int
    public var stream: Int

    /// - Complexity: O(1).
    public init(connection: Int, stream: Int) {
        self.connection = connection
        self.stream = stream
    }
}

/// Answers a service gives after `respond(to:)` returned `HTTPResponse.later`: a provider
/// that answers a re-request once APNs answered what it re-sent, a clock that answers once
/// it got where it was asked to go. Queued here and written by the loop at the end of the
/// turn. A `Server` owns one (`Server.laterAnswers`).
///
/// Not thread-safe: call `answer` on the loop's thread (from `respond`, `tick` or `received`).
public final class LaterAnswers {
    var queued: [(answer: LaterAnswer, response: HTTPResponse)] = []

    init() {}

    /// Answers the request `answer` names. An answer for a connection that closed meanwhile,
    /// or for a stream the client reset, is dropped.
    /// - Complexity: O(1) amortized.
    public func answer(_ answer: LaterAnswer, with response: HTTPResponse) {
        precondition(!response.isLater, "a later answer must be an answer")
        queued.append((answer, response))
    }
}
