import Base
import Foundation
import Glibc
@testable import Live
import ProviderAuth
import Simulator
import Synchronization
import Testing
import TestThreads
import Transport

/// Serve's own share of the attacks of issue 34: expensive control routes do not hold up
/// APNs's requests, and a forged provider token repeated costs no second verification.
@Suite("serve under attack: expensive control routes, repeated forged tokens", .ownThread, .timeLimit(.minutes(2)))
struct ServeAttackTests {
    @Test("a forged provider token sent 1,000 times on one connection is verified once and refused the same way each time")
    func repeatedForgedToken() throws {
        let privateKey = try P256PrivateKey(rawRepresentation: Array(repeating: 0x11, count: 32))
        let forger = try P256PrivateKey(rawRepresentation: Array(repeating: 0x22, count: 32))
        let key = try ProviderKey(teamID: "TEAM123456", keyID: "KEY1234567", publicKey: privateKey.publicKey)
        var harness = try LiveHarness(LiveHarness.scenario(), authentication: .token([key]), wallClock: { 1_800_000_000 * TimeUnit.second })
        let token = try #require(try harness.devices().first?["token"]?.string)
        let forged = ProviderToken.signed(teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_800_000_000 - 60, by: forger)
        for _ in 0..<1_000 {
            let answer = harness.push(token, extra: [Header("authorization", "bearer " + forged)])
            #expect(answer.status == 403 && answer.reason == "InvalidProviderToken")
        }
        #expect(harness.service.signatureVerifications == 1)
        // Another connection judges it once for itself; a well-signed token is verified once too.
        harness.connection = 8
        #expect(harness.push(token, extra: [Header("authorization", "bearer " + forged)]).reason == "InvalidProviderToken")
        let fresh = ProviderToken.signed(teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_800_000_000 - 60, by: privateKey)
        for _ in 0..<10 { #expect(harness.push(token, extra: [Header("authorization", "bearer " + fresh)]).status == 200) }
        #expect(harness.service.signatureVerifications == 3)
    }

    @Test("GET /devices over 1,007 device apps is answered later, a page of 1,000 then one of 7, each a slice a turn, and lists every device app once")
    func slicedListing() throws {
        let run = try ServeLoop.start(devices: 1_007)
        defer { run.stop() }
        var devices: [JSONNode] = []
        var pageSizes: [Int] = []
        var path: String? = "/devices?counts=true"
        while let next = path, pageSizes.count < 5 {
            let answer = try LoopbackHTTP.send(port: run.controlPort, method: "GET", path: next)
            #expect(answer.status == 200)
            let page = answer.json?.object?["devices"]?.array ?? []
            devices += page
            pageSizes.append(page.count)
            path = answer.json?.object?["next"]?.int.map { "/devices?counts=true&after=\($0)" }
        }
        #expect(pageSizes == [1_000, 7])
        #expect(devices.count == 1_007)
        #expect(Set(devices.compactMap { $0.object?["device"]?.int }).count == devices.count)
        #expect(devices.allSatisfy { $0.object?["counts"]?.object != nil })
    }

    /// 2,000 pipelined `GET /devices?counts=true` over 500 device apps (what held serve's
    /// loop for 45 s), their answers read as they come, while APNs requests are timed.
    /// What serve controls is the time its loop spends before answering: measured on the
    /// loop thread's own CPU clock, so that other jobs on the machine (the other suites of
    /// `swift test`, a build) cannot make it late or early. Wall times are printed.
    @Test("an APNs request is answered within 50 ms of the loop's time while a control client pipelines 2,000 GET /devices?counts=true")
    func expensiveRoutesDoNotStarveAPNs() throws {
        let run = try ServeLoop.start(devices: 500)
        defer { run.stop() }
        let token = try #require(try LoopbackHTTP.send(port: run.controlPort, method: "GET", path: "/devices")
            .json?.object?["devices"]?.array?.first?.object?["token"]?.string)
        let flood = try PipeliningClient(port: run.controlPort,
                                         requests: String(repeating: "GET /devices?counts=true HTTP/1.1\r\nHost: a\r\n\r\n", count: 2_000))
        defer { flood.close() }
        Thread.sleep(forTimeInterval: 0.3) // the flood is under way
        var loopTimes: [Double] = [], wallTimes: [Double] = []
        for _ in 0..<20 {
            let started = ContinuousClock.now, loopStarted = run.loopCPUMilliseconds()
            let answer = try LoopbackHTTP.send(port: run.apnsPort, method: "POST", path: "/3/device/\(token)",
                                               headers: [Header("apns-topic", LiveHarness.topic), Header("apns-push-type", "alert")],
                                               body: #"{"aps":{"alert":"hello"}}"#)
            loopTimes.append(run.loopCPUMilliseconds() - loopStarted)
            let elapsed = ContinuousClock.now - started
            wallTimes.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            #expect(answer.status == 200)
            Thread.sleep(forTimeInterval: 0.02)
        }
        let answered = flood.answersSoFar
        print("APNs requests during the flood: the loop's time \(loopTimes.map { Int($0) }) ms, wall \(wallTimes.map { Int($0) }) ms; "
              + "\(answered) listings answered")
        #expect(answered >= 1, "the expensive routes are answered meanwhile, a slice a turn: \(answered)")
        #expect(loopTimes.allSatisfy { $0 < 50 }, "the loop's time before each answer, in ms: \(loopTimes.map { Int($0) })")
    }
}

/// `pushsim serve` in process on loopback: APNs's listener speaks both protocols here, so
/// that a plain HTTP/1.1 request can time it (the service answers either alike).
final class ServeLoop: @unchecked Sendable {
    let server: Server
    let service: ServeService
    let apnsPort: Int
    let controlPort: Int
    let stopFlag = StopFlag()
    /// The loop thread's CPU clock (Linux makes such ids negative), once `clockKnown`.
    private let clock = Atomic<Int32>(0)
    private let clockKnown = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    private init(server: Server, service: ServeService, apnsPort: Int, controlPort: Int) {
        self.server = server
        self.service = service
        self.apnsPort = apnsPort
        self.controlPort = controlPort
    }

    static func start(devices: Int) throws -> ServeLoop {
        let scenario = LiveHarness.scenario(devices: devices, days: 3)
        let server = Server(configuration: quickShutdown)
        let apns = try server.bind(host: "127.0.0.1", port: 0, protocol: .http1OrHTTP2)
        let control = try server.bind(host: "127.0.0.1", port: 0, protocol: .http1OrHTTP2)
        let service = try ServeService(scenario: scenario, strategy: scenario.strategies[0], topics: [LiveHarness.topic],
                                       end: scenario.duration, clock: .controlled, authentication: .none,
                                       apnsListener: apns.listener, controlListener: control.listener,
                                       wallClock: { 1_800_000_000 * TimeUnit.second })
        service.attach(to: server)
        let run = ServeLoop(server: server, service: service, apnsPort: apns.port, controlPort: control.port)
        let flag = run.stopFlag
        service.signalled = { flag.isSet }
        let thread = Thread { [run] in
            var id = clockid_t()
            if pthread_getcpuclockid(pthread_self(), &id) == 0 { run.clock.store(id, ordering: .relaxed) }
            run.clockKnown.store(true, ordering: .releasing)
            run.server.run(service: run.service)
            run.done.signal()
        }
        thread.name = "serve-attack-loop"
        thread.start()
        while !run.clockKnown.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
        return run
    }

    /// The CPU time the loop's thread has used so far, in milliseconds.
    func loopCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(clock.load(ordering: .relaxed), &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
    }

    func stop() {
        stopFlag.set()
        #expect(done.wait(timeout: .now() + 20) == .success)
    }
}

/// A client that sends every request at once and reads the answers on a thread of its
/// own, counting them, as fast as they come.
final class PipeliningClient: @unchecked Sendable {
    private let descriptor: Int32
    private let answers = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(port: Int, requests: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let bytes = Array(requests.utf8)
        let sender = Thread { [self] in
            var offset = 0
            while offset < bytes.count && !stopped.load(ordering: .relaxed) {
                let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 { offset += sent } else if errno != EINTR { break }
            }
        }
        sender.start()
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let marker = Array("HTTP/1.1 200".utf8)
            var carry: [UInt8] = []
            while !stopped.load(ordering: .relaxed) {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count == 0 { break }
                if count < 0 { if errno == EAGAIN || errno == EINTR { continue } else { break } }
                // Counts status lines (memchr: the reader keeps up with the server), one split across reads included.
                let window = carry + buffer[0..<count]
                var found = 0
                window.withUnsafeBytes { bytes in
                    marker.withUnsafeBytes { pattern in
                        var at = bytes.baseAddress!
                        var left = bytes.count
                        while left >= pattern.count, let found8 = memchr(at, Int32(marker[0]), left - pattern.count + 1) {
                            let hit = UnsafeRawPointer(found8)
                            if memcmp(hit, pattern.baseAddress!, pattern.count) == 0 { found += 1 }
                            let skipped = hit - at + 1
                            at += skipped
                            left -= skipped
                        }
                    }
                }
                answers.add(found, ordering: .relaxed)
                carry = Array(window.suffix(marker.count - 1))
            }
        }
        reader.start()
    }

    deinit { Glibc.close(descriptor) }

    var answersSoFar: Int { answers.load(ordering: .relaxed) }

    func close() {
        stopped.store(true, ordering: .relaxed)
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
