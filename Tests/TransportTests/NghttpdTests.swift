import ChildProcesses
import Foundation
import Glibc
import Testing
import TestThreads
import Transport

/// Outgoing HTTP/2 requests to nghttp2's own server (Debian's nghttp2-server: `nghttpd
/// --no-tls`, h2c with prior knowledge), serving files from a temporary folder.
@Suite("Outgoing requests to nghttpd", .ownThread, .timeLimit(.minutes(1)))
struct NghttpdTests {
    static let present = ExternalTool.isInstalled("nghttpd")

    @Test("200 requests to nghttpd on one connection: every file answered whole, a missing one 404",
          .enabled(if: present || ExternalTool.required, "apt-get install -y nghttp2-server (with CI=true its absence fails the test)"))
    func nghttpd() throws {
        try #require(Self.present, "CI=true, but nghttpd (nghttp2-server) is missing")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("transport-nghttpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let content = String(repeating: "{\"position\":42}\n", count: 10_000) // 160 000 octets: beyond the first windows
        try Data(content.utf8).write(to: root.appendingPathComponent("positions.json"))
        let port = ScriptedPeer.closedPort()
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nghttpd", "--no-tls", "-d", root.path, "--address=127.0.0.1", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Ready once it accepts: at most 10 s of tries.
        var ready = false
        for _ in 0..<200 where !ready {
            if (try? RawClient(port: port)) != nil { ready = true } else { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(ready, "nghttpd did not listen on \(port)")

        let loop = try ClientLoop()
        let endpoint = Endpoint(host: "127.0.0.1", port: port, protocol: .http2PriorKnowledge)
        var requests = (0..<199).map { _ in OutgoingRequest(method: "GET", path: "/positions.json") }
        requests.append(OutgoingRequest(method: "GET", path: "/missing"))
        let outcomes = loop.outcomes(of: requests, to: endpoint)
        let statistics = loop.stop()
        #expect(outcomes.count == 200)
        #expect((0..<199).allSatisfy { outcomes[$0]?.response.map { $0.status == 200 && $0.body.count == content.utf8.count } == true })
        #expect(outcomes[0]?.response?.body == Array(content.utf8))
        #expect(outcomes[199]?.response?.status == 404)
        #expect(statistics.connectionsOpened == 1 && statistics.failures == 0)
    }
}
