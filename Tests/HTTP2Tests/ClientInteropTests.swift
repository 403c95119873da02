import Foundation
@testable import HTTP2
import Testing
import TestThreads

/// The client state machine against a real HTTP/2 server: Python's h2 runs
/// Tests/Fixtures/http2/h2_server.py, its octets are fed to a `ClientConnection` in this
/// process, and h2 checks every frame the client sends. Skipped with a message when h2 is
/// not importable, except in CI (CI=true), where its absence fails.
@Suite("HTTP/2 client interoperability with Python's h2", .ownThread)
struct ClientInteropTests {
    @Test("Python's h2 server answers every request: 5 streams at most, bodies cut to a 1 000-octet window, a 200 000-octet answer, trailers, REFUSED_STREAM",
          .enabled(if: LockstepPython.h2Present || LockstepPython.required, "python3 -m pip install h2 hyperframe hpack (with CI=true its absence fails the test)"),
          .timeLimit(.minutes(1)))
    func pythonH2Server() throws {
        try #require(LockstepPython.h2Present, "CI=true, but python3 cannot import h2 (pip install h2 hyperframe hpack)")
        let python = try LockstepPython(script: "h2_server.py")
        defer { python.finish() }

        var client = ClientConnection()
        let echoBody = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var requests: [RequestID: String] = [:]
        func send(_ method: String, _ path: String, body: [UInt8] = []) throws {
            let request = ClientRequest(method: method, path: path, authority: "api.push.example",
                                        fields: [HeaderField("apns-topic", "com.example"), HeaderField("content-length", String(body.count))],
                                        body: body)
            requests[try client.send(request)] = path
        }
        for index in 0..<10 { try send("POST", "/3/device/\(index)") }
        try send("POST", "/echo", body: echoBody)
        try send("GET", "/big")
        try send("GET", "/trailers")
        try send("GET", "/refuse")
        var events: [ClientEvent] = []
        var mostOpen = 0
        var now = Duration.zero
        for _ in 0..<2_000 where client.requestsInFlight > 0 {
            try python.write("B", client.takeOutbound())
            guard let message = try python.read(), message.kind == UInt8(ascii: "B") else { break }
            now += .milliseconds(1)
            events += client.receive(message.payload, now: now)
            mostOpen = max(mostOpen, client.openStreamCount)
        }
        try python.write("E", [])
        let verdict = try python.read().map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(verdict == "ok 14 requests", "\(verdict ?? "no verdict")")
        #expect(mostOpen <= 5)
        let responses = ClientEvent.responses(in: events)
        let failures = ClientEvent.failures(in: events)
        for (id, path) in requests {
            switch path {
            case "/echo": #expect(responses[id]?.body == echoBody)
            case "/big": #expect(responses[id]?.body.count == 200_000)
            case "/trailers": #expect(responses[id]?.trailers == [HeaderField("x-checksum", "42")] && responses[id]?.body == [UInt8(ascii: "t")])
            case "/refuse": #expect(failures[id] == .notProcessed(.refusedStream))
            default: #expect(responses[id]?.status == 200 && responses[id]?.value("apns-id") != nil, "\(path)")
            }
        }
        #expect(failures.count == 1)
    }
}
