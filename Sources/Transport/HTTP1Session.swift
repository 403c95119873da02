import HTTP1

/// An HTTP/1.1 connection: `RequestParser` in, `Response` out, requests answered in the
/// order they came (pipelining is what the parser keeps in order). A request the parser
/// refuses gets its error response with `connection: close`, and the session ends.
final class HTTP1Session: Session {
    private var parser: RequestParser
    private var outbound = OutboundQueue()
    private let maxQueuedWriteBytes: Int
    private let listener: Int
    private let connection: Int
    /// No more requests are read; the connection closes once `outbound` is written.
    private var finished = false
    /// Whole requests may wait in the parser: answering stopped at the write limit.
    private var paused = false
    private var clientClosed = false
    /// The server stops: the request in progress, if any, is the last.
    private var stopping = false
    private(set) var requestsServed = 0
    /// The request the service answers later: its method, and whether the connection closes after it.
    private var awaitingLater: (method: String, closing: Bool)?
    private(set) var endedByProtocolError = false

    init(limits: RequestLimits, maxQueuedWriteBytes: Int, listener: Int, connection: Int) {
        parser = RequestParser(limits: limits)
        self.maxQueuedWriteBytes = maxQueuedWriteBytes
        self.listener = listener
        self.connection = connection
    }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {
        parser.append(bytes)
        serve(service)
    }

    /// Answers whole requests until the parser wants more octets, the write limit is
    /// reached, or the session ends.
    private func serve(_ service: Service) {
        while !finished && awaitingLater == nil {
            guard outboundByteCount < maxQueuedWriteBytes else {
                paused = true
                return
            }
            let event: RequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                try? Response(error: error).encode(into: &outbound.bytes, closingConnection: true)
                endedByProtocolError = true
                finished = true
                return
            }
            paused = false
            switch event {
            case nil:
                // Nothing whole is left: a client gone, or a server stopping between requests, ends here.
                if clientClosed || parser.isClosed || (stopping && !parser.hasPartialRequest) { finished = true }
                return
            case .continueExpected?:
                try? Response.continue.encode(into: &outbound.bytes)
            case .request(let request)?:
                answer(request, service)
            }
        }
    }

    private func answer(_ request: Request, _ service: Service) {
        let closing = !request.keepAlive || stopping
        let response = service.respond(to: HTTPRequest(
            method: request.method, path: request.target, authority: request.host,
            headers: request.fields.map { Header($0.name, $0.value) }, body: request.body, version: .http1_1,
            listener: listener, connection: connection))
        requestsServed += 1
        if response.isLater {
            awaitingLater = (request.method, closing)
            return
        }
        send(response, method: request.method, closing: closing)
    }

    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service) {
        guard let (method, closing) = awaitingLater else { return }
        awaitingLater = nil
        send(response, method: method, closing: closing)
        serve(service)
    }

    var awaitsLaterAnswer: Bool { awaitingLater != nil }

    private func send(_ response: HTTPResponse, method: String, closing: Bool) {
        let fields = response.headers.filter { $0.name != "content-length" }.map { Field($0.name, $0.value) }
        do {
            try Response(status: response.status, fields: fields, body: response.body)
                .encode(into: &outbound.bytes, omittingBody: method == "HEAD", closingConnection: closing)
        } catch {
            // The service answered what HTTP/1.1 cannot carry (a split field, a bad status).
            try? Response(status: 500).encode(into: &outbound.bytes, closingConnection: closing)
        }
        if closing { finished = true }
    }

    var wantsInput: Bool { !finished && !paused && !clientClosed && awaitingLater == nil }

    var outboundByteCount: Int { outbound.count }

    func takeOutbound(maxBytes: Int) -> [UInt8] { outbound.take(maxBytes: maxBytes) }

    func resume(now: Duration, service: Service) {
        if paused { serve(service) }
    }

    func inputEnded(now: Duration, service: Service) {
        clientClosed = true
        serve(service) // the whole requests still in the parser are answered; a partial one is dropped
    }

    func beginShutdown() {
        stopping = true
        if !parser.hasPartialRequest && !paused && awaitingLater == nil { finished = true }
    }

    func closeIdle() {
        finished = true
    }

    var isFinished: Bool { finished }
}
