import Foundation
import Glibc
import Synchronization
import Transport

/// A service that sends what the test asks from its loop (on the next `tick`) and keeps
/// every outcome; it answers requests made to it with 200 "client loop", so a test can
/// see that its loop keeps serving while requests are out.
final class OutgoingService: Service, @unchecked Sendable {
    struct Send {
        var request: OutgoingRequest
        var endpoint: Endpoint
        var timeout: Duration
        var tag: Int
    }

    private let state = Mutex((toSend: [Send](), outcomes: [Int: OutgoingOutcome](), served: 0))
    private let stopFlag = Atomic<Bool>(false)
    private let arrived = DispatchSemaphore(value: 0)
    /// Set before the loop runs; used on the loop's thread only.
    var outgoing: OutgoingRequests?
    /// Called on the loop's thread with each outcome, before it is recorded (to send more).
    var onReceived: ((OutgoingOutcome, Int, OutgoingRequests) -> Void)?

    /// Queues requests for the loop to send on its next turn.
    func enqueue(_ sends: [Send]) {
        state.withLock { $0.toSend += sends }
    }

    func enqueue(_ request: OutgoingRequest, to endpoint: Endpoint, timeout: Duration = .seconds(20), tag: Int) {
        enqueue([Send(request: request, endpoint: endpoint, timeout: timeout, tag: tag)])
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        state.withLock { $0.served += 1 }
        return HTTPResponse(status: 200, body: Array("client loop".utf8))
    }

    func tick(elapsed: Duration) -> Duration? {
        let sends = state.withLock { state in
            defer { state.toSend = [] }
            return state.toSend
        }
        for send in sends { outgoing?.send(send.request, to: send.endpoint, timeout: send.timeout, tag: send.tag) }
        return .milliseconds(10)
    }

    func received(_ outcome: OutgoingOutcome, tag: Int) {
        if let outgoing { onReceived?(outcome, tag, outgoing) }
        state.withLock { $0.outcomes[tag] = outcome }
        arrived.signal()
    }

    func connectionClosed(_ connection: Int) {}

    var shouldStop: Bool { stopFlag.load(ordering: .acquiring) }

    func stop() { stopFlag.store(true, ordering: .releasing) }

    var served: Int { state.withLock { $0.served } }

    /// Waits (at most `seconds` in all) until `count` outcomes have come; what came.
    func waitForOutcomes(_ count: Int, seconds: Int = 30) -> [Int: OutgoingOutcome] {
        let end = DispatchTime.now() + .seconds(seconds)
        while state.withLock({ $0.outcomes.count }) < count {
            if arrived.wait(timeout: end) == .timedOut { break }
        }
        return state.withLock { $0.outcomes }
    }
}

/// A `Server` used as a client loop, on a thread of its own: `OutgoingService` sends, and
/// one HTTP/1.1 listener on loopback shows the loop still serves.
final class ClientLoop: @unchecked Sendable {
    let server: Server
    let service = OutgoingService()
    let port: Int
    private let finished = DispatchSemaphore(value: 0)

    init(configuration: TransportConfiguration = TransportConfiguration()) throws {
        server = Server(configuration: configuration)
        port = try server.bind(host: "127.0.0.1", port: 0, protocol: .http1OrHTTP2).port
        service.outgoing = server.outgoing
        let thread = Thread { [self] in
            server.run(service: service)
            finished.signal()
        }
        thread.name = "transport-test-client-loop"
        thread.start()
    }

    /// Stops the loop and waits up to 20 s for `run` to return; the outgoing statistics.
    @discardableResult
    func stop() -> OutgoingStatistics {
        service.stop()
        _ = finished.wait(timeout: .now() + 20)
        return server.outgoing.statistics
    }

    /// Sends `requests` and waits for their outcomes, by tag (0, 1, …).
    func outcomes(of requests: [OutgoingRequest], to endpoint: Endpoint, timeout: Duration = .seconds(20)) -> [Int: OutgoingOutcome] {
        service.enqueue(requests.enumerated().map { OutgoingService.Send(request: $1, endpoint: endpoint, timeout: timeout, tag: $0) })
        return service.waitForOutcomes(requests.count)
    }
}

/// A loopback server written with raw sockets for what a real one would not do: accept,
/// read until the request seems whole, write `answer`, then close (or, with `answer` nil,
/// accept and never answer). One connection, on a thread, bounded by receive timeouts.
final class ScriptedPeer: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - greeting: written as soon as the connection is accepted (an HTTP/2 server's SETTINGS).
    ///   - requestEnd: the octets that end what the client sends first.
    ///   - answer: written once they came; nil: nothing is written, the connection stays open until `close`.
    init(greeting: [UInt8] = [], requestEnd: [UInt8], answer: [UInt8]?) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else { throw RawClient.Failure(description: "cannot listen") }
        port = Self.port(of: descriptor)
        self.descriptor = descriptor
        let listener = descriptor
        let thread = Thread { [done, release] in
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let client = accept(listener, nil, nil)
            if client >= 0 {
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                _ = greeting.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4_096)
                while !received.contains(requestEnd) {
                    let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    received += buffer[0..<count]
                }
                if let answer {
                    _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    Glibc.close(client)
                } else {
                    _ = release.wait(timeout: .now() + 30) // silent until the test is over
                    Glibc.close(client)
                }
            }
            done.signal()
        }
        thread.start()
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let port = Self.port(of: descriptor)
        Glibc.close(descriptor)
        return port
    }

    private static func port(of descriptor: Int32) -> Int {
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: bound.sin_port))
    }

    /// Ends a silent connection and the listener.
    func close() {
        release.signal()
        _ = done.wait(timeout: .now() + 10)
        Glibc.close(descriptor)
    }
}

extension [UInt8] {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension OutgoingOutcome {
    var response: HTTPResponse? {
        if case .response(let response) = self { return response }
        return nil
    }

    var failure: OutgoingFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
