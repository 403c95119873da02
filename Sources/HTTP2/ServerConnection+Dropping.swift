extension ServerConnection {
    /// Sends GOAWAY naming `lastStream` (lowered to the last stream handed over, and to any
    /// earlier GOAWAY's), as a server that drops a connection does: every stream above it is
    /// forgotten unanswered (RFC 9113 §6.8: the client knows the server did not process them
    /// and may send them again on another connection); those at or below finish as usual.
    /// Answers the streams forgotten, for the application to drop what it kept for them.
    /// - Complexity: O(s) in the streams open.
    public mutating func goAway(lastStream: StreamID, code: ErrorCode = .noError, debug: [UInt8] = []) -> [StreamID] {
        guard phase != .closed else { return [] }
        let last = Swift.min(lastStream, lastAcceptedStreamID, goAwayLastStream ?? .max)
        outbound.append(Frame(stream: .connection, payload: .goAway(lastStream: last, code: code, debug: debug)))
        goAwayLastStream = last
        shutdownPing = nil
        let dropped = streams.keys.filter { $0 > last }
        for id in dropped {
            _ = removeStream(id)
            closedStreams.record(id, .ignored)
        }
        return dropped
    }
}
