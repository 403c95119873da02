import Foundation
@testable import HTTP2
import Testing
import TestThreads

/// The server state machine against a real HTTP/2 client: Python's h2 (with hpack and
/// hyperframe) runs Tests/Fixtures/http2/h2_client.py, its octets are fed to a
/// `ServerConnection` in this process, and h2 checks every answer. Skipped with a message
/// when h2 is not importable, except in CI (CI=true), where its absence fails.
@Suite("HTTP/2 interoperability with Python's h2", .ownThread)
struct InteropTests {
    /// What the server saw and answered.
    struct ServerLog {
        var requests: [StreamID: RequestHead] = [:]
        var bodies: [StreamID: [UInt8]] = [:]
        var trailers: [StreamID: [HeaderField]] = [:]
        var resets: [StreamID: ErrorCode] = [:]
        var pings = 0
        var goAway = false
        var errors: [ProtocolError] = []
    }

    /// An APNs-like answer: 400 BadDeviceToken for the token "bad", the body's length for
    /// /echo-length, 5 000 octets for /big, the trailers counted for /trailers, else 200
    /// with the request's apns-id.
    static func answer(_ id: StreamID, _ head: RequestHead, body: [UInt8], trailers: [HeaderField]?,
                       on connection: inout ServerConnection) {
        let apnsID = HeaderField("apns-id", head.value("apns-id") ?? "00000000-0000-0000-0000-00000000000\(id.rawValue % 10)",
                                 indexing: .withoutIndexing)
        do {
            switch head.path ?? "" {
            case "/3/device/bad":
                try connection.respond(to: id, status: 400, headers: [apnsID, HeaderField("content-type", "application/json")],
                                       body: Array(#"{"reason": "BadDeviceToken"}"#.utf8))
            case "/echo-length":
                try connection.respond(to: id, status: 200, body: Array(String(body.count).utf8))
            case "/big":
                try connection.respond(to: id, status: 200, body: [UInt8](repeating: UInt8(ascii: "x"), count: 5_000))
            case "/trailers":
                try connection.respond(to: id, status: 200, body: Array("trailers:\(trailers?.count ?? 0)".utf8))
            default:
                try connection.respond(to: id, status: 200, headers: [apnsID])
            }
        } catch {
            // The client may have reset the stream meanwhile: nothing to answer.
        }
    }

    @Test("Python's h2 client gets every APNs-like answer right: HPACK both ways, flow control both ways, trailers, reset, PING, GOAWAY",
          .enabled(if: LockstepPython.h2Present || LockstepPython.required, "python3 -m pip install h2 hyperframe hpack (with CI=true its absence fails the test)"),
          .timeLimit(.minutes(1)))
    func pythonH2Client() throws {
        try #require(LockstepPython.h2Present, "CI=true, but python3 cannot import h2 (pip install h2 hyperframe hpack)")
        let python = try LockstepPython(script: "h2_client.py")
        defer { python.finish() }

        var connection = ServerConnection()
        var log = ServerLog()
        var pending: [StreamID: (head: RequestHead, body: [UInt8])] = [:]
        var verdict: String?
        var now = Duration.zero
        var exchanges = 0
        while verdict == nil, let message = try python.read() {
            let (kind, payload) = message
            if kind == UInt8(ascii: "R") {
                verdict = String(decoding: payload, as: UTF8.self)
                break
            }
            exchanges += 1
            now += .milliseconds(1)
            for event in connection.receive(payload, now: now) {
                switch event {
                case .request(let id, let head, let endStream):
                    log.requests[id] = head
                    if endStream { Self.answer(id, head, body: [], trailers: nil, on: &connection) } else { pending[id] = (head, []) }
                case .data(let id, let bytes, let endStream):
                    pending[id]?.body += bytes
                    log.bodies[id, default: []] += bytes
                    if endStream, let request = pending.removeValue(forKey: id) {
                        Self.answer(id, request.head, body: request.body, trailers: nil, on: &connection)
                    }
                case .trailers(let id, let fields):
                    log.trailers[id] = fields
                    if let request = pending.removeValue(forKey: id) {
                        Self.answer(id, request.head, body: request.body, trailers: fields, on: &connection)
                    }
                case .streamReset(let id, let code):
                    log.resets[id] = code
                    pending[id] = nil
                case .streamError(let error), .connectionError(let error):
                    log.errors.append(error)
                case .ping:
                    log.pings += 1
                case .pingAcknowledged:
                    break
                case .goAway:
                    log.goAway = true
                }
            }
            var answer: [UInt8] = []
            while connection.hasOutbound { answer += connection.takeOutbound() }
            try python.write("B", answer)
        }

        let result = try #require(verdict, "the h2 client ended without a verdict after \(exchanges) exchanges")
        #expect(result == "ok 25 responses, ping acknowledged", "\(result)")
        #expect(log.errors.isEmpty, "the server found errors in h2's frames: \(log.errors)")
        #expect(log.requests.count == 26)
        #expect(log.requests[1]?.authority == "api.push.example" && log.requests[1]?.method == "POST")
        let authorization = log.requests[1]?.fields.first { $0.nameString == "authorization" }
        #expect(authorization?.indexing == .never, "h2 sends authorization never-indexed")
        #expect(log.bodies[7]?.count == 100_000, "a body larger than the initial windows arrived whole")
        #expect(log.resets.values.contains(.cancel), "the cancelled stream was reported")
        #expect(log.trailers.values.first == [HeaderField("x-checksum", "900150983cd24fb0")])
        #expect(log.pings == 1, "h2's PING reached us (the script checks its acknowledgement)")
        #expect(log.goAway, "h2's GOAWAY was reported")
        #expect(connection.openStreamCount == 0)
    }
}
