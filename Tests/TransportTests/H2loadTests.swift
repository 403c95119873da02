import Foundation
import Testing
import TestThreads
import Transport

/// h2load (nghttp2's benchmark client) as a correctness check, not a measure of speed:
/// every request of a burst over several connections with many streams each succeeds.
@Suite("h2load against the server", .ownThread, .timeLimit(.minutes(2)))
struct H2loadTests {
    static let present = ExternalTool.isInstalled("h2load")

    /// The figures of h2load's `requests: N total, N started, N done, N succeeded, …` line.
    static func requestFigures(_ output: String) -> [String: Int] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("requests:") }) else { return [:] }
        var figures: [String: Int] = [:]
        for part in line.dropFirst("requests:".count).split(separator: ",") {
            let words = part.split(separator: " ")
            if words.count == 2, let value = Int(words[0]) { figures[String(words[1])] = value }
        }
        return figures
    }

    @Test("h2load -n 2000 -c 4 -m 10 over h2c: all 2000 succeed, over 4 connections",
          .enabled(if: present || ExternalTool.required, "apt-get install -y nghttp2-client (with CI=true its absence fails the test)"))
    func http2Burst() throws {
        try #require(Self.present, "CI=true, but h2load (nghttp2-client) is missing")
        let running = try RunningServer()
        let outcome = try ExternalTool.run("h2load", ["-n", "2000", "-c", "4", "-m", "10", "http://127.0.0.1:\(running.port)/3/device/abc"],
                                           timeout: 90)
        let statistics = running.stop()
        #expect(outcome.status == 0, "\(outcome.errors)")
        let figures = Self.requestFigures(outcome.output)
        #expect(figures["total"] == 2000 && figures["succeeded"] == 2000 && figures["failed"] == 0 && figures["errored"] == 0,
                "\(outcome.output)")
        #expect(outcome.output.contains("Application protocol: h2c"))
        #expect(running.service.requestCount == 2000)
        #expect(statistics.connectionsAccepted == 4 && statistics.requests == 2000 && statistics.protocolErrors == 0)
    }

    @Test("h2load --h1 -n 2000 -c 4 -m 10: HTTP/1.1 with ten requests pipelined per connection, all 2000 succeed",
          .enabled(if: present || ExternalTool.required, "apt-get install -y nghttp2-client (with CI=true its absence fails the test)"))
    func pipelinedHTTP1Burst() throws {
        try #require(Self.present, "CI=true, but h2load (nghttp2-client) is missing")
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        let outcome = try ExternalTool.run("h2load", ["--h1", "-n", "2000", "-c", "4", "-m", "10", "http://127.0.0.1:\(running.port)/x"],
                                           timeout: 90)
        let statistics = running.stop()
        #expect(outcome.status == 0, "\(outcome.errors)")
        let figures = Self.requestFigures(outcome.output)
        #expect(figures["total"] == 2000 && figures["succeeded"] == 2000, "\(outcome.output)")
        #expect(outcome.output.contains("Application protocol: http/1.1"))
        #expect(statistics.connectionsAccepted == 4 && statistics.requests == 2000 && statistics.protocolErrors == 0)
    }
}
