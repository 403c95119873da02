import HTTP1

/// An outgoing HTTP/1.1 connection: one request at a time, written by `Request`, its
/// answer read by `ResponseParser`; kept alive between requests unless either side says close.
final class HTTP1ClientSession: ClientSession {
    private var parser: ResponseParser
    private var outbound = OutboundQueue()
    /// The request in flight: its serial, method, and whether it may go again if the
    /// connection turns out to have been closed by the server before it arrived.
    private var current: (serial: Int, method: String, idempotent: Bool)?
    /// Whether an earlier answer came on this connection: an end before any octet of the
    /// next one is then the server closing an idle keep-alive connection as we reused it.
    private var reused = false
    private var finished = false

    /// Methods a client may send again without changing the outcome (RFC 9110 §9.2.2).
    private static let idempotent: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    init(limits: ResponseLimits) {
        parser = ResponseParser(limits: limits)
    }

    let peakStreams = 0

    func send(_ serial: Int, _ request: OutgoingRequest, authority: String) -> OutgoingFailure? {
        let fields = [Field("host", authority)] + request.headers.filter { $0.name.lowercased() != "content-length" && $0.name.lowercased() != "host" }
            .map { Field($0.name, $0.value) }
        let message = Request(method: request.method, target: request.path, fields: fields, body: request.body)
        do {
            try message.encode(into: &outbound.bytes)
        } catch {
            return .invalidRequest(error.description)
        }
        current = (serial, request.method, Self.idempotent.contains(request.method))
        return nil
    }

    var acceptsRequests: Bool { current == nil && !finished && !parser.isClosed }

    var requestsInFlight: Int { current == nil ? 0 : 1 }

    var serverHasSpoken: Bool { true }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [ClientResult] {
        guard let request = current else {
            finished = true // octets nobody asked for: the connection cannot be trusted to frame the next answer
            return []
        }
        parser.append(bytes)
        do {
            guard let response = try parser.next(requestMethod: request.method) else { return [] }
            current = nil
            reused = true
            if parser.isClosed { finished = true }
            return [.response(request.serial, HTTPResponse(status: response.status,
                                                           headers: response.fields.map { Header($0.name, $0.value) },
                                                           body: response.body))]
        } catch {
            current = nil
            finished = true
            return [.failed(request.serial, Self.failure(error), retryable: false)]
        }
    }

    private static func failure(_ error: ResponseParseError) -> OutgoingFailure {
        switch error {
        case .malformed(let reason): .protocolError(reason)
        case .tooLarge: .responseTooLarge
        case .incomplete: .connectionLost
        }
    }

    func connectionEnded(_ failure: OutgoingFailure) -> [ClientResult] {
        finished = true
        guard let request = current else { return [] }
        current = nil
        let untouched = !parser.hasPartialResponse
        do {
            // A body delimited by the connection's end is whole now.
            if let response = try parser.finish() {
                return [.response(request.serial, HTTPResponse(status: response.status,
                                                               headers: response.fields.map { Header($0.name, $0.value) },
                                                               body: response.body))]
            }
            return [.failed(request.serial, failure, retryable: reused && untouched && request.idempotent)]
        } catch {
            return [.failed(request.serial, Self.failure(error), retryable: false)]
        }
    }

    func cancel(_ serial: Int) -> Bool {
        guard current?.serial == serial else { return false }
        current = nil
        finished = true
        return true
    }

    var outboundByteCount: Int { outbound.count }

    func takeOutbound(maxBytes: Int) -> [UInt8] { outbound.take(maxBytes: maxBytes) }

    var isFinished: Bool { finished && current == nil }

    func closeIdle() { finished = true }
}
