@testable import CLI
import ChildProcesses
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import TestThreads

/// `pushsim serve` (the built binary) against the clients providers really use, on loopback:
/// nghttp, Python's httpx, aioapns through haproxy's TLS (docs/serve.md's recipe, with
/// certificates and a token key made by openssl), raw HTTP/2 frames, and h2load. The scripts
/// are in Tests/Fixtures/serve. A missing tool skips a test locally and fails it with CI=true
/// (.ci/run installs them; `ExternalTool`). Every test bounds its processes in time and stops them.
@Suite("serve: real clients (nghttp, httpx, aioapns through haproxy TLS, raw frames, h2load)", .ownThread, .serialized)
struct ServeClientTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/serve").path
    static let topic = "com.example.mail"
    /// The scenario's start, 2026-01-05 00:00 UTC, in epoch milliseconds.
    static let startMilliseconds = 1_767_571_200_000

    /// A population whose tokens rotate (twice in four days on average), so a rotated token is soon there.
    static let scenario = """
    {
      "name": "serve-clients", "seed": 5, "start": "2026-01-05", "duration": "30d", "devices": 8,
      "mail": { "perDay": 24 },
      "connectivity": { "online": { "distribution": "exponential", "mean": "3h" },
                        "offline": { "distribution": "exponential", "mean": "2h" } },
      "device": { "tokenRotation": { "perDay": 0.5, "withPrompt": 0 } },
      "strategies": [ { "name": "no-queue" } ]
    }
    """

    /// The built binary, after failing the test on each of `tools` that is missing: reached with
    /// a tool missing only under CI=true, since the test's `.needs(…)` skips it otherwise.
    static func require(_ tools: [ExternalTool]) throws -> String {
        let binary = try ProcessSignalsTests.builtBinary()
        let missing = tools.filter { !$0.present }
        try #require(missing.isEmpty, "CI=true, but this test needs \(missing.map { "\($0.name) (\($0.install))" }.joined(separator: ", "))")
        return binary
    }

    // MARK: - Processes

    /// How a bounded run ended.
    struct Finished {
        let status: Int32
        let out: String
        let err: String
        let timedOut: Bool
    }

    /// Runs `arguments` (through /usr/bin/env), killing it after `seconds`; stdout and stderr go
    /// through files, so neither can fill a pipe.
    static func run(_ arguments: [String], seconds: Double, environment: [String: String] = [:],
                    directory: String? = nil) throws -> Finished {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-tool-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = try #require(FileHandle(forWritingAtPath: base + ".out"))
        let err = try #require(FileHandle(forWritingAtPath: base + ".err"))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? out.close()
        try? err.close()
        let timedOut = !waitForExit(process, seconds: seconds)
        return Finished(status: process.terminationStatus,
                        out: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
                        err: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? "", timedOut: timedOut)
    }

    /// Waits at most `seconds` for `process` to end; past that sends SIGTERM, then SIGKILL after 5 s.
    /// True when it ended by itself.
    @discardableResult
    static func waitForExit(_ process: ChildProcess, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard process.isRunning else { return true }
        process.terminate()
        let killDeadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < killDeadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return false
    }

    /// A server process of the test (haproxy), its output in files of `directory`.
    static func startBackground(_ arguments: [String], directory: String, name: String) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        _ = FileManager.default.createFile(atPath: directory + "/\(name).log", contents: nil)
        let log = try #require(FileHandle(forWritingAtPath: directory + "/\(name).log"))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? log.close()
        return process
    }

    /// A loopback port nothing listens on now (the kernel's pick; free again once this returns).
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RunningServe.Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw RunningServe.Failure(description: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the loopback `port` within `seconds`.
    static func waitForListener(_ port: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(socket)
            if connected { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    // MARK: - serve

    /// serve's control API through curl (bounded by `--max-time`): the JSON object it answers.
    static func control(_ serve: RunningServe, _ path: String, post body: String? = nil) throws -> [String: Any] {
        var arguments = ["-s", "--max-time", "20", "http://127.0.0.1:\(serve.controlPort)\(path)"]
        if let body { arguments += ["-X", "POST", "-d", body] }
        let text = runTool("curl", arguments)?.out ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(path): \(text)")
    }

    /// The device apps `GET /devices` lists.
    static func devices(_ serve: RunningServe) throws -> [[String: Any]] {
        try #require(try control(serve, "/devices")["devices"] as? [[String: Any]])
    }

    /// Ends serve with `POST /stop`: it answers, writes its reports and exits 0.
    static func stop(_ serve: RunningServe) throws {
        #expect(try control(serve, "/stop", post: "")["stopping"] as? Bool == true)
        #expect(serve.waitForExit() == 0)
    }

    /// Kills serve if a test left it running (a failed expectation, a thrown error).
    static func forceStop(_ serve: RunningServe) {
        if serve.process.isRunning { kill(serve.process.processIdentifier, SIGKILL) }
        serve.process.waitUntilExit()
    }

    /// A fixture script's one line of JSON.
    static func json(_ finished: Finished, _ what: String) throws -> [String: Any] {
        #expect(!finished.timedOut, "\(what) ran out of time")
        #expect(finished.status == 0, "\(what) exited \(finished.status): \(finished.err)")
        let line = finished.out.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            "\(what) printed no JSON: \(finished.out) \(finished.err)")
    }

    /// A canonical lowercase UUID, as APNs's apns-id.
    static func isAPNsID(_ value: String?) -> Bool {
        guard let value, value == value.lowercased(), let uuid = UUID(uuidString: value) else { return false }
        return uuid.uuidString.lowercased() == value
    }

    /// Serve on the clients' scenario in `scratch`, with a controlled clock, the topic, and `extra` options.
    static func startControlled(_ binary: String, in scratch: CommandFixtures.ScratchDirectory,
                                _ extra: [String] = []) throws -> RunningServe {
        let scenario = try scratch.write("clients.json", Self.scenario)
        return try RunningServe.start(binary, [scenario, "--clock", "controlled", "--topic", Self.topic]
                                      + extra + ["--out", scratch.file("out")])
    }

    // MARK: - nghttp

    @Test("nghttp (PRIORITY frames on idle streams, its first request on stream 13) pushes to 5 listed tokens twice each at once over h2c: ten 200s, each with its own apns-id",
          .needs(.curl, .nghttp), .timeLimit(.minutes(2)))
    func nghttpConcurrentPushes() throws {
        let binary = try Self.require([.curl, .nghttp])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let payload = try scratch.write("payload.json", #"{"aps":{"alert":{"title":"nghttp","body":"hello"}}}"#)
        let serve = try Self.startControlled(binary, in: scratch)
        defer { Self.forceStop(serve) }
        let tokens = try Self.devices(serve).prefix(5).map { try #require($0["token"] as? String) }
        #expect(tokens.count == 5)
        let urls = tokens.map { "http://127.0.0.1:\(serve.apnsPort)/3/device/\($0)" }
        let nghttp = try Self.run(["nghttp", "-v", "-n", "-m", "2", "-d", payload, "-H", "apns-topic: \(Self.topic)",
                                   "-H", "apns-push-type: alert", "-H", "apns-priority: 10"] + urls, seconds: 60)
        #expect(!nghttp.timedOut && nghttp.status == 0, "nghttp: \(nghttp.err)")
        // "[  0.001] recv (stream_id=13) :status: 200", "... apns-id: <uuid>"
        var statuses: [String: String] = [:], ids: [String: String] = [:]
        for line in nghttp.out.split(separator: "\n") {
            guard let open = line.range(of: "recv (stream_id="), let close = line[open.upperBound...].range(of: ") ") else { continue }
            let stream = String(line[open.upperBound..<close.lowerBound])
            let field = line[close.upperBound...]
            if field.hasPrefix(":status: ") { statuses[stream] = String(field.dropFirst(9)) }
            if field.hasPrefix("apns-id: ") { ids[stream] = String(field.dropFirst(9)) }
        }
        #expect(statuses.count == 10, "\(nghttp.out.suffix(2000))")
        #expect(Set(statuses.values) == ["200"])
        #expect(ids.count == 10 && Set(ids.values).count == 10)
        #expect(ids.values.allSatisfy(Self.isAPNsID), "\(ids)")
        let counters = try Self.control(serve, "/counters")
        #expect((counters["answers"] as? [String: Any])?["200"] as? Int == 10, "\(counters)")
        try Self.stop(serve)
    }

    // MARK: - httpx

    @Test("Python's httpx over h2c (http2=True, http1=False): 200 with the request's apns-id, 400 BadDeviceToken for an unknown token, 410 Unregistered with a timestamp for a rotated one",
          .needs(.curl, .httpx), .timeLimit(.minutes(2)))
    func httpxAnswers() throws {
        let binary = try Self.require([.curl, .httpx])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let serve = try Self.startControlled(binary, in: scratch)
        defer { Self.forceStop(serve) }
        let result = try Self.json(try Self.run(["python3", Self.fixtures + "/httpx_client.py", String(serve.apnsPort),
                                                 String(serve.controlPort), Self.topic], seconds: 90), "httpx_client.py")
        let current = try #require(result["current"] as? [String: Any])
        #expect(current["httpVersion"] as? String == "HTTP/2")
        #expect(current["status"] as? Int == 200)
        #expect(current["apnsId"] as? String == (current["sentId"] as? String)?.lowercased())
        let unknown = try #require(result["unknown"] as? [String: Any])
        #expect(unknown["status"] as? Int == 400)
        #expect(unknown["reason"] as? String == "BadDeviceToken")
        #expect(Self.isAPNsID(unknown["apnsId"] as? String))
        let rotated = try #require(result["rotated"] as? [String: Any])
        #expect(rotated["status"] as? Int == 410)
        #expect(rotated["reason"] as? String == "Unregistered")
        let timestamp = try #require(rotated["timestamp"] as? Int, "410 without a timestamp: \(rotated)")
        #expect(timestamp > Self.startMilliseconds && timestamp <= (result["rotatedAt"] as? Int ?? 0), "\(result)")
        #expect((result["rotatedCurrent"] as? [String: Any])?["status"] as? Int == 200)
        try Self.stop(serve)
    }

    // MARK: - aioapns through haproxy's TLS

    /// docs/serve.md's haproxy configuration, on `port`, in front of serve's APNs port;
    /// certificate authentication passes the subject in x-client-subject.
    static func haproxyConfiguration(port: Int, backend: Int, certificates: Bool) -> String {
        let verify = certificates ? " ca-file ca.crt verify optional" : ""
        let subject = certificates ? """
            http-request del-header x-client-subject
            http-request set-header x-client-subject %{+Q}[ssl_c_s_dn] if { ssl_c_used }

        """ : ""
        return """
        global
            maxconn 1000
        defaults
            mode http
            timeout connect 5s
            timeout client 60s
            timeout server 60s
        frontend apns
            bind 127.0.0.1:\(port) ssl crt server.pem alpn h2 proto h2\(verify)
        \(subject)    default_backend pushsim
        backend pushsim
            http-reuse never
            server serve 127.0.0.1:\(backend) proto h2

        """
    }

    /// Makes the certificates and key (Tests/Fixtures/serve/make-pki.sh) in `directory`.
    static func makePKI(_ directory: String) throws {
        let made = try run(["bash", fixtures + "/make-pki.sh", directory, topic, "ABC123DEFG"], seconds: 60)
        #expect(made.status == 0, "make-pki.sh: \(made.err)")
        for file in ["ca.crt", "server.pem", "client.pem", "nouid.pem", "AuthKey_ABC123DEFG.p8"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "make-pki.sh made no \(file)")
        }
    }

    /// Starts haproxy with `configuration` in `directory` on `port`, waiting until it listens.
    static func startHAProxy(_ configuration: String, port: Int, directory: String) throws -> ChildProcess {
        let file = directory + "/apns.cfg"
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: file))
        let checked = try run(["haproxy", "-c", "-q", "-f", file], seconds: 30, directory: directory)
        #expect(checked.status == 0, "haproxy -c: \(checked.out) \(checked.err)")
        let haproxy = try startBackground(["haproxy", "-db", "-f", file], directory: directory, name: "haproxy")
        guard waitForListener(port, seconds: 15) else {
            waitForExit(haproxy, seconds: 0)
            throw RunningServe.Failure(description: "haproxy did not listen on \(port): "
                + ((try? String(contentsOfFile: directory + "/haproxy.log", encoding: .utf8)) ?? ""))
        }
        return haproxy
    }

    /// What aioapns parsed of one answer.
    static func result(_ result: [String: Any], _ key: String) throws -> (status: String?, description: String?, timestamp: Int?) {
        let answer = try #require(result[key] as? [String: Any], "no \(key) in \(result)")
        #expect(answer["notification_id"] as? String == answer["sentId"] as? String)
        return (answer["status"] as? String, answer["description"] as? String, answer["timestamp"] as? Int)
    }

    /// The three answers every aioapns run must get, as aioapns parsed them.
    static func expectThreeAnswers(_ result: [String: Any]) throws {
        let current = try Self.result(result, "current")
        #expect(current.status == "200" && current.description == nil)
        let unknown = try Self.result(result, "unknown")
        #expect(unknown.status == "400" && unknown.description == "BadDeviceToken")
        let rotated = try Self.result(result, "rotated")
        #expect(rotated.status == "410" && rotated.description == "Unregistered")
        let timestamp = try #require(rotated.timestamp, "410 without a timestamp: \(result)")
        #expect(timestamp > startMilliseconds && timestamp <= (result["rotatedAt"] as? Int ?? 0), "\(result)")
        #expect(result["concurrent"] as? [String] == ["200"])
        #expect(result["concurrentMatched"] as? Bool == true)
    }

    @Test("aioapns with a client certificate (UID=com.example.mail) through haproxy's TLS, docs/serve.md's recipe: 200, 400 BadDeviceToken, 410 Unregistered with its timestamp, as aioapns parses them; a certificate without UID is 403 BadCertificate",
          .needs(.curl, .openssl, .haproxy, .aioapns), .timeLimit(.minutes(3)))
    func aioapnsWithCertificate() throws {
        let binary = try Self.require([.curl, .openssl, .haproxy, .aioapns])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        try Self.makePKI(scratch.path)
        let serve = try Self.startControlled(binary, in: scratch, ["--trust-certificate-subject", "x-client-subject"])
        defer { Self.forceStop(serve) }
        let port = try Self.freePort()
        let haproxy = try Self.startHAProxy(Self.haproxyConfiguration(port: port, backend: serve.apnsPort, certificates: true),
                                            port: port, directory: scratch.path)
        defer { Self.waitForExit(haproxy, seconds: 0) }
        let client = Self.fixtures + "/aioapns_client.py"
        let common = [String(port), String(serve.controlPort), scratch.file("ca.crt"), Self.topic]
        let result = try Self.json(try Self.run(["python3", client] + common + ["cert", scratch.file("client.pem")], seconds: 120),
                                   "aioapns_client.py")
        try Self.expectThreeAnswers(result)
        let noUID = try Self.json(try Self.run(["python3", client] + common + ["cert", scratch.file("nouid.pem"), "once"], seconds: 60),
                                  "aioapns_client.py without UID")
        let refused = try Self.result(noUID, "current")
        #expect(refused.status == "403" && refused.description == "BadCertificate", "\(noUID)")
        try Self.stop(serve)
    }

    @Test("aioapns with a provider token (an openssl-made P-256 key as --provider-key) through haproxy's TLS: 200, 400 BadDeviceToken, 410 with its timestamp",
          .needs(.curl, .openssl, .haproxy, .aioapns), .timeLimit(.minutes(3)))
    func aioapnsWithToken() throws {
        let binary = try Self.require([.curl, .openssl, .haproxy, .aioapns])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        try Self.makePKI(scratch.path)
        let key = scratch.file("AuthKey_ABC123DEFG.p8")
        let serve = try Self.startControlled(binary, in: scratch, ["--provider-key", "TEAM123456:ABC123DEFG:\(key)"])
        defer { Self.forceStop(serve) }
        let port = try Self.freePort()
        let haproxy = try Self.startHAProxy(Self.haproxyConfiguration(port: port, backend: serve.apnsPort, certificates: false),
                                            port: port, directory: scratch.path)
        defer { Self.waitForExit(haproxy, seconds: 0) }
        let result = try Self.json(try Self.run(["python3", Self.fixtures + "/aioapns_client.py", String(port), String(serve.controlPort),
                                                 scratch.file("ca.crt"), Self.topic, "key", key, "ABC123DEFG", "TEAM123456"],
                                                seconds: 120), "aioapns_client.py")
        try Self.expectThreeAnswers(result)
        // Another team's token for the same key id is refused.
        let other = try Self.json(try Self.run(["python3", Self.fixtures + "/aioapns_client.py", String(port), String(serve.controlPort),
                                                scratch.file("ca.crt"), Self.topic, "key", key, "ABC123DEFG", "OTHERTEAM1", "once"],
                                               seconds: 60), "aioapns_client.py, another team")
        let refused = try Self.result(other, "current")
        #expect(refused.status == "403" && refused.description == "InvalidProviderToken", "\(other)")
        try Self.stop(serve)
    }

    // MARK: - HTTP/2 conformance

    @Test("raw HTTP/2 frames against serve's APNs port, as h2spec's sections: a bad preface and DATA on stream 0 end the connection with GOAWAY PROTOCOL_ERROR; an uppercase field name resets the stream; a window of 1 still gets the whole answer; PING is echoed; an unknown frame type is ignored",
          .needs(.curl, .hyperframe), .timeLimit(.minutes(2)))
    func conformance() throws {
        let binary = try Self.require([.curl, .hyperframe])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let serve = try Self.startControlled(binary, in: scratch)
        defer { Self.forceStop(serve) }
        let result = try Self.json(try Self.run(["python3", Self.fixtures + "/h2_conformance.py", String(serve.apnsPort)], seconds: 90),
                                   "h2_conformance.py")
        func verdict(_ name: String) -> [String: Any] { result[name] as? [String: Any] ?? [:] }
        #expect(verdict("bad-preface")["goAway"] as? String == "PROTOCOL_ERROR", "\(verdict("bad-preface"))")
        #expect(verdict("bad-preface")["closed"] as? Bool == true)
        #expect(verdict("data-stream-0")["goAway"] as? String == "PROTOCOL_ERROR", "\(verdict("data-stream-0"))")
        #expect(verdict("data-stream-0")["closed"] as? Bool == true)
        #expect(verdict("uppercase-name")["reset"] as? String == "PROTOCOL_ERROR", "\(verdict("uppercase-name"))")
        #expect(verdict("uppercase-name")["goAway"] is NSNull)
        #expect(verdict("uppercase-name")["laterStatus"] as? Int == 400)
        let window = verdict("window-1")
        #expect(window["status"] as? Int == 400, "\(window)")
        #expect(window["body"] as? String == #"{"reason":"BadDeviceToken"}"#)
        #expect(window["largestDataFrame"] as? Int == 1)
        #expect(verdict("ping")["ack"] as? Bool == true && verdict("ping")["data"] as? String == "pushsim!", "\(verdict("ping"))")
        #expect(verdict("unknown-frame")["status"] as? Int == 400, "\(verdict("unknown-frame"))")
        #expect(verdict("unknown-frame")["goAway"] is NSNull)
        // serve is still whole after all that.
        #expect(try Self.control(serve, "/counters")["answers"] != nil)
        try Self.stop(serve)
    }

    // MARK: - h2load

    @Test("h2load -n 20000 -c 10 -m 10 on one token's path under the scaled clock: no request fails, and serve still answers (the million is tools/serve-bench.sh's)",
          .needs(.curl, .h2load), .timeLimit(.minutes(5)))
    func h2loadLoad() throws {
        let binary = try Self.require([.curl, .h2load])
        let scratch = try CommandFixtures.ScratchDirectory()
        defer { scratch.remove() }
        let scenario = try scratch.write("clients.json", Self.scenario)
        let payload = try scratch.write("payload.json", #"{"aps":{"alert":{"title":"h2load","body":"hello"}}}"#)
        let serve = try RunningServe.start(binary, [scenario, "--speed", "1", "--topic", Self.topic, "--out", scratch.file("out")])
        defer { Self.forceStop(serve) }
        let token = try #require(try Self.devices(serve).first?["token"] as? String)
        let requests = 20_000
        let load = try Self.run(["h2load", "-n", String(requests), "-c", "10", "-m", "10", "-d", payload,
                                 "-H", "apns-topic: \(Self.topic)", "-H", "apns-push-type: alert",
                                 "http://127.0.0.1:\(serve.apnsPort)/3/device/\(token)"], seconds: 240)
        #expect(!load.timedOut && load.status == 0, "h2load: \(load.err)")
        // "requests: 20000 total, 20000 started, 20000 done, 20000 succeeded, 0 failed, 0 errored, 0 timeout"
        #expect(load.out.contains("requests: \(requests) total, \(requests) started, \(requests) done, \(requests) succeeded, 0 failed, 0 errored, 0 timeout"),
                "\(load.out)")
        #expect(load.out.contains("status codes: \(requests) 2xx, 0 3xx, 0 4xx, 0 5xx"), "\(load.out)")
        let counters = try Self.control(serve, "/counters")
        #expect((counters["answers"] as? [String: Any])?["200"] as? Int == requests, "\(counters)")
        try Self.stop(serve)
    }
}
