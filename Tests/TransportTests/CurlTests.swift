import Foundation
import Testing
import TestThreads
import Transport

/// Debian's curl against a real server on loopback: HTTP/2 with prior knowledge as a
/// provider's client speaks to APNs, and plain HTTP/1.1 as a person types `curl URL`.
@Suite("curl against the server", .ownThread, .timeLimit(.minutes(1)))
struct CurlTests {
    static let present = ExternalTool.isInstalled("curl")
    static let missing: Comment = "apt-get install -y curl (with CI=true its absence fails the test)"

    /// curl's output and `-w`'s `http_version status` line.
    func curl(_ arguments: [String]) throws -> (body: String, version: String, status: Int) {
        let outcome = try ExternalTool.run("curl", ["-sS", "--max-time", "20", "-w", "\n%{http_version} %{http_code}"] + arguments)
        #expect(outcome.status == 0, "curl \(arguments): \(outcome.errors)")
        var lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines.removeLast().split(separator: " ")
        return (lines.joined(separator: "\n"), String(last.first ?? ""), Int(last.last ?? "") ?? 0)
    }

    @Test("curl --http2-prior-knowledge gets the service's answers over HTTP/2: a GET, and a POST whose body comes back",
          .enabled(if: present || ExternalTool.required, missing))
    func http2PriorKnowledge() throws {
        try #require(Self.present, "CI=true, but curl is missing")
        let running = try RunningServer()
        defer { running.stop() }
        let get = try curl(["--http2-prior-knowledge", "http://127.0.0.1:\(running.port)/3/device/abc"])
        #expect(get.version == "2" && get.status == 200)
        #expect(get.body == "GET /3/device/abc h2 body=0 listener=0\n")
        let post = try curl(["--http2-prior-knowledge", "--data-binary", "{\"aps\":{}}", "http://127.0.0.1:\(running.port)/echo"])
        #expect(post.version == "2" && post.status == 200 && post.body == "{\"aps\":{}}")
        let request = try #require(running.service.snapshot.requests.first)
        #expect(request.version == .http2 && request.authority == "127.0.0.1:\(running.port)")
        #expect(request.value("user-agent")?.hasPrefix("curl/") == true)
    }

    @Test("curl --http1.1 on the HTTP/2 listener gets an HTTP/1.1 505 saying to speak HTTP/2, not frames it reads as HTTP/0.9",
          .enabled(if: present || ExternalTool.required, missing))
    func http1OnTheHTTP2Listener() throws {
        try #require(Self.present, "CI=true, but curl is missing")
        let running = try RunningServer()
        defer { running.stop() }
        for flags in [["--http1.1"], ["--http1.1", "--data-binary", "{\"aps\":{}}"], []] {
            let answer = try curl(flags + ["http://127.0.0.1:\(running.port)/3/device/abc"])
            #expect(answer.version == "1.1" && answer.status == 505, "curl \(flags)")
            #expect(answer.body.contains("HTTP/2 only") && answer.body.contains("--http2-prior-knowledge"))
        }
        #expect(running.service.requestCount == 0)
    }

    @Test("on the listener that speaks both, plain curl gets HTTP/1.1 and curl --http2-prior-knowledge HTTP/2",
          .enabled(if: present || ExternalTool.required, missing))
    func bothOnOneListener() throws {
        try #require(Self.present, "CI=true, but curl is missing")
        let running = try RunningServer(listeners: [("127.0.0.1", .http2PriorKnowledge), ("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let url = "http://127.0.0.1:\(running.ports[1])/status"
        let plain = try curl([url])
        #expect(plain.version == "1.1" && plain.status == 200 && plain.body == "GET /status http/1.1 body=0 listener=1\n")
        let http2 = try curl(["--http2-prior-knowledge", url])
        #expect(http2.version == "2" && http2.status == 200 && http2.body == "GET /status h2 body=0 listener=1\n")
        let posted = try curl(["--data-binary", "@-", url.replacingOccurrences(of: "/status", with: "/echo")])
        #expect(posted.status == 200)
        let versions = running.service.snapshot.requests.map(\.version)
        #expect(versions == [.http1_1, .http2, .http1_1])
    }

    @Test("curl keeps one HTTP/1.1 connection for several requests (keep-alive), and HEAD gets the length without the body",
          .enabled(if: present || ExternalTool.required, missing))
    func keepAliveAndHead() throws {
        try #require(Self.present, "CI=true, but curl is missing")
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let base = "http://127.0.0.1:\(running.port)"
        _ = try curl(["\(base)/a", "\(base)/b", "\(base)/c"])
        let requests = running.service.snapshot.requests
        #expect(requests.map(\.path) == ["/a", "/b", "/c"])
        #expect(Set(requests.map(\.connection)).count == 1, "three requests over \(Set(requests.map(\.connection)).count) connections")

        let head = try ExternalTool.run("curl", ["-sS", "--max-time", "20", "-I", "\(base)/h"])
        #expect(head.status == 0)
        #expect(head.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.output.lowercased().contains("content-length: \("HEAD /h http/1.1 body=0 listener=0\n".utf8.count)\r\n"))
        #expect(head.output.hasSuffix("\r\n\r\n"))
    }

    @Test("a 2 MiB body gets 413 from the transport over HTTP/1.1 and HTTP/2; the service never sees it",
          .enabled(if: present || ExternalTool.required, missing))
    func bodyTooLarge() throws {
        try #require(Self.present, "CI=true, but curl is missing")
        let running = try RunningServer(listeners: [("127.0.0.1", .http1OrHTTP2)])
        defer { running.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("transport-2mib-\(UUID().uuidString)")
        try Data(repeating: 0x61, count: 2 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = "http://127.0.0.1:\(running.port)/echo"
        for extra in [[], ["--http2-prior-knowledge"], ["-H", "Transfer-Encoding: chunked"]] {
            let outcome = try ExternalTool.run("curl", ["-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}",
                                                        "--data-binary", "@\(file.path)"] + extra + [url])
            #expect(outcome.output == "413", "\(extra): \(outcome.output) \(outcome.errors)")
        }
        #expect(running.service.requestCount == 0)
        // A body at the limit is served.
        try Data(repeating: 0x61, count: 1 << 20).write(to: file)
        let atLimit = try curl(["--http2-prior-knowledge", "-o", "/dev/null", "--data-binary", "@\(file.path)", url])
        #expect(atLimit.status == 200)
    }
}
