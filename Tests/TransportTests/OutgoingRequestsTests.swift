import Foundation
import HTTP2
import Testing
import TestThreads
import Transport

/// Requests a service sends from inside the loop (`Server.outgoing`): to a Transport
/// server over HTTP/2 and HTTP/1.1, to nghttpd, and to peers that refuse, stall or close
/// mid-response. Each test runs a client loop and its peer on loopback, bounded in time.
@Suite("Outgoing requests", .ownThread, .timeLimit(.minutes(1)))
struct OutgoingRequestsTests {
    static func post(_ path: String, _ body: String) -> OutgoingRequest {
        OutgoingRequest(method: "POST", path: path, headers: [Header("content-type", "application/json")], body: Array(body.utf8))
    }

    @Test("HTTP/2 to a Transport server: bodies both ways, any status, fields, all on one connection")
    func http2ToTransportServer() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let loop = try ClientLoop()
        let endpoint = Endpoint(host: "127.0.0.1", port: running.port, protocol: .http2PriorKnowledge)
        let outcomes = loop.outcomes(of: [Self.post("/echo", #"{"token":"ab"}"#), OutgoingRequest(method: "GET", path: "/status/404"),
                                          OutgoingRequest(method: "GET", path: "/plain", authority: "provider.example")], to: endpoint)
        let statistics = loop.stop()
        #expect(outcomes[0]?.response?.body == Array(#"{"token":"ab"}"#.utf8))
        #expect(outcomes[0]?.response?.headers.contains(Header("content-type", "application/octet-stream")) == true)
        #expect(outcomes[1]?.response?.status == 404)
        #expect(outcomes[2]?.response.map { String(decoding: $0.body, as: UTF8.self) } == "GET /plain h2 body=0 listener=0\n")
        #expect(statistics.connectionsOpened == 1 && statistics.responses == 3)
        let requests = running.service.snapshot.requests
        #expect(Set(requests.map(\.connection)).count == 1)
        #expect(requests.first { $0.path == "/plain" }?.authority == "provider.example")
        #expect(requests.first { $0.path == "/echo" }?.value("content-length") == "14")
    }

    @Test("HTTP/1.1 to a Transport server: six requests at once over at most two keep-alive connections, one request at a time each")
    func http1ToTransportServer() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        var configuration = TransportConfiguration()
        configuration.outgoing.maxHTTP1ConnectionsPerEndpoint = 2
        let loop = try ClientLoop(configuration: configuration)
        let endpoint = Endpoint(host: "localhost", port: running.port, protocol: .http1)
        let requests = (0..<6).map { Self.post("/echo", "body \($0)") }
        let outcomes = loop.outcomes(of: requests, to: endpoint)
        let statistics = loop.stop()
        for tag in 0..<6 { #expect(outcomes[tag]?.response?.body == Array("body \(tag)".utf8)) }
        #expect(statistics.connectionsOpened == 2)
        let seen = running.service.snapshot.requests
        #expect(seen.allSatisfy { $0.version == .http1_1 && $0.authority == "localhost:\(running.port)" })
        #expect(Set(seen.map(\.connection)).count == 2)
    }

    @Test("1 000 requests over one HTTP/2 connection to a server allowing 10 streams: all answered, never more than 10 open, none refused")
    func thousandRequests() throws {
        var serverConfiguration = TransportConfiguration()
        serverConfiguration.http2.maxConcurrentStreams = 10
        let running = try RunningServer(configuration: serverConfiguration, service: TestService(keep: 0))
        defer { running.stop() }
        let loop = try ClientLoop()
        let endpoint = Endpoint(host: "127.0.0.1", port: running.port, protocol: .http2PriorKnowledge)
        let outcomes = loop.outcomes(of: (0..<1_000).map { Self.post("/3/device/\($0)", "{}") }, to: endpoint)
        let statistics = loop.stop()
        #expect(outcomes.count == 1_000)
        #expect(outcomes.values.allSatisfy { $0.response?.status == 200 })
        #expect(statistics.connectionsOpened == 1 && statistics.retries == 0 && statistics.failures == 0)
        #expect(statistics.peakStreams <= 10 && statistics.peakStreams > 1)
        let serverStatistics = running.stop()
        #expect(serverStatistics.connectionsAccepted == 1 && serverStatistics.requests == 1_000)
    }

    @Test("a peer that never answers: the request fails with timedOut, and the loop kept serving meanwhile and after",
          arguments: [OutgoingProtocol.http2PriorKnowledge, .http1])
    func timeout(_ speaks: OutgoingProtocol) throws {
        let silent = try ScriptedPeer(requestEnd: Array("\r\n\r\n".utf8), answer: nil)
        defer { silent.close() }
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let loop = try ClientLoop()
        loop.service.enqueue(OutgoingRequest(method: "GET", path: "/never"), to: Endpoint(host: "127.0.0.1", port: silent.port, protocol: speaks),
                             timeout: .milliseconds(300), tag: 1)
        // While the request waits, the loop answers its own clients.
        let client = try RawClient(port: loop.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: client.readUntilClosed().bytes, as: UTF8.self).hasSuffix("client loop"))
        #expect(loop.service.waitForOutcomes(1)[1] == .failure(.timedOut))
        // After it, the loop still sends and serves.
        loop.service.enqueue(OutgoingRequest(method: "GET", path: "/after"), to: Endpoint(host: "127.0.0.1", port: running.port, protocol: speaks), tag: 2)
        #expect(loop.service.waitForOutcomes(2)[2]?.response?.status == 200)
        let again = try RawClient(port: loop.port)
        try again.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: again.readUntilClosed().bytes, as: UTF8.self).hasSuffix("client loop"))
        loop.stop()
        #expect(loop.service.served == 2)
    }

    @Test("nothing listening: connectionRefused, and the next request to the endpoint tries a new connection (one per request)",
          arguments: [OutgoingProtocol.http2PriorKnowledge, .http1])
    func connectionRefused(_ speaks: OutgoingProtocol) throws {
        let endpoint = Endpoint(host: "127.0.0.1", port: ScriptedPeer.closedPort(), protocol: speaks)
        let loop = try ClientLoop()
        let first = loop.outcomes(of: [OutgoingRequest(method: "GET", path: "/")], to: endpoint)
        loop.service.enqueue(OutgoingRequest(method: "GET", path: "/"), to: endpoint, tag: 1)
        let both = loop.service.waitForOutcomes(2)
        let statistics = loop.stop()
        #expect(first[0] == .failure(.connectionRefused))
        #expect(both[1] == .failure(.connectionRefused))
        #expect(statistics.connectionsOpened == 2)
    }

    @Test("a host that cannot be resolved fails at once with cannotConnect")
    func unresolvable() throws {
        let loop = try ClientLoop()
        let outcomes = loop.outcomes(of: [OutgoingRequest(method: "GET", path: "/")],
                                     to: Endpoint(host: "no-such-host.invalid", port: 80, protocol: .http1))
        loop.stop()
        guard case .failure(.cannotConnect)? = outcomes[0] else {
            Issue.record("\(String(describing: outcomes[0]))")
            return
        }
    }

    @Test("HTTP/1.1: a server that closes mid-response (a body shorter than its Content-Length) fails the request with connectionLost")
    func http1ClosedMidResponse() throws {
        let peer = try ScriptedPeer(requestEnd: Array("\r\n\r\n".utf8), answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial".utf8))
        defer { peer.close() }
        let loop = try ClientLoop()
        let outcomes = loop.outcomes(of: [OutgoingRequest(method: "POST", path: "/register", body: Array("{}".utf8))],
                                     to: Endpoint(host: "127.0.0.1", port: peer.port, protocol: .http1))
        loop.stop()
        #expect(outcomes[0] == .failure(.connectionLost))
    }

    @Test("HTTP/2: a server that closes after the response's HEADERS and some DATA fails the request with connectionLost")
    func http2ClosedMidResponse() throws {
        var encoder = HPACKEncoder()
        let settings = Frame(stream: .connection, payload: .settings(ack: false, parameters: [])).encoded
        var answer = Frame(stream: 1, payload: .headers(fragment: encoder.encode([HeaderField(":status", "200")]), endStream: false,
                                                        endHeaders: true, priority: nil, padding: nil)).encoded
        answer += Frame(stream: 1, payload: .data(bytes: Array("part".utf8), endStream: false, padding: nil)).encoded
        // The client acknowledges our SETTINGS as it opens its stream: then the stream is open.
        let acknowledgement = Frame(stream: .connection, payload: .settings(ack: true, parameters: [])).encoded
        let peer = try ScriptedPeer(greeting: settings, requestEnd: acknowledgement, answer: answer)
        defer { peer.close() }
        let loop = try ClientLoop()
        let outcomes = loop.outcomes(of: [OutgoingRequest(method: "GET", path: "/slow")],
                                     to: Endpoint(host: "127.0.0.1", port: peer.port, protocol: .http2PriorKnowledge))
        loop.stop()
        #expect(outcomes[0] == .failure(.connectionLost))
    }

    @Test("a request the protocol cannot carry fails with invalidRequest and nothing is sent: CR LF in a value, a connection-specific field over HTTP/2")
    func invalidRequests() throws {
        let running = try RunningServer(listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let loop = try ClientLoop()
        let split = OutgoingRequest(method: "GET", path: "/", headers: [Header("x-split", "a\r\nx-injected: 1")])
        let h1 = loop.outcomes(of: [split], to: Endpoint(host: "127.0.0.1", port: running.ports[1], protocol: .http1))
        let h2 = loop.outcomes(of: [OutgoingRequest(method: "GET", path: "/", headers: [Header("connection", "close")])],
                               to: Endpoint(host: "127.0.0.1", port: running.ports[0], protocol: .http2PriorKnowledge))
        loop.stop()
        for outcome in [h1[0], h2[0]] {
            guard case .failure(.invalidRequest)? = outcome else {
                Issue.record("\(String(describing: outcome))")
                continue
            }
        }
        #expect(running.service.requestCount == 0)
    }

    @Test("the server's graceful GOAWAY: requests it did not take go again on a new connection and are answered")
    func goAwayRetried() throws {
        let running = try RunningServer()
        defer { running.stop() }
        var configuration = TransportConfiguration()
        configuration.outgoing.maxRetries = 1
        let loop = try ClientLoop(configuration: configuration)
        let endpoint = Endpoint(host: "127.0.0.1", port: running.port, protocol: .http2PriorKnowledge)
        // The first request stops the server (graceful GOAWAY); the rest race it.
        var requests = [OutgoingRequest(method: "GET", path: "/stop")]
        requests += (0..<20).map { _ in OutgoingRequest(method: "GET", path: "/x") }
        let outcomes = loop.outcomes(of: requests, to: endpoint)
        loop.stop()
        #expect(outcomes.count == 21)
        #expect(outcomes[0]?.response?.status == 200)
        // Each request ends answered or, the server being gone for the retry, refused: never lost silently.
        for (tag, outcome) in outcomes where tag > 0 {
            switch outcome {
            case .response(let response): #expect(response.status == 200)
            case .failure(let failure): #expect([.connectionRefused, .connectionLost].contains(failure) || failure == .reset(.noError), "\(failure)")
            }
        }
    }
}
