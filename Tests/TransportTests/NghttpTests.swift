import Foundation
import Testing
import TestThreads
import Transport

/// nghttp2's own client (Debian's nghttp2-client) with many streams open at once on one
/// connection: it sends every request's HEADERS and DATA before reading an answer.
@Suite("nghttp against the server", .ownThread, .timeLimit(.minutes(1)))
struct NghttpTests {
    static let present = ExternalTool.isInstalled("nghttp")

    @Test("nghttp with 30 concurrent streams, 20 of them uploading a body, gets every answer on one connection",
          .enabled(if: present || ExternalTool.required, "apt-get install -y nghttp2-client (with CI=true its absence fails the test)"))
    func concurrentStreams() throws {
        try #require(Self.present, "CI=true, but nghttp (nghttp2-client) is missing")
        let running = try RunningServer()
        defer { running.stop() }
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("transport-nghttp-\(UUID().uuidString)")
        try Data("{\"aps\":{\"alert\":\"nghttp\"}}".utf8).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let base = "http://127.0.0.1:\(running.port)"
        // -m 10: each URI ten times, all streams opened before the first answer is read.
        let upload = try ExternalTool.run("nghttp", ["-v", "-n", "-m", "10", "-d", body.path, "\(base)/echo", "\(base)/3/device/abc"])
        let fetch = try ExternalTool.run("nghttp", ["-v", "-n", "-m", "10", "\(base)/plain"])
        for outcome in [upload, fetch] {
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(!outcome.output.contains("RST_STREAM") && !outcome.output.contains("error_code=PROTOCOL_ERROR"))
        }
        #expect(upload.output.components(separatedBy: ":status: 200").count - 1 == 20)
        #expect(fetch.output.components(separatedBy: ":status: 200").count - 1 == 10)
        // The twenty uploads were all open before the first answer came back.
        let lines = upload.output.split(separator: "\n")
        let lastSent = try #require(lines.lastIndex { $0.contains("send DATA frame") })
        let firstAnswer = try #require(lines.firstIndex { $0.contains(":status: 200") })
        #expect(lastSent < firstAnswer)

        let requests = running.service.snapshot.requests
        #expect(requests.count == 30)
        #expect(requests.filter { $0.path == "/echo" }.allSatisfy { $0.body == Array("{\"aps\":{\"alert\":\"nghttp\"}}".utf8) })
        #expect(Set(requests.prefix(20).map(\.connection)).count == 1)
    }
}
