import Foundation
import Testing
import Transport

/// A `Server` running its loop on a thread of its own, on loopback, with a `TestService`.
/// `stop()` asks the service to stop and waits, bounded, for `run` to return.
final class RunningServer: @unchecked Sendable {
    let server: Server
    let service: TestService
    /// The ports bound, in the order of `listeners`.
    let ports: [Int]
    private let finished = DispatchSemaphore(value: 0)
    private(set) var returned = false

    /// Binds one listener per entry (host and protocol) on a free port, each keeping the
    /// connections `maxConnections` says (by position; nil or absent: the configuration's),
    /// and starts the loop.
    init(configuration: TransportConfiguration = TransportConfiguration(),
         listeners: [(host: String, speaks: ListenerProtocol)] = [("127.0.0.1", .http2PriorKnowledge)],
         maxConnections: [Int?] = [], service: TestService = TestService()) throws {
        server = Server(configuration: configuration)
        self.service = service
        var ports: [Int] = []
        for (index, listener) in listeners.enumerated() {
            let limit = index < maxConnections.count ? maxConnections[index] : nil
            ports.append(try server.bind(host: listener.host, port: 0, protocol: listener.speaks, maxConnections: limit).port)
        }
        self.ports = ports
        let thread = Thread { [self] in
            server.run(service: service)
            finished.signal()
        }
        thread.name = "transport-test-loop"
        thread.start()
    }

    var port: Int { ports[0] }

    /// Stops the server and waits up to 20 s for `run` to return; its statistics.
    @discardableResult
    func stop() -> TransportStatistics {
        guard !returned else { return server.statistics }
        service.stop()
        returned = finished.wait(timeout: .now() + 20) == .success
        #expect(returned, "run did not return within 20 s of shouldStop")
        return server.statistics
    }

    /// Waits up to 20 s for `run` to return after something else stopped it.
    func waitUntilReturned() -> Bool {
        guard !returned else { return true }
        returned = finished.wait(timeout: .now() + 20) == .success
        return returned
    }
}
