import Base
import FakeAPNs
import FoundationEssentials
import Simulator
import Transport

/// What `pushsim provider` runs on the transport: the live provider (`LiveProvider`) with
/// the phones' calls on its listener (`ProviderRoute`, docs/provider-api.md), its pushes sent
/// over HTTP/2 to serve's APNs, and serve's clock followed through serve's control API
/// (`ServeRequest`): a controlled clock it moves itself, from one of its own events to the
/// next; a scaled one it reads. Serve that stops answering mid-run is asked again for
/// `waitForServe`, and the run goes on with the serve that answers (a restarted one).
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
    /// How long serve's control API may take to answer: at the start, and to come back mid-run.
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
    /// How many times serve's control API stopped answering mid-run and answered again.
    package private(set) var reconnections = 0
    /// How many times serve started again mid-run (its clock went back): its counts at the end
    /// are only the last one's.
    package private(set) var restarts = 0
    /// A call stamped before the provider's clock came since serve's clock last answered.
    var restartSeen = false

    package struct Lane: Hashable, Sendable {
        package var device: Int32
        package var app: Int32
    }

    /// Every request sent and not yet returned, by the tag its outcome comes back with.
    var requests: [Int: ProviderRequest] = [:]
    var nextTag = 1
    /// Of `requests`, the pushes.
    package private(set) var pushesInFlight = 0
    var apns: Endpoint?
    /// `--apns` named the APNs endpoint: serve's is not used.
    let apnsGiven: Bool
    /// Under a scaled clock: serve's simulated time and speed at a wall instant.
    var scaled: (at: ContinuousClock.Instant, simulated: SimTime, speed: Double)?
    var controlled = false
    /// A `POST /clock` is on its way (or waits for serve to come back); its target.
    var stepping: SimTime?
    /// Which of `GET /` and `GET /clock` answered since they were last asked.
    var handshake: (index: Bool, clock: Bool) = (false, false)
    /// Serve's counts came from before the end once (a serve started again), and its clock was
    /// moved to the end to read them again.
    var countsReadAgain = false
    /// Serve's control API stopped answering mid-run: since when, and what to ask again once
    /// it answers `GET /` and `GET /clock`.
    var lostServe: (since: ContinuousClock.Instant, resume: ServeRequest)?
    /// `POST /stop` went to serve and has not come back.
    var awaitingStop = false
    /// When to ask serve's `GET /` and `GET /clock` again.
    var nextRetry: ContinuousClock.Instant?
    /// Re-requests waiting for APNs's answers to what they re-sent.
    var rerequests: [Int: (answer: LaterAnswer, remaining: Int)] = [:]
    var nextRerequest = 1
    /// Set by `SIGINT`/`SIGTERM`.
    public var signalled: (() -> Bool)?

    /// The scenario as the provider runs it (`ScenarioOverride.digest`); serve's `GET /` must
    /// name the same. nil: not checked (a caller that built both scenarios alike).
    package var scenarioDigest: String?

    /// How long after a failed `GET /` or a lost serve it is asked again.
    static let retryInterval = Duration.milliseconds(200)

    /// - Parameters:
    ///   - control: serve's control API.
    ///   - listener: the transport's listener number for the phones' calls.
    ///   - waitForServe: how long serve's control API may take to answer at the start, and
    ///     to answer again once it stopped answering mid-run.
    ///   - pushTimeout: how long APNs may take to answer a push before it counts as no answer.
    ///   - apns: where the pushes go; nil: the APNs URL serve's `GET /` names.
    /// - Complexity: O(devices × apps).
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
        }
        afterTurn()
        return scaled != nil || nextRetry != nil ? .milliseconds(10) : nil
    }

    public func received(_ outcome: OutgoingOutcome, tag: Int) {
        guard let request = requests.removeValue(forKey: tag) else { return }
        switch request {
        case .serve(let call): serveReturned(outcome, call)
        case .push(let push, let rerequest): pushReturned(outcome, push, rerequest: rerequest)
        }
        afterTurn()
    }

    /// What every turn ends with: the pushes made go out; the clock moves on (controlled), or
    /// the end is collected once it passed and nothing is on its way (scaled).
    func afterTurn() {
        sendOutbox()
        guard phase == .running else { return }
        if controlled {
            step()
        } else if scaled != nil, provider.now >= provider.end, pushesInFlight == 0 {
            collect()
        }
    }

    // MARK: Serve's control API

    /// Sends `call` to serve's control API.
    func ask(_ call: ServeRequest) {
        guard let outgoing else { return }
        let tag = nextTag
        nextTag += 1
        requests[tag] = .serve(call)
        outgoing.send(call.request(prefix: control.pathPrefix), to: control.endpoint, timeout: call.timeout, tag: tag)
    }

    /// Asks what serve runs and where its clock is: at the start, and when it answers again.
    func askServe() {
        handshake = (false, false)
        ask(.readRun)
        ask(.readClock)
    }

    private func serveReturned(_ outcome: OutgoingOutcome, _ call: ServeRequest) {
        guard case .response(let response) = outcome, (200..<300).contains(response.status),
              let root = try? JSONParser.parse(response.body), case .object(let object) = root.value else {
            return serveFailed(call, outcome)
        }
        switch call {
        case .readRun:
            handshake.index = true
            readIndex(object)
        case .readClock:
            handshake.clock = true
            readClock(object)
        case .moveClock(let target):
            // Serve got there: what the provider has due up to then happens now.
            provider.advance(to: target)
            stepping = nil
            restartSeen = false
        case .readCounts(let after):
            if after == nil, controlled, !countsReadAgain, case .string(let at)? = object["now"]?.value,
               at != LiveClock.iso8601(provider.end, start: provider.scenario.start) {
                // A serve started again (seen or not) is not at the end: its clock goes there first.
                countsReadAgain = true
                phase = .running
                stepping = provider.end
                return ask(.moveClock(to: provider.end))
            }
            readDevices(object)
            if case .number(let next)? = object["next"]?.value, let after = next.int64Value.flatMap({ Int(exactly: $0) }) {
                return ask(.readCounts(after: after))
            }
            phase = .finished
            if stopsServe {
                awaitingStop = true
                ask(.stopServe)
            }
        case .stopServe:
            awaitingStop = false
        }
        guard call == .readRun || call == .readClock, handshake.index, handshake.clock, failure == nil else { return }
        handshake = (false, false)
        if phase == .connecting {
            phase = .running
        } else if let lost = lostServe {
            // Serve answers again (restarted, or reachable again): what it lost is asked again.
            lostServe = nil
            reconnections += 1
            ask(lost.resume)
        }
    }

    private func serveFailed(_ call: ServeRequest, _ outcome: OutgoingOutcome) {
        switch call {
        case .readRun, .readClock:
            // Serve may not be up yet, or on its way back: ask again, for a while.
            if ContinuousClock.now - (lostServe?.since ?? started) < waitForServe {
                if nextRetry == nil { nextRetry = ContinuousClock.now + Self.retryInterval }
            } else if lostServe != nil {
                fail("serve's control API at \(control) stopped answering mid-run and did not answer again in "
                     + "\(waitForServe): \(Self.describe(outcome))")
            } else {
                fail("serve's control API at \(control) did not answer in \(waitForServe): \(Self.describe(outcome))")
            }
        case .moveClock, .readCounts:
            if case .failure(let failure) = outcome, Self.serveMayAnswerAgain(failure) {
                lostServe = (ContinuousClock.now, call)
                if nextRetry == nil { nextRetry = ContinuousClock.now + Self.retryInterval }
            } else {
                fail("serve's control API failed: \(Self.describe(outcome))")
            }
        case .stopServe:
            awaitingStop = false // serve may have stopped already
        }
    }

    /// Whether serve may answer again after `failure`: it went away (killed, restarting) or
    /// did not answer in time, rather than answering something that is not HTTP.
    static func serveMayAnswerAgain(_ failure: OutgoingFailure) -> Bool {
        switch failure {
        case .connectionRefused, .cannotConnect, .connectionLost, .timedOut, .reset: true
        case .protocolError, .responseTooLarge, .invalidRequest, .stopped: false
        }
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
        // The same seed, strategy and size can still be two scenarios (another file, a --set of
        // a rate): serve's digest of the scenario as it runs must be the provider's.
        if let scenarioDigest, text("scenarioDigest") != scenarioDigest {
            return fail("serve runs another scenario (its digest \(text("scenarioDigest") ?? "nothing"), this provider's "
                        + "\(scenarioDigest)): give both the same scenario file and the same --set")
        }
        let topics = LivePopulation.topics(ofApps: provider.lanes.lazy.map(\.app), among: provider.topics)
        var theirTopics: [String] = []
        if case .array(let items)? = run["topics"]?.value {
            for item in items { if case .string(let topic) = item.value { theirTopics.append(topic) } }
        }
        if theirTopics != topics {
            let shown = theirTopics.isEmpty ? "none" : theirTopics.joined(separator: ", ")
            return fail("serve's apps have the topics \(shown), this provider's \(topics.joined(separator: ", ")): "
                        + "give both the same --topic (APNs answers 400 DeviceTokenNotForTopic to any other)")
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
        if phase != .connecting, controlled != (kind == "controlled") {
            return fail("serve answers again with another clock (\(kind)): restart it as it was started")
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
        guard stepping == nil, lostServe == nil, pushesInFlight == 0, rerequests.isEmpty else { return }
        if provider.now >= provider.end { return collect() }
        let target = provider.nextTime() ?? provider.end
        stepping = target
        ask(.moveClock(to: target))
    }

    /// The end: asks serve for its counts per device app.
    func collect() {
        guard phase == .running else { return }
        phase = .collecting
        ask(.readCounts(after: nil))
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
        for push in provider.takeOutbox() { send(push, rerequest: nil, over: outgoing, to: apns) }
    }

    private func send(_ push: OutgoingPush, rerequest: Int?, over outgoing: OutgoingRequests, to apns: Endpoint) {
        let tag = nextTag
        nextTag += 1
        requests[tag] = .push(push, rerequest: rerequest)
        pushesInFlight += 1
        outgoing.send(provider.apnsRequest(push), to: apns, timeout: pushTimeout, tag: tag)
    }

    private func pushReturned(_ outcome: OutgoingOutcome, _ push: OutgoingPush, rerequest: Int?) {
        pushesInFlight -= 1
        switch outcome {
        case .response(let response): provider.answered(push, provider.apnsResponse(response))
        case .failure: provider.sendFailed(push)
        }
        guard let rerequest, var waiting = rerequests[rerequest] else { return }
        waiting.remaining -= 1
        if waiting.remaining == 0 {
            rerequests[rerequest] = nil
            laterAnswers?.answer(waiting.answer, with: Self.json(200, "{\"resent\":true}"))
        } else {
            rerequests[rerequest] = waiting
        }
    }

    /// The pushes sent and not yet answered, by lane (for the accounting check).
    /// - Complexity: O(r) in the requests on their way.
    package var pushesInFlightByLane: [Int32: Int64] {
        var byLane: [Int32: Int64] = [:]
        for case .push(let push, _) in requests.values { byLane[push.lane, default: 0] += 1 }
        return byLane
    }

    // MARK: The phones' calls

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.listener == listener else { return Self.json(404, Self.error("no API on this listener")) }
        let route: ProviderRoute
        switch ProviderRoute.route(method: request.method, target: request.path) {
        case .success(let found): route = found
        case .failure(let refusal): return refusal.response
        }
        switch route {
        case .index:
            return Self.json(200, indexJSON())
        case .register:
            return call(request) { lane, body in
                guard let token = body.text("token"), let deviceID = body.text("deviceId"),
                      let hashText = body.text("deviceIdHash"), let hash = UInt32(hashText, radix: 16) else {
                    return Self.json(400, Self.error("a registration needs token, deviceId and deviceIdHash (hex)"))
                }
                provider.register(lane: lane, token: token, deviceID: deviceID, deviceIDHash: hash)
                return HTTPResponse(status: 204)
            }
        case .subscriptions:
            return call(request) { lane, body in
                guard let generation = body.integer("generation").flatMap({ Int32(exactly: $0) }) else {
                    return Self.json(400, Self.error("subscriptions need generation, an integer"))
                }
                provider.subscriptionsSynced(lane: lane, generation: generation)
                return HTTPResponse(status: 204)
            }
        case .rerequest:
            return call(request) { lane, body in
                guard let position = body.integer("position").flatMap({ Int32(exactly: $0) }),
                      let gap = body.integer("gap").flatMap({ Int32(exactly: $0) }), gap >= 1 else {
                    return Self.json(400, Self.error("a re-request needs position and gap ≥ 1, integers"))
                }
                return resend(lane: lane, position: position, gap: gap, answer: request.laterAnswer)
            }
        }
    }

    /// A phone's call: 503 unless the run is running, 400 for a body that is not a JSON
    /// object naming `device` and `app`, 404 for a device app the population does not have;
    /// else `answer`'s, with the call's lane and body.
    private func call(_ request: HTTPRequest, _ answer: (Int32, CallBody) -> HTTPResponse) -> HTTPResponse {
        guard phase == .running else {
            return Self.json(503, Self.error(phase == .connecting ? "not started yet: waiting for serve" : "the run is over"))
        }
        guard let root = try? JSONParser.parse(request.body), case .object(let object) = root.value else {
            return Self.json(400, Self.error("the body is not a JSON object"))
        }
        let body = CallBody(object: object)
        guard let device = body.integer("device"), let app = body.integer("app") else {
            return Self.json(400, Self.error("the body needs \"device\" and \"app\", integers"))
        }
        guard let lane = provider.lane(device: device, app: app) else {
            return Self.json(404, Self.error("no device \(device) with app \(app) in the population"))
        }
        if controlled, let at = request.value("pushsim-time").flatMap({ SimTime($0) }) {
            if at < provider.now {
                // Serve's controlled clock never goes back: a call stamped before the provider's
                // clock is a restarted serve's (its phones register again at time 0).
                if !restartSeen { restarts += 1 }
                restartSeen = true
            } else if stepping != nil {
                // The clock stands still at the instant the phone called: the provider is there too.
                provider.advance(to: at)
            }
        }
        return answer(lane, body)
    }

    /// Re-sends the held positions of a re-request; answered (200) once APNs answered them.
    private func resend(lane: Int32, position: Int32, gap: Int32, answer: LaterAnswer) -> HTTPResponse {
        let queued = provider.outbox.count
        guard provider.rerequest(lane: lane, position: position, gap: gap), let outgoing, let apns else {
            if provider.lanes[Int(lane)].provider.isDown {
                return Self.json(503, Self.error("the provider is down (an outage of the scenario's): nothing re-sent"))
            }
            return Self.json(404, Self.error("none of those positions is held (past the payload TTL, or never numbered)"))
        }
        // Answered once APNs answered what was re-sent, so it arrives after them.
        let id = nextRerequest
        nextRerequest += 1
        let resent = Array(provider.takeOutbox())
        for push in resent[..<queued] { send(push, rerequest: nil, over: outgoing, to: apns) }
        rerequests[id] = (answer, resent.count - queued)
        for push in resent[queued...] { send(push, rerequest: id, over: outgoing, to: apns) }
        return .later
    }

    /// `GET /`: where the run stands, the provider's counts so far (provider.csv's own
    /// columns, summed), the routes.
    /// - Complexity: O(l) in the device apps.
    func indexJSON() -> String {
        var totals = ProviderLaneCounts()
        for lane in provider.lanes { totals += lane.counts }
        return JSONText.object([
            ("phase", JSONText.string("\(phase)")), ("now", String(provider.now)), ("pushesInFlight", String(pushesInFlight)),
            ("rerequestsWaiting", String(rerequests.count)), ("waitingForServe", String(phase == .connecting || lostServe != nil)),
            ("serveReconnections", String(reconnections)), ("serveRestarts", String(restarts)),
            ("counts", JSONText.object(ProviderLaneCount.allCases.map { ($0.columnName, String(totals[$0])) })),
            ("routes", JSONText.array(ProviderRoute.allCases.map {
                JSONText.object([("route", JSONText.string($0.pattern)), ("answers", JSONText.string($0.summary))])
            })),
        ])
    }

    static func json(_ status: Int, _ text: String, extra: [Header] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("content-type", "application/json")] + extra, body: Array((text + "\n").utf8))
    }

    static func error(_ message: String) -> String { JSONText.object([("error", JSONText.string(message))]) }
}

/// A phone's call's JSON body, read by field.
struct CallBody {
    let object: JSONObject

    /// The integer at `key`, or nil (absent, not a number, not whole).
    func integer(_ key: String) -> Int64? {
        if case .number(let number)? = object[key]?.value, number.isInteger { number.int64Value } else { nil }
    }

    /// The string at `key`, or nil.
    func text(_ key: String) -> String? {
        if case .string(let text)? = object[key]?.value { text } else { nil }
    }
}
