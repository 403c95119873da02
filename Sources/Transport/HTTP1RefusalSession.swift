import HTTP1

/// An HTTP/1.1 client on a listener that speaks HTTP/2 only (`curl --http1.1`, httpx
/// without TLS): one HTTP/1.1 answer, 505 HTTP Version Not Supported with a line saying
/// what to speak, then the connection closes (the rest of the request is read and dropped
/// while it lingers). Answered in the client's protocol, not with HTTP/2 frames it would
/// misread ("Received HTTP/0.9"). The service never sees the request.
final class HTTP1RefusalSession: Session {
    private var outbound = OutboundQueue()

    /// The answer's body: what the client should do instead.
    static let advice = "This port speaks HTTP/2 only: send HTTP/2 with prior knowledge (h2c, "
        + "curl --http2-prior-knowledge) or over TLS with ALPN h2.\n"

    /// - Parameter method: the request line's method (a HEAD is answered without the body).
    init(method: String) {
        let response = Response(status: 505, fields: [Field("content-type", "text/plain; charset=utf-8")],
                                body: Array(Self.advice.utf8))
        try? response.encode(into: &outbound.bytes, omittingBody: method == "HEAD", closingConnection: true)
    }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {}
    var wantsInput: Bool { false }
    var outboundByteCount: Int { outbound.count }
    func takeOutbound(maxBytes: Int) -> [UInt8] { outbound.take(maxBytes: maxBytes) }
    func resume(now: Duration, service: Service) {}
    func inputEnded(now: Duration, service: Service) {}
    func beginShutdown() {}
    func closeIdle() {}
    var isFinished: Bool { true }
    var requestsServed: Int { 0 }
    var endedByProtocolError: Bool { true }
    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service) {}
    var awaitsLaterAnswer: Bool { false }
    var progress: Int { 0 }
    var hasDeferredWork: Bool { false }
    var refusedForMemory: Int { 0 }
    func connectionClosed() {}
}
