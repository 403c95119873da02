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
    private let memory: RequestMemory
    /// What the parser's octets hold of the memory budget.
    private var holding = 0
    private(set) var refusedForMemory = 0
    /// Requests answered per turn, so a client pipelining many cannot hold the loop.
    private let requestsPerTurn: Int
    /// The turn (its `now`) the count below is of.
    private var turn = Duration.zero
    private var answeredThisTurn = 0
    /// Whole requests may wait in the parser: this turn's share was answered.
    private(set) var hasDeferredWork = false
    /// Requests read whole, and heads asking for 100-continue (what counts as the client's activity).
    private(set) var progress = 0

    init(limits: RequestLimits, maxQueuedWriteBytes: Int, requestsPerTurn: Int, memory: RequestMemory, listener: Int,
         connection: Int) {
        parser = RequestParser(limits: limits)
        self.requestsPerTurn = requestsPerTurn
        self.memory = memory
        self.maxQueuedWriteBytes = maxQueuedWriteBytes
        self.listener = listener
        self.connection = connection
    }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {
        parser.append(bytes)
        guard account() else { return refuseForMemory() }
        serve(service, now: now)
    }

    /// Brings what the session holds of the memory budget to what the parser holds:
    /// false when the budget cannot take it.
    private func account() -> Bool {
        let held = parser.heldByteCount
        if held <= holding {
            memory.give(holding - held, holding: &holding)
            return true
        }
        return memory.take(held - holding, holding: &holding)
    }

    /// Past the memory budget: 503 with `connection: close`, the octets held dropped.
    private func refuseForMemory() {
        refusedForMemory += 1
        parser = RequestParser(limits: parser.limits)
        memory.give(holding, holding: &holding)
        let body = Array("The server holds as many requests as its memory budget allows: try again shortly.\n".utf8)
        try? Response(status: 503, fields: [Field("content-type", "text/plain; charset=utf-8"), Field("retry-after", "1")], body: body)
            .encode(into: &outbound.bytes, closingConnection: true)
        finished = true
    }

    /// Answers whole requests until the parser wants more octets, the write limit or this
    /// turn's share is reached, or the session ends.
    private func serve(_ service: Service, now: Duration) {
        if now != turn {
            turn = now
            answeredThisTurn = 0
        }
        hasDeferredWork = false
        defer { _ = account() } // what was handed out is given back; the parser only shrinks here
        while !finished && awaitingLater == nil {
            guard outboundByteCount < maxQueuedWriteBytes else {
                paused = true
                return
            }
            guard answeredThisTurn < requestsPerTurn else {
                hasDeferredWork = true
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
                progress += 1
                try? Response.continue.encode(into: &outbound.bytes)
            case .request(let request)?:
                progress += 1
                answeredThisTurn += 1
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
        serve(service, now: now)
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

    var wantsInput: Bool { !finished && !paused && !hasDeferredWork && !clientClosed && awaitingLater == nil }

    var outboundByteCount: Int { outbound.count }

    func takeOutbound(maxBytes: Int) -> [UInt8] { outbound.take(maxBytes: maxBytes) }

    func resume(now: Duration, service: Service) {
        if paused || hasDeferredWork { serve(service, now: now) }
    }

    func inputEnded(now: Duration, service: Service) {
        clientClosed = true
        serve(service, now: now) // the whole requests still in the parser are answered; a partial one is dropped
    }

    func connectionClosed() { memory.give(holding, holding: &holding) }

    func beginShutdown() {
        stopping = true
        if !parser.hasPartialRequest && !paused && awaitingLater == nil { finished = true }
    }

    func closeIdle() {
        finished = true
    }

    var isFinished: Bool { finished }
}
