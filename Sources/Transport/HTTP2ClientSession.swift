import HTTP2

/// An outgoing HTTP/2 connection: `ClientConnection` in and out, each request's serial
/// kept beside the identifier the connection gave it.
final class HTTP2ClientSession: ClientSession {
    private var connection: ClientConnection
    private var serials: [RequestID: Int] = [:]
    private var requests: [Int: RequestID] = [:]
    private(set) var peakStreams = 0

    init(configuration: ClientConfiguration) {
        connection = ClientConnection(configuration: configuration)
    }

    func send(_ serial: Int, _ request: OutgoingRequest, authority: String) -> OutgoingFailure? {
        var fields = request.headers.map { HeaderField($0.name.lowercased(), $0.value, indexing: Self.indexing($0.name)) }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method),
           !fields.contains(where: { $0.name == Array("content-length".utf8) }) {
            fields.append(HeaderField("content-length", String(request.body.count)))
        }
        let message = ClientRequest(method: request.method, scheme: "http", path: request.path, authority: authority,
                                    fields: fields, body: request.body)
        do {
            let id = try connection.send(message)
            serials[id] = serial
            requests[serial] = id
            peakStreams = max(peakStreams, connection.openStreamCount)
            return nil
        } catch .invalidRequest(let reason) {
            return .invalidRequest(reason)
        } catch {
            return .connectionLost // not reached: the pool sends only while `acceptsRequests`
        }
    }

    /// Fields whose value differs in every request would only churn the server's HPACK
    /// table; a bearer token is never indexed by anyone (RFC 7541 §7.1.3).
    private static func indexing(_ name: String) -> HeaderField.Indexing {
        switch name.lowercased() {
        case "authorization": .never
        case "apns-id", "apns-expiration", "date": .withoutIndexing
        default: .incremental
        }
    }

    var acceptsRequests: Bool { connection.acceptsRequests }

    var requestsInFlight: Int { connection.requestsInFlight }

    var serverHasSpoken: Bool { connection.hasServerSettings }

    func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [ClientResult] {
        let results = results(of: connection.receive(bytes, now: now))
        peakStreams = max(peakStreams, connection.openStreamCount)
        return results
    }

    func connectionEnded(_ failure: OutgoingFailure) -> [ClientResult] {
        results(of: connection.connectionLost(), lost: failure)
    }

    func cancel(_ serial: Int) -> Bool {
        guard let id = requests.removeValue(forKey: serial) else { return false }
        serials[id] = nil
        connection.cancel(id)
        return false
    }

    private func results(of events: [ClientEvent], lost: OutgoingFailure = .connectionLost) -> [ClientResult] {
        var results: [ClientResult] = []
        for event in events {
            switch event {
            case .response(let id, let response):
                guard let serial = serials.removeValue(forKey: id) else { continue }
                requests[serial] = nil
                let headers = response.fields.map { Header($0.nameString, $0.valueString) }
                results.append(.response(serial, HTTPResponse(status: response.status, headers: headers, body: response.body)))
            case .failed(let id, let failure):
                guard let serial = serials.removeValue(forKey: id) else { continue }
                requests[serial] = nil
                results.append(.failed(serial, Self.outgoingFailure(failure, lost: lost), retryable: failure.isRetryable))
            case .goAway, .ping, .pingAcknowledged, .connectionError:
                break
            }
        }
        return results
    }

    private static func outgoingFailure(_ failure: RequestFailure, lost: OutgoingFailure) -> OutgoingFailure {
        switch failure {
        case .notProcessed(let code), .reset(let code): .reset(code)
        case .streamError(_, let reason), .connectionError(_, let reason): .protocolError(reason)
        case .responseTooLarge: .responseTooLarge
        case .connectionLost: lost
        }
    }

    var outboundByteCount: Int { connection.outboundByteCount }

    func takeOutbound(maxBytes: Int) -> [UInt8] { connection.takeOutbound(maxBytes: maxBytes) }

    var isFinished: Bool { connection.isFinished }

    func closeIdle() { connection.goAway(code: .noError) }
}
