/// One connection's protocol once it is known: what it makes of the octets read (requests
/// for the service, answers queued), and what it has to write. The `Connection` owns the
/// socket and the session's life; the session never touches the socket.
protocol Session: AnyObject {
    /// Reads octets: whole requests go to `service`, their answers are queued.
    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service)
    /// Whether the session takes more octets now: false once it reads no more, or while
    /// its queued answers are over the write limit (backpressure).
    var wantsInput: Bool { get }
    /// Octets queued for writing.
    var outboundByteCount: Int { get }
    /// Removes and returns up to `maxBytes` queued octets, oldest first.
    func takeOutbound(maxBytes: Int) -> [UInt8]
    /// Called when written octets made room: work paused by backpressure goes on.
    func resume(now: Duration, service: Service)
    /// The client closed its side: what it sent whole is answered, nothing more comes.
    func inputEnded(now: Duration, service: Service)
    /// The server stops: finish what is in flight, take nothing new.
    func beginShutdown()
    /// Nothing moved for the idle timeout: end the connection as the protocol does.
    func closeIdle()
    /// The service drops the connection: HTTP/2 sends GOAWAY naming `lastStream` and forgets
    /// the requests above it; a protocol without such a frame ends as `closeIdle` does.
    func goAway(lastStream: Int)
    /// Whether the session is over: once its queued octets are written, the connection closes.
    var isFinished: Bool { get }
    /// Requests handed to the service.
    var requestsServed: Int { get }
    /// Whether the session ended for the client's protocol error.
    var endedByProtocolError: Bool { get }
    /// Writes the answer the service gave later to the request on `stream` (dropped when
    /// that request is gone: its stream reset, or not one answered `later`).
    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service)
    /// Whether a request waits for the service's later answer: the connection is not idle.
    var awaitsLaterAnswer: Bool { get }
    /// Whole units read so far (HTTP/2 frames, HTTP/1.1 requests): what counts as
    /// the client's activity. Octets that complete nothing (slowloris) do not.
    var progress: Int { get }
    /// Whether whole requests wait that this turn's share did not answer: the loop gives
    /// the session another turn at once (`resume`) even if its socket stays quiet.
    var hasDeferredWork: Bool { get }
    /// Requests refused because the memory budget was spent.
    var refusedForMemory: Int { get }
    /// The connection closed, whatever the reason: give back the memory budget held.
    func connectionClosed()
}

extension Session {
    /// HTTP/1.1 has no GOAWAY: the connection ends as an idle one does.
    func goAway(lastStream: Int) { closeIdle() }
}
