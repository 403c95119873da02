import Foundation
import Synchronization
import Transport

/// A service that answers what it was asked and records it, for tests on any thread.
///
/// - `/echo`: 200 with the request body.
/// - `/status/NNN`: status NNN with an empty body.
/// - `/stop`: 200, and the server stops (a control request, as `pushsim serve`'s could be).
/// - `/big/N`: 200 with 65 536 octets of value N % 256 (to tell answers apart by their body).
/// - `/unsendable`: a field value with CR LF, which no protocol may carry (the transport answers 500).
/// - `/uppercase`: a field name in capitals, which HTTP/2 may not carry (500 there; HTTP/1.1 sends it).
/// - anything else: 200 with a line describing the request (method, path, version, body
///   length, listener) and `apns-id` (a field unique per response).
final class TestService: Service, @unchecked Sendable {
    struct Record: Sendable {
        var requests: [HTTPRequest] = []
        var closedConnections: [Int] = []
        var ticks = 0
        var lastElapsed = Duration.zero
        var elapsedWentBack = false
    }

    private let record = Mutex(Record())
    private let stopFlag = Atomic<Bool>(false)
    /// Keeps at most this many requests (the count goes on).
    let keep: Int
    private let count = Atomic<Int>(0)

    init(keep: Int = 10_000) {
        self.keep = keep
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let number = count.add(1, ordering: .relaxed).newValue
        record.withLock { if $0.requests.count < keep { $0.requests.append(request) } }
        if request.path == "/echo" {
            return HTTPResponse(status: 200, headers: [Header("content-type", "application/octet-stream")], body: request.body)
        }
        if request.path.hasPrefix("/status/"), let status = Int(request.path.dropFirst(8)) {
            return HTTPResponse(status: status)
        }
        if request.path == "/stop" { stop() }
        if request.path.hasPrefix("/big/"), let value = Int(request.path.dropFirst(5)) {
            return HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(truncatingIfNeeded: value), count: 65_536))
        }
        if request.path == "/unsendable" { return HTTPResponse(status: 200, headers: [Header("x-split", "a\r\nx-injected: 1")]) }
        if request.path == "/uppercase" { return HTTPResponse(status: 200, headers: [Header("X-Capital", "1")]) }
        let version = request.version == .http2 ? "h2" : "http/1.1"
        let line = "\(request.method) \(request.path) \(version) body=\(request.body.count) listener=\(request.listener)\n"
        return HTTPResponse(status: 200, headers: [Header("content-type", "text/plain"), Header("apns-id", "id-\(number)")],
                            body: Array(line.utf8))
    }

    func tick(elapsed: Duration) -> Duration? {
        record.withLock {
            $0.ticks += 1
            if elapsed < $0.lastElapsed { $0.elapsedWentBack = true }
            $0.lastElapsed = elapsed
        }
        return nil
    }

    func connectionClosed(_ connection: Int) {
        record.withLock { $0.closedConnections.append(connection) }
    }

    var shouldStop: Bool { stopFlag.load(ordering: .acquiring) }

    func stop() { stopFlag.store(true, ordering: .releasing) }

    var requestCount: Int { count.load(ordering: .relaxed) }
    var snapshot: Record { record.withLock { $0 } }
}
