import HTTP2

/// An HTTP/2 connection: `ServerConnection` in and out, each request gathered (headers,
/// then every DATA until END_STREAM; trailers end it too and are dropped) and handed to
/// the service whole, its answer queued on its stream.
final class HTTP2Session: Session {
    private var connection: ServerConnection
    /// A request whose body is on its way.
    private struct PendingRequest {
        var head: RequestHead
        var body: [UInt8]
        /// What it holds of the memory budget: its header list and its body's storage.
        var held: Int
    }

    /// Requests whose body is on its way.
    private var pending = StreamMap<PendingRequest>()
    private let maxRequestBodyBytes: Int
    private let maxQueuedWriteBytes: Int
    private let listener: Int
    private let connectionNumber: Int
    /// Requests the service answers later, by stream, with their method.
    private var awaitingLater: [StreamID: String] = [:]
    private var clientClosed = false
    private(set) var requestsServed = 0
    private(set) var endedByProtocolError = false
    /// The client certificates TLS verified for this connection, handed with every request.
    var clientCertificateChain: [[UInt8]] = []
    private let memory: RequestMemory
    /// What this connection's pending requests hold of the memory budget.
    private var holding = 0
    private(set) var refusedForMemory = 0

    /// What a pending request holds beyond its fields and body: its entry and head.
    static let requestOverhead = 256

    init(configuration: ServerConfiguration, maxRequestBodyBytes: Int, maxQueuedWriteBytes: Int, memory: RequestMemory,
         listener: Int, connection: Int) {
        self.connection = ServerConnection(configuration: configuration)
        self.memory = memory
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxQueuedWriteBytes = maxQueuedWriteBytes
        self.listener = listener
        connectionNumber = connection
    }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration, service: Service) {
        for event in connection.receive(bytes, now: now) {
            switch event {
            case .request(let stream, let head, let endStream):
                if let length = head.contentLength, length > maxRequestBodyBytes {
                    refuseAsTooLarge(stream)
                } else if endStream {
                    answer(stream, head, body: [], service)
                } else {
                    hold(stream, head)
                }
            case .data(let stream, let bytes, let endStream):
                // Data of a stream already answered (413) or refused is dropped: it is acknowledged all the same.
                guard let request = pending.removeValue(forKey: stream) else { continue }
                receiveBody(bytes, of: request, on: stream, endStream: endStream, service)
            case .trailers(let stream, _):
                if let request = pending.removeValue(forKey: stream) {
                    release(request)
                    answer(stream, request.head, body: request.body, service)
                }
            case .streamReset(let stream, _):
                forget(stream)
            case .streamError(let error):
                if let stream = error.stream { forget(stream) }
            case .connectionError:
                forgetAll()
                endedByProtocolError = true
            case .ping, .pingAcknowledged, .goAway:
                break
            }
        }
    }

    /// Keeps a request whose body is to come, its header list counted against the memory
    /// budget; past the budget the stream is refused (REFUSED_STREAM: the client may retry).
    private func hold(_ stream: StreamID, _ head: RequestHead) {
        let cost = head.fields.storageBytes + Self.requestOverhead
        guard memory.take(cost, holding: &holding) else { return refuseForMemory(stream) }
        pending[stream] = PendingRequest(head: head, body: [], held: cost)
    }

    /// Adds a DATA frame's octets to a pending request, its body's storage counted against
    /// the memory budget, and answers it once whole.
    private func receiveBody(_ bytes: [UInt8], of pendingRequest: PendingRequest, on stream: StreamID, endStream: Bool,
                             _ service: Service) {
        var request = pendingRequest
        let needed = request.body.count + bytes.count
        guard needed <= maxRequestBodyBytes else {
            release(request)
            return refuseAsTooLarge(stream)
        }
        // A body in one DATA frame (an APNs payload) is that frame's octets, not a copy.
        let capacity = request.body.isEmpty ? bytes.capacity : request.body.capacity
        let grown = needed <= capacity ? capacity : Swift.min(Swift.max(needed, capacity * 2), maxRequestBodyBytes)
        let storage = request.body.isEmpty ? grown : grown - request.body.capacity
        guard memory.take(storage, holding: &holding) else {
            release(request)
            return refuseForMemory(stream)
        }
        request.held += storage
        if request.body.isEmpty {
            request.body = bytes
        } else {
            if grown > request.body.capacity { request.body.reserveCapacity(grown) }
            request.body += bytes
        }
        guard endStream else {
            pending[stream] = request
            return
        }
        release(request)
        answer(stream, request.head, body: request.body, service)
    }

    private func release(_ request: PendingRequest) { memory.give(request.held, holding: &holding) }

    /// The request on `stream` is gone (reset, or a stream error): its memory is given back.
    private func forget(_ stream: StreamID) {
        if let request = pending.removeValue(forKey: stream) { release(request) }
        awaitingLater[stream] = nil
    }

    private func forgetAll() {
        pending.removeAll()
        awaitingLater.removeAll()
        memory.give(holding, holding: &holding)
    }

    /// Past the memory budget: REFUSED_STREAM, which says the request was not processed.
    private func refuseForMemory(_ stream: StreamID) {
        refusedForMemory += 1
        try? connection.resetStream(stream, code: .refusedStream)
    }

    /// 413 from the transport itself; the rest of the body is read and dropped.
    private func refuseAsTooLarge(_ stream: StreamID) {
        try? connection.respond(to: stream, status: 413, headers: [HeaderField("content-length", "0")])
    }

    /// The fields of the answer being sent: one list refilled for every answer, so its
    /// storage is allocated once per connection, not per response.
    private var responseFields = HeaderList()

    /// How a response field is sent: fields whose value differs in every response would only
    /// churn the client's HPACK table if indexed (RFC 7541 §7.1.3 names this case).
    private static func indexing(of name: String) -> HeaderField.Indexing {
        switch name {
        case "apns-id", "apns-unique-id", "date": .withoutIndexing
        default: .incremental
        }
    }

    private func answer(_ stream: StreamID, _ head: RequestHead, body: [UInt8], _ service: Service) {
        // The request's fields are the decoded block itself: no text is made of them here.
        var request = HTTPRequest(
            method: head.method, path: head.path ?? head.authority ?? "", authority: head.authority,
            fields: head.fields, body: body, version: .http2, listener: listener, connection: connectionNumber,
            stream: Int(stream.rawValue))
        request.clientCertificateChain = clientCertificateChain
        let response = service.respond(to: request)
        requestsServed += 1
        if response.isLater {
            awaitingLater[stream] = head.method
            return
        }
        send(response, on: stream, method: head.method)
    }

    func answerLater(stream: Int, _ response: HTTPResponse, now: Duration, service: Service) {
        guard let raw = UInt32(exactly: stream), case let id = StreamID(raw), let method = awaitingLater.removeValue(forKey: id) else { return }
        send(response, on: id, method: method)
    }

    var awaitsLaterAnswer: Bool { !awaitingLater.isEmpty }

    private func send(_ response: HTTPResponse, on stream: StreamID, method: String) {
        Self.send(response, on: stream, method: method, fields: &responseFields, over: &connection)
    }

    /// Sends `response` with `fields` refilled for it: a static function, so the two
    /// properties are each accessed once, not at every use (each access to a class's
    /// property is checked for exclusivity at run time).
    private static func send(_ response: HTTPResponse, on stream: StreamID, method: String, fields responseFields: inout HeaderList,
                             over connection: inout ServerConnection) {
        responseFields.removeAll()
        for header in response.headers where header.name != "content-length" {
            responseFields.append(name: header.name, value: header.value, indexing: Self.indexing(of: header.name))
        }
        // RFC 9110 §8.6: no content-length on 1xx and 204; 304 and HEAD carry no body.
        let bodiless = response.status < 200 || response.status == 204 || response.status == 304
        if !bodiless { responseFields.append(name: "content-length", decimal: response.body.count) }
        do {
            try connection.respond(to: stream, status: response.status, headers: responseFields,
                                   body: bodiless || method == "HEAD" ? [] : response.body)
        } catch .invalidResponse {
            // The service answered what HTTP/2 cannot carry (an uppercase or connection-specific field, a 1xx).
            try? connection.respond(to: stream, status: 500, headers: [HeaderField("content-length", "0")])
        } catch {
            // The client reset the stream, or the connection is closing: normal life, nothing to answer.
        }
    }

    var wantsInput: Bool { !clientClosed && !connection.isFinished && connection.outboundByteCount < maxQueuedWriteBytes }

    var outboundByteCount: Int { connection.outboundByteCount }

    func takeOutbound(maxBytes: Int) -> [UInt8] { connection.takeOutbound(maxBytes: maxBytes) }

    func resume(now: Duration, service: Service) {}

    func inputEnded(now: Duration, service: Service) {
        // Whatever came whole was answered as it came; data waiting for windows the client
        // can no longer open will not go.
        clientClosed = true
        forgetAll()
    }

    func connectionClosed() { forgetAll() }

    var progress: Int { connection.framesReceived }

    /// A turn reads at most one buffer of octets (64 KiB) and answers what it holds.
    var hasDeferredWork: Bool { false }

    func beginShutdown() { connection.beginGracefulShutdown() }

    func closeIdle() { connection.goAway(code: .noError) }

    func goAway(lastStream: Int) {
        let last = StreamID(UInt32(clamping: Swift.max(0, lastStream)))
        for stream in connection.goAway(lastStream: last) {
            awaitingLater[stream] = nil
            if let request = pending.removeValue(forKey: stream) { release(request) }
        }
    }

    var isFinished: Bool { clientClosed || connection.isFinished }
}
