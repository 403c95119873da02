import Foundation
import HTTP2
import Synchronization
import Testing
import TestThreads
import Transport

/// A service that answers `/later` later: when `/release` comes (on any connection), every
/// request waiting is answered 200 with its own path as the body.
private final class ReleasingService: Service, @unchecked Sendable {
    var answers: LaterAnswers?
    private var waiting: [(LaterAnswer, String)] = []
    private let stopFlag = Atomic<Bool>(false)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/later", "/later2":
            waiting.append((request.laterAnswer, request.path))
            return .later
        case "/release":
            for (answer, path) in waiting { answers?.answer(answer, with: HTTPResponse(status: 200, body: Array(path.utf8))) }
            waiting.removeAll()
            return HTTPResponse(status: 204)
        default:
            return HTTPResponse(status: 200, body: Array(request.path.utf8))
        }
    }

    func tick(elapsed: Duration) -> Duration? { nil }
    func connectionClosed(_ connection: Int) {}
    var shouldStop: Bool { stopFlag.load(ordering: .acquiring) }
    func stop() { stopFlag.store(true, ordering: .releasing) }
}

@Suite("Answers given later", .ownThread, .timeLimit(.minutes(1)))
struct LaterAnswerTests {
    private func start(_ speaks: ListenerProtocol) throws -> (Server, ReleasingService, Int, DispatchSemaphore) {
        let server = Server()
        let service = ReleasingService()
        service.answers = server.laterAnswers
        let port = try server.bind(host: "127.0.0.1", port: 0, protocol: speaks).port
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let loop = server
        let thread = Thread {
            loop.run(service: service)
            finished.signal()
        }
        thread.start()
        return (server, service, port, finished)
    }

    @Test("HTTP/2: a stream answered later waits while the connection's other streams are answered, then gets its answer")
    func http2() throws {
        let (_, service, port, finished) = try start(.http2PriorKnowledge)
        let client = try RawClient(port: port)
        var wire = H2Wire()
        try client.send(H2Wire.start + wire.headers(stream: 1, path: "/later", endStream: true)
                        + wire.headers(stream: 3, path: "/now", endStream: true))
        let first = client.read { H2Wire.frames($0)?.filter(\.payload.isEndOfStream).count == 1 }
        let ended = (H2Wire.frames(first) ?? []).filter(\.payload.isEndOfStream).map(\.stream.rawValue)
        #expect(ended == [3])

        let releaser = try RawClient(port: port)
        var other = H2Wire()
        try releaser.send(H2Wire.start + other.headers(stream: 1, path: "/release", endStream: true))
        let all = client.read { H2Wire.frames($0)?.filter(\.payload.isEndOfStream).count == 1 }
        #expect((H2Wire.frames(all) ?? []).filter(\.payload.isEndOfStream).map(\.stream.rawValue) == [1])
        #expect(String(decoding: all, as: UTF8.self).contains("/later"))
        client.close()
        releaser.close()
        service.stop()
        #expect(finished.wait(timeout: .now() + 20) == .success)
    }

    @Test("HTTP/1.1: a request answered later holds the pipelined one behind it, so answers keep their order")
    func http1() throws {
        let (_, service, port, finished) = try start(.http1OrHTTP2)
        let client = try RawClient(port: port)
        try client.send("GET /later HTTP/1.1\r\nHost: h\r\n\r\nGET /now HTTP/1.1\r\nHost: h\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        let releaser = try RawClient(port: port)
        try releaser.send("POST /release HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        _ = releaser.readUntilClosed()
        let text = String(decoding: client.read { String(decoding: $0, as: UTF8.self).contains("/now") }, as: UTF8.self)
        let later = text.range(of: "/later"), now = text.range(of: "/now")
        #expect(later != nil && now != nil)
        if let later, let now { #expect(later.lowerBound < now.lowerBound) }
        client.close()
        service.stop()
        #expect(finished.wait(timeout: .now() + 20) == .success)
    }
}
