import Base
import FakeAPNs
import Foundation
import Simulator
import Transport

/// What `pushsim provider` runs on the transport: the live provider (`LiveProvider`) with
/// the phones' calls on its listener (docs/provider-api.md), its pushes sent over HTTP/2
/// to serve's APNs, and serve's clock followed through serve's control API: a controlled
/// clock it moves itself, from one of its own events to the next; a scaled one it reads.
/// Called on the transport's one thread: it owns the provider without locks.
public final class ProviderService: Service {
    /// Where the run stands.
    public enum Phase: Sendable, Equatable {
        /// Asking serve's control API what it runs (`GET /`, `GET /clock`).
        case connecting
        /// Sending the scenario's mail as its time comes.
        case running
        /// The end is reached: fetching serve's counts per device app.
        case collecting
        /// Done: `result` holds what the report needs (or `failure` why there is none).
        case finished
    }

    package private(set) var provider: LiveProvider
    let control: EndpointURL
    let listener: Int
    /// Stop serve at the end (`POST /stop`), so that it writes its reports too.
    let stopsServe: Bool
    let waitForServe: Duration
    let pushTimeout: Duration
    var outgoing: OutgoingRequests?
    var laterAnswers: LaterAnswers?
    let started = ContinuousClock.now

    public private(set) var phase = Phase.connecting
    /// Why the run could not go on (serve not there, or running another scenario).
    public private(set) var failure: String?
    /// What serve counted per device app at the end (`GET /devices?counts=true`), by lane.
    package private(set) var serveCounts: [Lane: [String: Int64]] = [:]
    /// How the clock was followed.
    package private(set) var clockMode = ""

    package struct Lane: Hashable, Sendable {
        package var device: Int32
        package var app: Int32
    }

    // Serve's answers come back by tag.
    enum Tag { static let index = -1, clock = -2, step = -3, devices = -4, stop = -5 }
    var apns: Endpoint?
    /// `--apns` named the APNs endpoint: serve's is not used.
    let apnsGiven: Bool
    /// Under a scaled clock: serve's simulated time and speed at a wall instant.
    var scaled: (at: ContinuousClock.Instant, simulated: SimTime, speed: Double)?
    var controlled = false
    /// A `POST /clock` is on its way; its target.
    var stepping: SimTime?
    var handshake: (index: Bool, clock: Bool) = (false, false)
    /// `POST /stop` went to serve and has not come back.
    var awaitingStop = false
    var nextRetry: ContinuousClock.Instant?
    /// Pushes sent and not answered, by tag (≥ 1), with the re-request each answers (0: none).
    var inFlight: [Int: (push: OutgoingPush, rerequest: Int)] = [:]
    var nextTag = 1
    /// Re-requests waiting for APNs's answers to what they re-sent.
    var rerequests: [Int: (answer: LaterAnswer, remaining: Int)] = [:]
    var nextRerequest = 1
    /// Set by `SIGINT`/`SIGTERM`.
    public var signalled: (() -> Bool)?

    /// - Parameters:
    ///   - control: serve's control API.
    ///   - listener: the transport's listener number for the phones' calls.
    /// - Complexity: O(devices × apps).
    /// - Parameter apns: where the pushes go; nil: the APNs URL serve's `GET /` names.
    package init(provider: LiveProvider, control: EndpointURL, listener: Int, stopsServe: Bool,
                 waitForServe: Duration = .seconds(30), pushTimeout: Duration = .seconds(10), apns: Endpoint? = nil) {
        self.provider = provider
        self.apns = apns
        apnsGiven = apns != nil
        self.control = control
        self.listener = listener
        self.stopsServe = stopsServe
        self.waitForServe = waitForServe
        self.pushTimeout = pushTimeout
    }

    /// Sends through `server` and answers re-requests later through it.
    public func attach(to server: Server) {
        outgoing = server.outgoing
        laterAnswers = server.laterAnswers
        askServe()
    }

    public var shouldStop: Bool {
        if signalled?() == true, phase != .finished { fail("stopped by a signal before the end") }
        return phase == .finished && (failure != nil || !awaitingStop)
    }

    public func connectionClosed(_ connection: Int) {}

    public func tick(elapsed: Duration) -> Duration? {
        if let nextRetry, ContinuousClock.now >= nextRetry {
            self.nextRetry = nil
            askServe()
        }
        if phase == .running, let scaled {
            let wall = ContinuousClock.now - scaled.at
            let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18
            provider.advance(to: scaled.simulated + SimTime(seconds * scaled.speed * Double(TimeUnit.second)))
            sendOutbox()
            if provider.now >= provider.end && inFlight.isEmpty { collect() }
        }
        if phase == .running, controlled { step() }
        return scaled != nil || nextRetry != nil ? .milliseconds(10) : nil
    }

    // MARK: Serve's control API

    func askServe() {
        guard let outgoing else { return }
        outgoing.send(OutgoingRequest(method: "GET", path: control.pathPrefix + "/"), to: control.endpoint,
                      timeout: .seconds(5), tag: Tag.index)
        outgoing.send(OutgoingRequest(method: "GET", path: control.pathPrefix + "/clock"), to: control.endpoint,
                      timeout: .seconds(5), tag: Tag.clock)
    }

    public func received(_ outcome: OutgoingOutcome, tag: Int) {
        if tag > 0 {
            pushReturned(outcome, tag: tag)
        } else {
            controlReturned(outcome, tag: tag)
        }
        sendOutbox()
        if phase == .running, controlled { step() }
        if phase == .running, scaled != nil, provider.now >= provider.end, inFlight.isEmpty { collect() }
    }

    private func controlReturned(_ outcome: OutgoingOutcome, tag: Int) {
        guard case .response(let response) = outcome, (200..<300).contains(response.status),
              let root = try? JSONParser.parse(response.body), case .object(let object) = root.value else {
            switch tag {
            case Tag.index, Tag.clock:
                // Serve may not be up yet: ask again, for a while.
                if ContinuousClock.now - started < waitForServe {
                    if tag == Tag.index { nextRetry = ContinuousClock.now + .milliseconds(200) }
                } else {
                    fail("serve's control API at \(control) did not answer in \(waitForServe): \(Self.describe(outcome))")
                }
            case Tag.stop:
                awaitingStop = false // serve may have stopped already
            default:
                stepping = nil
                fail("serve's control API failed: \(Self.describe(outcome))")
            }
            return
        }
        switch tag {
        case Tag.index:
            handshake.index = true
            readIndex(object)
        case Tag.clock:
            handshake.clock = true
            readClock(object)
        case Tag.step:
            // Serve got there: what the provider has due up to then happens now.
            if let target = stepping { provider.advance(to: target) }
            stepping = nil
        case Tag.devices:
            readDevices(object)
            phase = .finished
            if stopsServe, let outgoing {
                awaitingStop = true
                outgoing.send(OutgoingRequest(method: "POST", path: control.pathPrefix + "/stop"), to: control.endpoint,
                              timeout: .seconds(5), tag: Tag.stop)
            }
        case Tag.stop:
            awaitingStop = false
        default:
            break
        }
        if phase == .connecting, handshake.index, handshake.clock, failure == nil { phase = .running }
    }

    private func readIndex(_ object: JSONObject) {
        guard case .object(let run)? = object["run"]?.value else {
            return fail("serve at \(control) does not say what it runs (GET / has no \"run\"): is it pushsim serve?")
        }
        func text(_ key: String) -> String? { if case .string(let value)? = run[key]?.value { value } else { nil } }
        func number(_ key: String) -> Int64? { if case .number(let value)? = run[key]?.value { value.int64Value } else { nil } }
        let mine: [(String, String)] = [("seed", String(provider.scenario.seed)), ("strategy", provider.strategy.label),
                                        ("deviceApps", String(provider.lanes.count)),
                                        ("endMicroseconds", String(provider.end))]
        for (key, value) in mine {
            let theirs = text(key) ?? number(key).map(String.init) ?? "nothing"
            if theirs != value {
                return fail("serve runs \(key) \(theirs), this provider \(value): give both the same scenario, --strategy, "
                            + "--seed, --set and --for")
            }
        }
        guard !apnsGiven else { return }
        guard let apnsText = text("apns"), let url = EndpointURL(apnsText) else {
            return fail("serve does not say where its APNs listens")
        }
        apns = url.endpoint
    }

    private func readClock(_ object: JSONObject) {
        guard case .object(let mode)? = object["mode"]?.value, case .string(let kind)? = mode["kind"]?.value,
              case .number(let micro)? = object["microseconds"]?.value, let now = micro.int64Value else {
            return fail("serve's GET /clock is not what pushsim serve answers")
        }
        if kind == "controlled" {
            controlled = true
            clockMode = "controlled: the provider moved serve's clock from one of its events to the next"
        } else {
            guard case .number(let speed)? = mode["speed"]?.value else { return fail("serve's scaled clock has no speed") }
            scaled = (ContinuousClock.now, now, speed.doubleValue)
            clockMode = "scaled: the provider followed serve's clock at \(speed.doubleValue) simulated seconds a second"
        }
    }

    /// Under a controlled clock: once nothing is on its way, asks serve's clock to go to the
    /// provider's next event (or the end).
    func step() {
        guard stepping == nil, inFlight.isEmpty, rerequests.isEmpty, let outgoing else { return }
        if provider.now >= provider.end { return collect() }
        let target = provider.nextTime() ?? provider.end
        stepping = target
        outgoing.send(OutgoingRequest(method: "POST", path: control.pathPrefix + "/clock",
                                      headers: [Header("content-type", "application/json")],
                                      body: Array(("{\"toMicroseconds\": \(target)}").utf8)),
                      to: control.endpoint, timeout: .seconds(3600), tag: Tag.step)
    }

    /// The end: asks serve for its counts per device app.
    func collect() {
        guard phase == .running, let outgoing else { return }
        phase = .collecting
        outgoing.send(OutgoingRequest(method: "GET", path: control.pathPrefix + "/devices?counts=true"), to: control.endpoint,
                      timeout: .seconds(60), tag: Tag.devices)
    }

    private func readDevices(_ object: JSONObject) {
        guard case .array(let items)? = object["devices"]?.value else { return fail("serve's GET /devices has no devices") }
        for item in items {
            guard case .object(let deviceApp) = item.value,
                  case .number(let device)? = deviceApp["device"]?.value, case .number(let app)? = deviceApp["app"]?.value,
                  let d = device.int64Value.flatMap({ Int32(exactly: $0) }), let a = app.int64Value.flatMap({ Int32(exactly: $0) }),
                  case .object(let counts)? = deviceApp["counts"]?.value else { continue }
            var values: [String: Int64] = [:]
            for member in counts.members {
                if case .number(let number) = member.value.value, let value = number.int64Value { values[member.key] = value }
            }
            serveCounts[Lane(device: d, app: a)] = values
        }
    }

    func fail(_ why: String) {
        if failure == nil { failure = why }
        phase = .finished
    }

    static func describe(_ outcome: OutgoingOutcome) -> String {
        switch outcome {
        case .response(let response): "HTTP \(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))"
        case .failure(let failure): failure.description
        }
    }

    // MARK: Pushes

    /// Sends what the provider made.
    func sendOutbox() {
        guard let outgoing, let apns, !provider.outbox.isEmpty else { return }
        for push in provider.takeOutbox() { send(push, rerequest: 0, over: outgoing, to: apns) }
    }

    private func send(_ push: OutgoingPush, rerequest: Int, over outgoing: OutgoingRequests, to apns: Endpoint) {
        let tag = nextTag
        nextTag += 1
        inFlight[tag] = (push, rerequest)
        outgoing.send(provider.apnsRequest(push), to: apns, timeout: pushTimeout, tag: tag)
    }

    private func pushReturned(_ outcome: OutgoingOutcome, tag: Int) {
        guard let (push, rerequest) = inFlight.removeValue(forKey: tag) else { return }
        switch outcome {
        case .response(let response): provider.answered(push, provider.apnsResponse(response))
        case .failure: provider.sendFailed(push)
        }
        if rerequest != 0, var waiting = rerequests[rerequest] {
            waiting.remaining -= 1
            if waiting.remaining == 0 {
                rerequests[rerequest] = nil
                laterAnswers?.answer(waiting.answer, with: Self.json(200, "{\"resent\":true}"))
            } else {
                rerequests[rerequest] = waiting
            }
        }
    }

    // MARK: The phones' calls

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.listener == listener else { return Self.json(404, Self.error("no API here")) }
        let path = String(request.path.prefix { $0 != "?" })
        if request.method == "GET", path == "/" {
            return Self.json(200, JSONText.object([("phase", JSONText.string("\(phase)")),
                                                   ("now", String(provider.now)), ("pushesInFlight", String(inFlight.count))]))
        }
        guard request.method == "POST" else { return Self.json(405, Self.error("POST only")) }
        guard ["/register", "/subscriptions", "/rerequest"].contains(path) else {
            return Self.json(404, Self.error("no route \(path): POST /register, /subscriptions or /rerequest"))
        }
        guard phase == .running else {
            return Self.json(503, Self.error(phase == .connecting ? "not started yet: waiting for serve" : "the run is over"))
        }
        guard let root = try? JSONParser.parse(request.body), case .object(let body) = root.value else {
            return Self.json(400, Self.error("the body is not a JSON object"))
        }
        func integer(_ key: String) -> Int64? { if case .number(let n)? = body[key]?.value, n.isInteger { n.int64Value } else { nil } }
        func text(_ key: String) -> String? { if case .string(let s)? = body[key]?.value { s } else { nil } }
        guard let device = integer("device"), let app = integer("app"), let lane = provider.lane(device: device, app: app) else {
            return Self.json(404, Self.error("no device app with that \"device\" and \"app\""))
        }
        // A controlled clock stands still at the instant the phone called: the provider is there too.
        if controlled, let at = request.value("pushsim-time").flatMap({ SimTime($0) }), stepping != nil {
            provider.advance(to: at)
        }
        switch path {
        case "/register":
            guard let token = text("token"), let deviceID = text("deviceId"), let hashText = text("deviceIdHash"),
                  let hash = UInt32(hashText, radix: 16) else {
                return Self.json(400, Self.error("a registration needs token, deviceId and deviceIdHash"))
            }
            provider.register(lane: lane, token: token, deviceID: deviceID, deviceIDHash: hash)
            return HTTPResponse(status: 204)
        case "/subscriptions":
            guard let generation = integer("generation").flatMap({ Int32(exactly: $0) }) else {
                return Self.json(400, Self.error("subscriptions need generation"))
            }
            provider.subscriptionsSynced(lane: lane, generation: generation)
            return HTTPResponse(status: 204)
        default:
            guard let position = integer("position").flatMap({ Int32(exactly: $0) }),
                  let gap = integer("gap").flatMap({ Int32(exactly: $0) }), gap >= 1 else {
                return Self.json(400, Self.error("a re-request needs position and gap ≥ 1"))
            }
            let queued = provider.outbox.count
            guard provider.rerequest(lane: lane, position: position, gap: gap), let outgoing, let apns else {
                return Self.json(404, Self.error("none of those positions is held"))
            }
            // Answered once APNs answered what was re-sent, so it arrives after them.
            let id = nextRerequest
            nextRerequest += 1
            let resent = Array(provider.takeOutbox())
            for push in resent[..<queued] { send(push, rerequest: 0, over: outgoing, to: apns) }
            rerequests[id] = (request.laterAnswer, resent.count - queued)
            for push in resent[queued...] { send(push, rerequest: id, over: outgoing, to: apns) }
            return .later
        }
    }

    static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("content-type", "application/json")], body: Array((text + "\n").utf8))
    }

    static func error(_ message: String) -> String { JSONText.object([("error", JSONText.string(message))]) }
}
