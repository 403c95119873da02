import Base
import Foundation
import Glibc
@testable import Live
import Simulator
import Synchronization
import TestSupport
import Testing
import Transport

/// A server loop on a thread of its own, for the in-process runs of `pushsim provider` and
/// `pushsim serve` over loopback. Its service is read only once `finished` said the loop returned.
final class LoopThread: @unchecked Sendable {
    let server: Server
    let service: any Service
    private let done = DispatchSemaphore(value: 0)
    private let returned = Atomic<Bool>(false)

    init(server: Server, service: any Service) {
        self.server = server
        self.service = service
    }

    func start(name: String) {
        let thread = Thread { [self] in
            server.run(service: service)
            returned.store(true, ordering: .releasing)
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits up to `seconds` for the loop to return; whether it did.
    func finished(within seconds: Double) -> Bool {
        if returned.load(ordering: .acquiring) { return true }
        guard done.wait(timeout: .now() + seconds) == .success else { return false }
        done.signal() // a later call answers at once too
        return true
    }
}

/// A flag a test sets and a loop reads: SIGINT for an in-process serve.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Loopback servers end quickly: a stopped loop does not keep a held request for a second.
let quickShutdown: TransportConfiguration = {
    var configuration = TransportConfiguration()
    configuration.shutdownGracePeriod = .milliseconds(50)
    return configuration
}()

/// `pushsim provider` in process: `ProviderService` on a loopback listener (port 0).
struct ProviderRun: @unchecked Sendable {
    let loop: LoopThread
    let service: ProviderService
    let port: Int
    let stopFlag: StopFlag

    /// Binds the provider's listener; `start` runs it against serve's control API at `controlPort`.
    static func bind() throws -> (Server, Int) {
        let server = Server(configuration: quickShutdown)
        let bound = try server.bind(host: "127.0.0.1", port: 0, protocol: .http1OrHTTP2)
        #expect(bound.listener == 0)
        return (server, bound.port)
    }

    /// Runs the provider of `scenario`'s first strategy on `server` (bound by `bind`).
    static func start(_ scenario: Scenario, server: Server, port: Int, controlPort: Int, apns: Endpoint? = nil,
                      waitForServe: Duration = .seconds(10), pushTimeout: Duration = .seconds(10),
                      scenarioDigest: String? = nil) throws -> ProviderRun {
        let provider = LiveProvider(scenario: scenario, strategy: scenario.strategies[0], topics: [LiveHarness.topic],
                                    end: scenario.duration)
        let control = try #require(EndpointURL("http://127.0.0.1:\(controlPort)"))
        let service = ProviderService(provider: provider, control: control, listener: 0, stopsServe: true,
                                      waitForServe: waitForServe, pushTimeout: pushTimeout, apns: apns)
        service.scenarioDigest = scenarioDigest
        service.attach(to: server)
        let flag = StopFlag()
        service.signalled = { flag.isSet }
        let loop = LoopThread(server: server, service: service)
        loop.start(name: "provider-loop")
        return ProviderRun(loop: loop, service: service, port: port, stopFlag: flag)
    }

    /// Waits for the run to end; the service, to read.
    func finish(within seconds: Double = 60) throws -> ProviderService {
        try #require(loop.finished(within: seconds), "the provider did not finish within \(seconds) s")
        return service
    }

    /// Stops the loop as SIGINT does, if it still runs (a failed test leaves no loop behind).
    func stop() { stopFlag.set() }

    /// A call to the provider's listener, as a phone (or anyone) makes it.
    func call(_ method: String, _ path: String, _ body: String = "", at time: SimTime? = nil) throws -> LoopbackHTTP.Answer {
        var headers = [Header("content-type", "application/json")]
        if let time { headers.append(Header("pushsim-time", String(time))) }
        return try LoopbackHTTP.send(port: port, method: method, path: path, headers: headers, body: body)
    }

    /// The provider's counts so far, summed over device apps (`GET /`'s `counts`).
    func counts() throws -> [String: Int64] {
        let index = try call("GET", "/")
        try #require(index.status == 200)
        let counts = try #require(index.json?.object?["counts"]?.object)
        return Dictionary(uniqueKeysWithValues: counts.members.compactMap { member in member.value.int.map { (member.key, $0) } })
    }

    /// A registration body for device 0's app 0.
    static func registration(token: String = String(repeating: "ab", count: 32), hash: String = "0000002a") -> String {
        #"{"device":0,"app":0,"topic":"\#(LiveHarness.topic)","deviceId":"000000000000002a","deviceIdHash":"\#(hash)","token":"\#(token)"}"#
    }

    static func rerequest(position: Int32, gap: Int32) -> String {
        #"{"device":0,"app":0,"topic":"\#(LiveHarness.topic)","deviceId":"000000000000002a","deviceIdHash":"0000002a","token":"\#(String(repeating: "ab", count: 32))","position":\#(position),"gap":\#(gap)}"#
    }
}

/// `pushsim serve` in process: `ServeService` with its APNs (h2c) and control listeners on
/// loopback, its phones calling the provider at `providerPort`. `ports` may be given to
/// start it again where a stopped one listened.
struct ServeRun: @unchecked Sendable {
    let loop: LoopThread
    let service: ServeService
    let apnsPort: Int
    let controlPort: Int
    let stopFlag = StopFlag()

    static func start(_ scenario: Scenario, providerPort: Int, ports: (apns: Int, control: Int) = (0, 0),
                      topics: [String] = [LiveHarness.topic], scenarioDigest: String? = nil) throws -> ServeRun {
        let server = Server(configuration: quickShutdown)
        let apns = try server.bind(host: "127.0.0.1", port: ports.apns, protocol: .http2PriorKnowledge)
        let control = try server.bind(host: "127.0.0.1", port: ports.control, protocol: .http1OrHTTP2)
        let target = ProviderTarget(url: try #require(EndpointURL("http://127.0.0.1:\(providerPort)")), timeout: .seconds(10),
                                    fields: .xiva)
        let service = try ServeService(scenario: scenario, strategy: scenario.strategies[0], topics: topics,
                                       end: scenario.duration, clock: .controlled, authentication: .none,
                                       apnsListener: apns.listener, controlListener: control.listener, provider: target,
                                       wallClock: { 1_800_000_000 * TimeUnit.second })
        service.attach(to: server)
        service.apnsURL = "h2c://127.0.0.1:\(apns.port)"
        service.scenarioDigest = scenarioDigest
        let run = ServeRun(loop: LoopThread(server: server, service: service), service: service, apnsPort: apns.port,
                           controlPort: control.port)
        let flag = run.stopFlag
        service.signalled = { flag.isSet }
        run.loop.start(name: "serve-loop")
        return run
    }

    /// Serve's clock, in simulated microseconds (`GET /clock`).
    func clock() throws -> SimTime {
        let answer = try LoopbackHTTP.send(port: controlPort, method: "GET", path: "/clock")
        return try #require(answer.json?.object?["microseconds"]?.int)
    }

    /// Stops serve as SIGINT does, if it still runs (a failed test leaves no loop behind).
    func stop() { stopFlag.set() }

    /// Stops serve as SIGINT does, and waits for its loop to return.
    func kill() throws -> ServeService {
        stopFlag.set()
        try #require(loop.finished(within: 20), "serve did not stop")
        return service
    }

    /// Waits for serve to end (the provider's `POST /stop`); the service, to read.
    func finish(within seconds: Double = 60) throws -> ServeService {
        try #require(loop.finished(within: seconds), "serve did not stop within \(seconds) s")
        return service
    }
}

/// serve and `pushsim provider` in process against each other on loopback: the two-state
/// model with mail every half hour, online 3 h and offline 1 h on average, the queue strategy.
/// `stop()` stops both if they still run (a failed test leaves no loop behind).
struct ServeAndProvider {
    static let queue = #"{ "name": "queue", "repeatMaxCount": 5 }"#
    let scenario: Scenario
    let serve: ServeRun
    let provider: ProviderRun
    /// Where the provider listens: a serve started again calls it there.
    let providerPort: Int

    /// Serve and provider on the same scenario; `serveTopics` and `digests` (serve's, the
    /// provider's) as the two commands would publish and check them.
    static func start(devices: Int, days: Int, waitForServe: Duration = .seconds(10),
                      serveTopics: [String] = [LiveHarness.topic],
                      digests: (serve: String, provider: String) = ("same", "same")) throws -> ServeAndProvider {
        let scenario = WorldFixtures.twoStates(perDay: 48, onMean: "3h", offMean: "1h", devices: devices, days: days, seed: 7,
                                               strategies: queue)
        let (server, port) = try ProviderRun.bind()
        let serve = try ServeRun.start(scenario, providerPort: port, topics: serveTopics, scenarioDigest: digests.serve)
        let provider = try ProviderRun.start(scenario, server: server, port: port, controlPort: serve.controlPort,
                                             waitForServe: waitForServe, scenarioDigest: digests.provider)
        return ServeAndProvider(scenario: scenario, serve: serve, provider: provider, providerPort: port)
    }

    func stop() {
        provider.stop()
        serve.stop()
    }
}

/// What the fake APNs answers one push.
enum FakeAnswer: Sendable, Equatable {
    case ok
    /// An error status, with Apple's `reason` (nil: no body) and, for 410, `timestamp` (epoch ms).
    case refuse(Int, reason: String?, timestamp: Int64? = nil)
    /// No answer at all: the provider's time for a push runs out.
    case silent
    /// 200, but only after this much wall time.
    case delayed(Duration)
}

/// A push the fake APNs received, at the fake clock's instant.
struct FakePush: Sendable, Equatable {
    var at: SimTime
    var token: String
    var position: Int64?
    var mail: Int64?
}

/// Serve's control API and APNs as far as `pushsim provider` uses them, on loopback, scripted
/// by the test: a controlled clock that goes no further than `limit` (a `POST /clock` beyond
/// it is held until the limit moves), APNs answers taken in turn from a queue (200 when it
/// is empty), every push and clock move recorded. No phones: the test makes their calls.
final class FakeServe: Service, @unchecked Sendable {
    struct State {
        var ready = true
        var now: SimTime = 0
        var limit: SimTime = 0
        var held: [(answer: LaterAnswer, target: SimTime)] = []
        var clockMoves: [SimTime] = []
        var answers: [FakeAnswer] = []
        var pushes: [FakePush] = []
        var delayed: [(answer: LaterAnswer, due: ContinuousClock.Instant)] = []
        /// `GET /devices?counts=true` is held, never answered.
        var holdsCounts = false
        var countsAsked = 0
        var stopped = false
    }

    let scenario: Scenario
    let state = Mutex(State())
    var laterAnswers: LaterAnswers?
    var apnsPort = 0
    let apnsListener = 0, controlListener = 1

    init(scenario: Scenario) {
        self.scenario = scenario
    }

    /// Binds both listeners (the control API at `controlPort`, 0: any) and runs the loop.
    static func start(_ scenario: Scenario, controlPort: Int = 0) throws -> (fake: FakeServe, loop: LoopThread, controlPort: Int) {
        let fake = FakeServe(scenario: scenario)
        let server = Server(configuration: quickShutdown)
        fake.apnsPort = try server.bind(host: "127.0.0.1", port: 0, protocol: .http2PriorKnowledge).port
        let control = try server.bind(host: "127.0.0.1", port: controlPort, protocol: .http1OrHTTP2).port
        fake.laterAnswers = server.laterAnswers
        let loop = LoopThread(server: server, service: fake)
        loop.start(name: "fake-serve-loop")
        return (fake, loop, control)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        request.listener == apnsListener ? answerPush(request) : answerControl(request)
    }

    private func answerControl(_ request: HTTPRequest) -> HTTPResponse {
        state.withLock { state in
            switch (request.method, request.path) {
            case ("GET", "/"):
                guard state.ready else { return Self.json(503, #"{"error":"not yet"}"#) }
                return Self.json(200, #"{"run":{"scenario":"\#(scenario.name)","seed":"\#(scenario.seed)","strategy":"\#(scenario.strategies[0].label)","deviceApps":\#(scenario.devices),"endMicroseconds":\#(scenario.duration),"topics":["\#(LiveHarness.topic)"],"apns":"h2c://127.0.0.1:\#(apnsPort)"}}"#)
            case ("GET", "/clock"):
                return Self.json(200, Self.clock(state.now))
            case ("POST", "/clock"):
                let body = try? JSONParser.parse(request.body)
                guard let target = body?.object?["toMicroseconds"]?.int, target >= state.now else {
                    return Self.json(400, #"{"error":"toMicroseconds"}"#)
                }
                state.clockMoves.append(target)
                guard target <= state.limit else {
                    state.held.append((request.laterAnswer, target))
                    return .later
                }
                state.now = target
                return Self.json(200, Self.clock(target))
            case ("GET", "/devices?counts=true&limit=\(DeviceQuery.maxLimit)"):
                state.countsAsked += 1
                let now = LiveClock.iso8601(state.now, start: scenario.start)
                return state.holdsCounts ? .later : Self.json(200, #"{"now":"\#(now)","devices":[],"next":null}"#)
            case ("POST", "/stop"):
                state.stopped = true
                return Self.json(202, #"{"stopping":true}"#)
            default:
                return Self.json(404, #"{"error":"no route"}"#)
            }
        }
    }

    private func answerPush(_ request: HTTPRequest) -> HTTPResponse {
        let payload = try? JSONParser.parse(request.body)
        let token = String(request.path.dropFirst("/3/device/".count))
        return state.withLock { state in
            state.pushes.append(FakePush(at: state.now, token: token, position: payload?.object?["xiva"]?.object?["pos"]?.int,
                                         mail: payload?.object?["mid"]?.int))
            let answer = state.answers.isEmpty ? .ok : state.answers.removeFirst()
            switch answer {
            case .ok:
                return HTTPResponse(status: 200, headers: [Header("apns-id", "00000000-0000-4000-8000-000000000000")])
            case .refuse(let status, let reason, let timestamp):
                guard let reason else { return HTTPResponse(status: status) }
                let stamp = timestamp.map { #","timestamp":\#($0)"# } ?? ""
                return Self.json(status, #"{"reason":"\#(reason)"\#(stamp)}"#)
            case .silent:
                return .later
            case .delayed(let delay):
                state.delayed.append((request.laterAnswer, ContinuousClock.now + delay))
                return .later
            }
        }
    }

    func tick(elapsed: Duration) -> Duration? {
        let due = state.withLock { state -> [(LaterAnswer, SimTime)] in
            let due = state.held.filter { $0.target <= state.limit }
            state.held.removeAll { $0.target <= state.limit }
            if let last = due.map(\.target).max() { state.now = max(state.now, last) }
            return due.map { ($0.answer, $0.target) }
        }
        for (answer, target) in due { laterAnswers?.answer(answer, with: Self.json(200, Self.clock(target))) }
        let now = ContinuousClock.now
        let pushes = state.withLock { state -> [LaterAnswer] in
            defer { state.delayed.removeAll { $0.due <= now } }
            return state.delayed.filter { $0.due <= now }.map(\.answer)
        }
        for answer in pushes { laterAnswers?.answer(answer, with: HTTPResponse(status: 200)) }
        return .milliseconds(2)
    }

    func connectionClosed(_ connection: Int) {}

    var shouldStop: Bool { state.withLock { $0.stopped } }

    static func clock(_ now: SimTime) -> String { #"{"mode":{"kind":"controlled"},"microseconds":\#(now)}"# }

    static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("content-type", "application/json")], body: Array(text.utf8))
    }

    // MARK: The test's side

    /// Lets the clock go to `limit`, then waits until the provider wants to go past it (all it
    /// sent before answered) or has stopped the fake (the end); whether it got there in 30 s.
    @discardableResult
    func release(to limit: SimTime) -> Bool {
        state.withLock { $0.limit = limit }
        return waitUntil { state in state.stopped || state.held.contains { $0.target > state.limit } }
    }

    /// Waits until `condition` holds of the state, at most `seconds`.
    func waitUntil(seconds: Double = 30, _ condition: (State) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if state.withLock({ condition($0) }) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }

    /// Queues APNs's next answers, in order.
    func answerNext(_ answers: FakeAnswer...) { state.withLock { $0.answers += answers } }

    var pushes: [FakePush] { state.withLock { $0.pushes } }
    var clockMoves: [SimTime] { state.withLock { $0.clockMoves } }
    var stopped: Bool { state.withLock { $0.stopped } }
}

/// A provider run against `FakeServe`: both loops, and the ports a test calls.
struct FakedRun {
    let fake: FakeServe
    let fakeLoop: LoopThread
    let provider: ProviderRun
    let controlPort: Int

    /// The provider of `scenario` (one device, one app) against a fake serve whose clock is
    /// held at 0 until the test moves it; `apns` overrides where pushes go.
    static func start(_ scenario: Scenario, ready: Bool = true, apns: Endpoint? = nil,
                      pushTimeout: Duration = .seconds(10)) throws -> FakedRun {
        let (fake, fakeLoop, controlPort) = try FakeServe.start(scenario)
        fake.state.withLock { $0.ready = ready }
        let (server, port) = try ProviderRun.bind()
        let provider = try ProviderRun.start(scenario, server: server, port: port, controlPort: controlPort, apns: apns,
                                             pushTimeout: pushTimeout)
        return FakedRun(fake: fake, fakeLoop: fakeLoop, provider: provider, controlPort: controlPort)
    }

    /// Stops both loops if they still run (a failed test leaves no loop behind).
    func stop() {
        provider.stop()
        fake.state.withLock { $0.stopped = true }
    }

    /// Registers device 0's app at time 0 once the provider runs (its first clock move is held).
    func register() throws {
        try #require(fake.release(to: 0), "the provider never asked the fake serve's clock to move")
        let answer = try provider.call("POST", "/register", ProviderRun.registration(), at: 0)
        try #require(answer.status == 204, "\(answer)")
    }

    /// Lets the run go to its end; the provider's service, to read.
    func finish() throws -> ProviderService {
        try #require(fake.release(to: fake.scenario.duration), "the provider did not reach the end")
        let service = try provider.finish()
        #expect(service.failure == nil, "\(service.failure ?? "")")
        #expect(fakeLoop.finished(within: 10))
        return service
    }

    /// Device 0's app's counts (the only device app), read once the provider finished.
    static func counts(_ service: ProviderService) -> ProviderLaneCounts { service.provider.lanes[0].counts }
}

/// A blocking HTTP/1.1 exchange over loopback, one request a connection, every read bounded.
enum LoopbackHTTP {
    struct Answer: CustomStringConvertible {
        var status: Int
        var headers: [Header]
        var body: String
        var json: JSONNode? { try? JSONParser.parse(Array(body.utf8)) }
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        var description: String { "\(status) \(body)" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func send(port: Int, method: String, path: String, headers: [Header] = [], body: String = "",
                     timeout: Int = 20) throws -> Answer {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        var head = "\(method) \(path) HTTP/1.1\r\nhost: 127.0.0.1:\(port)\r\nconnection: close\r\ncontent-length: \(body.utf8.count)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        let request = Array((head + "\r\n" + body).utf8)
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed") }
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no whole answer: \(text)") }
        let lines = text[..<split.lowerBound].split(separator: "\r\n").map(String.init)
        let status = lines.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        let fields = lines.dropFirst().compactMap { line -> Header? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return Header(line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(status: status, headers: fields, body: String(text[split.upperBound...]))
    }
}
