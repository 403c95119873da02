/// What the client did, as `ServerConnection.receive` reports it, in order.
public enum ServerEvent: Hashable, Sendable {
    /// A request's header section, complete and valid. `endStream`: there is no body.
    case request(StreamID, RequestHead, endStream: Bool)
    /// Request body octets, already acknowledged to the client's flow control.
    case data(StreamID, [UInt8], endStream: Bool)
    /// The request's trailers, which end it.
    case trailers(StreamID, [HeaderField])
    /// The client reset a stream we had reported (RST_STREAM): forget it, send nothing more.
    case streamReset(StreamID, ErrorCode)
    /// We reset a stream we had reported, for the client's error; RST_STREAM is sent.
    case streamError(ProtocolError)
    /// The client pinged; the acknowledgement is sent.
    case ping(UInt64)
    /// The client acknowledged a PING we sent.
    case pingAcknowledged(UInt64)
    /// The client is going away: it will open no new streams.
    case goAway(lastStream: StreamID, code: ErrorCode, debug: [UInt8])
    /// We ended the connection for the client's error: GOAWAY is queued. Send what
    /// `takeOutbound` returns, then close the socket.
    case connectionError(ProtocolError)
}

/// Why a response could not be queued. Most are races a server meets in normal life (the
/// client reset the stream while the answer was being prepared), none is the peer's error.
public enum SendError: Error, Hashable, Sendable {
    /// Not a stream the client has open: never opened, reset, or finished.
    case unknownStream(StreamID)
    /// The response on this stream already ended.
    case alreadyEnded(StreamID)
    /// Data or trailers before the response's HEADERS, or a second final HEADERS.
    case wrongOrder(StreamID)
    /// A status outside 100…999, or a field HTTP/2 forbids in a response.
    case invalidResponse(String)
    /// The connection is closed or closing with an error.
    case connectionClosed
}
