import Foundation
import Glibc
import Testing
import TestThreads
import Transport

/// Listening on IPv6 loopback, when the host has it: skipped cleanly otherwise.
@Suite("IPv6 loopback", .ownThread, .timeLimit(.minutes(1)))
struct IPv6Tests {
    /// Whether a socket can be bound to ::1 here (containers often have no IPv6).
    static let available: Bool = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    @Test("::1 serves HTTP/2 and HTTP/1.1 (raw clients; curl too when present, and always with CI=true), and [::1] is the same address",
          .enabled(if: available, "this host has no IPv6 loopback"))
    func loopback() throws {
        let running = try RunningServer(listeners: [("::1", .http2PriorKnowledge), ("[::1]", .http1OrHTTP2)])
        defer { running.stop() }
        let http1 = try RawClient(host: "::1", port: running.ports[1])
        defer { http1.close() }
        try http1.send("GET /v6 HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: http1.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        let http2 = try RawClient(host: "::1", port: running.ports[0])
        defer { http2.close() }
        var wire = H2Wire()
        try http2.send(H2Wire.start + wire.headers(stream: 1, path: "/v6", endStream: true))
        _ = http2.read { H2Wire.frames($0)?.contains { $0.payload.isEndOfStream } == true }
        if ExternalTool.isInstalled("curl") || ExternalTool.required {
            let outcome = try ExternalTool.run("curl", ["-sS", "-g", "--max-time", "20", "--http2-prior-knowledge",
                                                        "http://[::1]:\(running.ports[0])/v6"])
            #expect(outcome.output == "GET /v6 h2 body=0 listener=0\n", "\(outcome.errors)")
        }
        #expect(running.service.snapshot.requests.filter { $0.path == "/v6" }.count >= 2)
    }

    @Test("an IPv6 port in use is named in brackets", .enabled(if: available, "this host has no IPv6 loopback"))
    func addressInUse() throws {
        let holder = Server()
        let port = try holder.bind(host: "::1", port: 0, protocol: .http1OrHTTP2).port
        #expect(throws: TransportError.cannotListen(address: "[::1]:\(port)", reason: "Address already in use")) {
            _ = try Server().bind(host: "::1", port: port, protocol: .http1OrHTTP2)
        }
    }
}
