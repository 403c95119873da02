import Base
import FakeAPNs
import Simulator
import Transport

/// serve's APNs faults: the scenario's (`apns.faults`, on the simulated clock; random ones per
/// block of users as `run` draws them, the block of the device a request's token belongs to, so
/// serve with `pushsim provider` counts what `run` counts) and one a test starts with
/// `POST /faults`, which stands over the scenario's while it lasts. What each kind does to the
/// request on the wire is `ServeService.answerUnderFault`; the counts are per kind.
struct ServeFaults {
    /// The scenario's schedule.
    let schedule: APNsFaultSchedule
    /// Whether the scenario names random faults: then each block of users has its own history.
    let perBlock: Bool
    private let slowLatency: Sampler
    /// A fault started on the control API: its kind and when it stops (nil: at `{"stop": true}`).
    var started: (kind: APNsFaultKind, until: SimTime?)?
    /// Requests that met each kind, by raw value.
    var requests = [Int64](repeating: 0, count: APNsFaultKind.allCases.count)
    /// Where slow answers draw their time from.
    private var random: SplitMix64
    /// Connections told to go away or close this turn: their later requests are left unanswered
    /// (the GOAWAY names a stream below them), not answered as if nothing happened.
    var leaving: Set<Int> = []
    /// How long a connection must have been idle for an `idleClosed` fault to close it, on the
    /// machine's clock: a connection just opened for a push is not idle.
    static let idleAfter = Duration.seconds(1)
    /// Answers held for a slow fault, with the instant each is due on the machine's clock.
    var held: [(due: ContinuousClock.Instant, answer: LaterAnswer, response: HTTPResponse)] = []

    /// - Complexity: O(w log w) in the scenario's windows.
    init(scenario: Scenario) {
        let model = scenario.chain.apns.faults
        schedule = APNsFaultSchedule(model, seed: scenario.seed, horizon: scenario.duration)
        perBlock = schedule.blocks.count > 1
        slowLatency = Sampler(model?.slowLatency ?? .constant(0))
        random = RandomStream.apnsFaultLatency.generator(seed: scenario.seed, user: 0)
    }

    /// The kind in force at `now` for the users of block `block` (`block` is asked only when
    /// the blocks differ): the started one while it lasts, else the scenario's.
    /// - Complexity: O(log s) in the scenario's segments, plus `block`'s.
    func kind(at now: SimTime, block: () -> Int = { 0 }) -> APNsFaultKind? {
        if let started, started.until.map({ now < $0 }) ?? true { return started.kind }
        return APNsFaultSchedule.kind(at: now, in: schedule.segments(block: perBlock ? block() : 0))
    }

    /// How long a slow answer is held, on the machine's clock (a provider's timeouts run on it).
    /// - Complexity: O(1).
    mutating func drawSlowLatency() -> Duration { .microseconds(slowLatency.sample(&random)) }
}

extension ServeService {
    /// Answers an APNs request, unless a fault is in force: then as that fault says.
    /// - Complexity: that of `answerAPNs`.
    func answerAPNsUnderFaults(_ request: HTTPRequest) -> HTTPResponse {
        guard let kind = faults.kind(at: population.now, block: { faultBlock(of: request) }) else { return answerAPNs(request) }
        // A request after this connection's GOAWAY (sent in the same read): above its last stream, never answered.
        if faults.leaving.contains(request.connection) { return .later }
        faults.requests[Int(kind.rawValue)] += 1
        let apnsID = request.value("apns-id") ?? makeAPNsID()
        switch kind {
        case .internalServerError, .serviceUnavailable:
            return answer(.failure(kind.answer!), apnsID: apnsID)
        case .shutdown:
            // The answer, then GOAWAY naming this stream: the requests after it go elsewhere.
            connectionOrders?.give(.goAway(connection: request.connection, lastStream: request.stream))
            faults.leaving.insert(request.connection)
            return answer(.failure(.shutdown), apnsID: apnsID)
        case .goaway:
            // Not processed: GOAWAY names the stream before this one, so the client sends it again.
            connectionOrders?.give(.goAway(connection: request.connection, lastStream: max(0, request.stream - 2)))
            faults.leaving.insert(request.connection)
            return .later
        case .connectionClosed:
            connectionOrders?.give(.close(connection: request.connection))
            faults.leaving.insert(request.connection)
            return .later
        case .slow:
            let response = answerAPNs(request)
            faults.held.append((ContinuousClock.now + faults.drawSlowLatency(), request.laterAnswer, response))
            return .later
        case .idleClosed:
            // Answered; the connection is closed once idle for `idleAfter` (`tick`).
            return answerAPNs(request)
        }
    }

    /// The block of users (`UserBlocks`) of the device whose token `request` names; 0 for a
    /// path that names none of the population's.
    /// - Complexity: O(1).
    func faultBlock(of request: HTTPRequest) -> Int {
        let prefix = "/3/device/"
        guard request.path.hasPrefix(prefix) else { return 0 }
        let digits = Array(request.path.utf8.dropFirst(prefix.utf8.count).prefix(64))
        guard digits.count == 64 else { return 0 }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {
            guard let high = ASCII.hexValue(digits[2 * index]), let low = ASCII.hexValue(digits[2 * index + 1]) else { return 0 }
            bytes[index] = UInt8(high << 4 | low)
        }
        guard let token = population.tokens.token(bytes) else { return 0 }
        return UserBlocks.block(of: Int(population.lanes[Int(population.tokens.lane(of: token))].device))
    }

    /// What each turn does for the faults: the slow answers that are due are given, and under
    /// `idleClosed` the idle connections closed. Answers how long the loop may sleep (nil: no limit).
    /// - Complexity: O(h) in the answers held.
    func tickFaults() -> Duration? {
        faults.leaving.removeAll(keepingCapacity: true)
        let slow = releaseSlowAnswers()
        guard faults.kind(at: population.now) == .idleClosed else { return slow }
        connectionOrders?.give(.closeIdle(listener: apnsListener, idleFor: ServeFaults.idleAfter))
        return min(slow ?? .milliseconds(100), .milliseconds(100))
    }

    /// Gives the slow answers that are due; answers how long until the next one (nil: none held).
    /// - Complexity: O(h) in the answers held.
    func releaseSlowAnswers() -> Duration? {
        guard !faults.held.isEmpty else { return nil }
        let now = ContinuousClock.now
        var next: Duration?
        faults.held.removeAll { held in
            guard held.due <= now else {
                next = min(next ?? .seconds(3600), now.duration(to: held.due))
                return false
            }
            laterAnswers?.answer(held.answer, with: held.response)
            return true
        }
        return next
    }

    /// `GET /faults`: what is in force now, the fault started on the control API, and the
    /// requests that met each kind so far.
    func faultsJSON() -> String {
        let inForce = faults.kind(at: population.now)
        let started = faults.started.map { started in
            JSONText.object([("kind", JSONText.string(started.kind.name)),
                             ("until", JSONText.optional(started.until, time))])
        } ?? "null"
        // The first block's: the scenario's scheduled windows are every block's.
        let scheduled = APNsFaultSchedule.kind(at: population.now, in: faults.schedule.segments(block: 0))
        return JSONText.object([
            ("now", time(population.now)),
            ("inForce", JSONText.optional(inForce.map(\.name), JSONText.string)),
            ("started", started),
            ("scenario", JSONText.optional(scheduled.map(\.name), JSONText.string)),
            ("requests", JSONText.object(APNsFaultKind.allCases.map { ($0.name, String(faults.requests[Int($0.rawValue)])) })),
        ])
    }

    /// `POST /faults`: `{"kind": k}` or `{"kind": k, "seconds": s}` starts fault `k` now (for
    /// `s` simulated seconds, else until stopped); `{"stop": true}` stops the one started.
    func startOrStopFault(_ request: HTTPRequest) -> HTTPResponse {
        guard let root = try? JSONParser.parse(request.body), case .object(let object) = root.value else {
            return ControlAPI.error(400, Self.faultBodyExpected)
        }
        if object.members.count == 1, case .bool(true)? = object["stop"]?.value {
            faults.started = nil
            return ControlAPI.json(200, faultsJSON())
        }
        guard object.members.allSatisfy({ ["kind", "seconds"].contains($0.key) }),
              case .string(let name)? = object["kind"]?.value else {
            return ControlAPI.error(400, Self.faultBodyExpected)
        }
        guard let kind = APNsFaultKind(name: name) else {
            return ControlAPI.error(400, "unknown fault kind \(UserText.quote(name)); the kinds are "
                                    + APNsFaultKind.allCases.map(\.name).joined(separator: ", "))
        }
        var until: SimTime?
        if let seconds = object["seconds"] {
            guard case .number(let number) = seconds.value, number.doubleValue > 0,
                  number.doubleValue <= Self.clockBoundSeconds else {
                return ControlAPI.error(400, "seconds is a number above 0 and at most 315576000 (ten years)")
            }
            until = population.now + SimTime((number.doubleValue * Double(TimeUnit.second)).rounded(.up))
        }
        faults.started = (kind, until)
        return ControlAPI.json(200, faultsJSON())
    }

    static let faultBodyExpected = "expected {\"kind\": k}, {\"kind\": k, \"seconds\": s} or {\"stop\": true}; the kinds are "
        + APNsFaultKind.allCases.map(\.name).joined(separator: ", ")
}
