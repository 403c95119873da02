import Foundation
@testable import HTTP2
import Testing

/// The server state machine against a real HTTP/2 client: Python's h2 (with hpack and
/// hyperframe) runs Tests/Fixtures/http2/h2_client.py, its octets are fed to a
/// `ServerConnection` in this process, and h2 checks every answer. Skipped with a message
/// when h2 is not importable, except in CI (CI=true), where its absence fails.
@Suite("HTTP/2 interoperability with Python's h2")
struct InteropTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/http2/h2_client.py").path
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether `python3 -c 'import h2, hpack, hyperframe'` works.
    static let h2Present: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import h2, hpack, hyperframe"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

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
          .enabled(if: h2Present || required, "python3 -m pip install h2 hyperframe hpack (with CI=true its absence fails the test)"),
          .timeLimit(.minutes(1)))
    func pythonH2Client() throws {
        try #require(Self.h2Present, "CI=true, but python3 cannot import h2 (pip install h2 hyperframe hpack)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script]
        let toPython = Pipe(), fromPython = Pipe()
        process.standardInput = toPython
        process.standardOutput = fromPython
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded in time whatever happens: the script's own alarm, and this.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 40, execute: watchdog)
        defer {
            watchdog.cancel()
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let input = fromPython.fileHandleForReading, output = toPython.fileHandleForWriting

        func readExactly(_ count: Int) throws -> [UInt8]? {
            var bytes: [UInt8] = []
            while bytes.count < count {
                guard let data = try input.read(upToCount: count - bytes.count), !data.isEmpty else { return nil }
                bytes += data
            }
            return bytes
        }

        var connection = ServerConnection()
        var log = ServerLog()
        var pending: [StreamID: (head: RequestHead, body: [UInt8])] = [:]
        var verdict: String?
        var now = Duration.zero
        var exchanges = 0
        while verdict == nil, let header = try readExactly(5) {
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard let payload = try readExactly(length) else { break }
            if header[4] == UInt8(ascii: "R") {
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
            let frame = [UInt8(answer.count >> 24 & 0xff), UInt8(answer.count >> 16 & 0xff), UInt8(answer.count >> 8 & 0xff),
                         UInt8(answer.count & 0xff), UInt8(ascii: "B")] + answer
            try output.write(contentsOf: Data(frame))
        }
        try? output.close()

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
