import Base
import FakeAPNs
import Kernel
import Provider
import Simulator

/// A push on its way out of `pushsim provider`: which device app, the push as the
/// provider actor made it, and its attempt (0: the first try).
package struct OutgoingPush: Sendable, Equatable {
    package var lane: Int32
    package var push: PushNotification
    package var attempt: Int32
}

/// What the live provider's agenda carries: only its own retries (mail and outages are
/// its part of the lanes' timelines).
package enum ProviderMessage {
    /// A retry the provider actor asked for is due.
    case retryDue(lane: Int32, slot: PushSlot)
}

/// `pushsim provider`'s state: the simulation's `XivaProvider`, one per device app of the
/// scenario's population, fed through the kernel's agenda with its part of every lane's
/// timeline (mail, outages: `PopulationDraw(side: .provider)`, the same draws `run` makes
/// from the seed), with the phones' registrations and re-requests, and with APNs's answers.
/// What it sends waits in `outbox` for the service to put on the wire. No I/O here.
package struct LiveProvider {
    package let scenario: Scenario
    package let strategy: Strategy
    package let topics: [String]
    package let end: SimTime
    /// Everything due at or before it has happened.
    package internal(set) var now: SimTime = 0
    package internal(set) var lanes: [ProviderLane] = []
    /// Pushes made and not yet taken (`takeOutbox`).
    package internal(set) var outbox: [OutgoingPush] = []

    var agenda = Agenda<ProviderMessage, PopulationDraw>()
    var pool = PushPool()
    var effects = OwnedBuffer<ProviderEffect>()
    /// The device app whose provider's effects are being routed, and its answer to a re-request.
    var routedLane: Int32 = 0
    var rerequestAnswer = false
    let plan: StrategyPlan
    /// The lane of (device, app).
    var laneOf: [Int64: Int32] = [:]
    /// Device tokens by their hex text, and back.
    var tokenNumbers: [String: DeviceToken] = [:]
    var tokenTexts: [String] = []

    /// - Parameters:
    ///   - topics: the apps' topics by app index, as serve's `--topic`.
    ///   - end: the run's end (serve's).
    /// - Complexity: O(d × a) for d devices of a apps.
    package init(scenario: Scenario, strategy: Strategy, topics: [String], end: SimTime) {
        self.scenario = scenario
        self.strategy = strategy
        self.topics = topics
        self.end = min(end, scenario.duration)
        plan = StrategyPlan(strategy: strategy, scenario: scenario)
        var cut = scenario
        cut.duration = self.end
        let outages = OutageSchedule.draw(scenario.chain.provider.outages, seed: scenario.seed, horizon: cut.duration)
        let sources = LaneDraw.Sources(scenario: cut, outages: outages)
        var draws = ContiguousArray<LaneDraw>()
        for user in 0..<scenario.devices {
            let device = World.deviceTraits(chain: scenario.chain, seed: scenario.seed, user: user)
            for app in 0..<device.apps {
                let traits = UserTimeline.laneTraits(chain: scenario.chain, seed: scenario.seed, user: user, lane: app)
                draws.append(LaneDraw(sources: sources, seed: scenario.seed, user: user, lane: app, accounts: traits.accounts))
                laneOf[Self.key(Int32(user), Int32(app))] = Int32(lanes.count)
                lanes.append(ProviderLane(device: Int32(user), app: Int32(app),
                                          provider: XivaProvider(configuration: plan.provider)))
            }
        }
        agenda.start(drawing: PopulationDraw(draws: draws, side: .provider), window: 4096)
    }

    static func key(_ device: Int32, _ app: Int32) -> Int64 { Int64(device) << 32 | Int64(app) }

    /// The lane of device `device`'s app `app`, or nil.
    /// - Complexity: O(1).
    package func lane(device: Int64, app: Int64) -> Int32? {
        guard let device = Int32(exactly: device), let app = Int32(exactly: app) else { return nil }
        return laneOf[Self.key(device, app)]
    }

    /// The topic of app `app` on a device (as serve names it).
    /// - Complexity: O(1).
    package func topic(ofApp app: Int32) -> String { LivePopulation.topic(ofApp: app, among: topics) }

    /// When the provider's next own event is due (a mail, an outage's start or end, a
    /// retry); nil when none is left before the end.
    /// - Complexity: O(1) amortized.
    package mutating func nextTime() -> SimTime? {
        guard let time = agenda.nextTime(), time < end else { return nil }
        return max(time, now)
    }

    /// Plays everything due at or before `time` (not past the end).
    /// - Complexity: O(events due × log of the retries waiting).
    package mutating func advance(to time: SimTime) {
        let target = min(max(time, now), end)
        while let item = agenda.next(before: target + 1) {
            let at = agenda.now
            switch item {
            case .message(.retryDue(let lane, let slot)):
                let (push, attempt) = pool.take(slot)
                lanes[Int(lane)].provider.retryDue(push, attempt: attempt, at: at, into: &effects)
                route(lane: lane, at: at)
            case .occurrence(let occurrence):
                handle(occurrence.event, lane: occurrence.lane, at: at)
            }
        }
        now = target
    }

    /// Pushes made since the last time, for the service to send.
    /// - Complexity: O(pushes).
    package mutating func takeOutbox() -> [OutgoingPush] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    private mutating func handle(_ event: TimelineEvent, lane: Int32, at time: SimTime) {
        let index = Int(lane)
        switch event {
        case .mail(let folder):
            let message = Int32(truncatingIfNeeded: lanes[index].counts[.messages])
            lanes[index].counts[.messages] += 1
            lanes[index].provider.receiveMail(messageIndex: message, folderGeneration: folder, at: time, into: &effects)
            route(lane: lane, at: time)
        case .outage(let down):
            if down { lanes[index].provider.outageBegins() } else { lanes[index].provider.outageEnds() }
        case .backgroundPush:
            // `pushsim provider` sends the mail's pushes only (docs/provider.md): a scenario's
            // background stream is `run`'s, or your own provider's against serve.
            break
        case .deviceIDChange, .tokenRotation, .subscriptionChange, .connectivity, .launch, .steered:
            preconditionFailure("the provider draws only its own part of a lane")
        }
    }

    /// The device app registered `token` (hex) with the device id `deviceID` (hex) and its
    /// hash. The first registration makes the app's queue for that device id.
    /// - Complexity: O(1) amortized.
    package mutating func register(lane: Int32, token text: String, deviceID: String, deviceIDHash hash: UInt32) {
        let index = Int(lane)
        lanes[index].counts[.registrations] += 1
        let token = intern(text)
        if lanes[index].deviceID == nil {
            lanes[index].deviceID = deviceID
            var configuration = plan.provider
            configuration.template = PushTemplate(app: topic(ofApp: lanes[index].app), deviceID: deviceID,
                                                  alertTitle: plan.provider.template.alertTitle,
                                                  alertBody: plan.provider.template.alertBody,
                                                  numbered: plan.provider.template.numbered, tabulated: false)
            lanes[index].provider.reset(configuration: configuration, deviceIDHash: hash)
        }
        lanes[index].provider.register(token, deviceIDHash: hash, at: now)
    }

    /// The device app synced its folder subscriptions up to `generation`.
    /// - Complexity: O(1).
    package mutating func subscriptionsSynced(lane: Int32, generation: Int32) {
        lanes[Int(lane)].provider.subscriptionsSynced(generation: generation)
    }

    /// The extension asks for the `gap` positions before `position`. Answers whether
    /// something was re-sent (then the re-sent pushes are in `outbox`, after whatever was there).
    /// - Complexity: O(gap).
    package mutating func rerequest(lane: Int32, position: Int32, gap: Int32) -> Bool {
        let index = Int(lane)
        lanes[index].counts[.rerequests] += 1
        lanes[index].provider.receiveRerequest(lastPosition: position, gap: gap, invocation: 0, at: now, into: &effects)
        let ok = route(lane: lane, at: now)
        lanes[index].counts[ok ? .rerequestsServed : .rerequestErrors] += 1
        return ok
    }

    /// APNs answered `push`.
    /// - Complexity: O(1).
    package mutating func answered(_ push: OutgoingPush, _ response: APNsResponse) {
        lanes[Int(push.lane)].counts[response.isSuccess ? .accepted : .refusals] += 1
        lanes[Int(push.lane)].provider.receiveResponse(response, for: push.push, attempt: push.attempt, into: &effects)
        route(lane: push.lane, at: now)
    }

    /// `push` got no answer (the connection failed, or its time ran out).
    /// - Complexity: O(1).
    package mutating func sendFailed(_ push: OutgoingPush) {
        lanes[Int(push.lane)].counts[.noAnswers] += 1
        lanes[Int(push.lane)].provider.sendFailed(push.push, attempt: push.attempt, into: &effects)
        route(lane: push.lane, at: now)
    }

    /// Routes what lane `lane`'s provider answered (`EffectRouter`). Answers the re-request
    /// answer's `ok`, if one came.
    @discardableResult
    private mutating func route(lane: Int32, at time: SimTime) -> Bool {
        routedLane = lane
        rerequestAnswer = false
        var routed = 0
        while routed < effects.count {
            let effect = effects[routed]
            routed += 1
            EffectRouter.route(effect, at: time, through: &self)
        }
        effects.removeAll()
        // Its own again, should a copy of this value share it (`OwnedBuffer`).
        effects.makeUnique()
        return rerequestAnswer
    }

    /// Every mail and every attempt accounted once, for each device app: a mail was sent or
    /// dropped for one reason; an attempt was answered 200, answered otherwise, got no answer,
    /// or is on its way (`inFlight`, by lane). nil when the books balance, else what does not.
    /// - Complexity: O(l) in the device apps.
    package func accountingProblem(inFlight: [Int32: Int64]) -> String? {
        for (index, lane) in lanes.enumerated() {
            let c = lane.counts
            let dropped = c[.droppedNoToken] + c[.droppedStaleSubscription] + c[.droppedOutage]
            if c[.messages] != c[.sent] + dropped {
                return "device \(lane.device) app \(lane.app): \(c[.messages]) mails, but \(c[.sent]) sent and \(dropped) dropped"
            }
            let attempts = c[.sent] + c[.resent] + c[.retried]
            let travelling = inFlight[Int32(index)] ?? 0
            if attempts != c[.accepted] + c[.refusals] + c[.noAnswers] + travelling {
                return "device \(lane.device) app \(lane.app): \(attempts) requests sent, but \(c[.accepted]) accepted, "
                    + "\(c[.refusals]) refused, \(c[.noAnswers]) unanswered and \(travelling) on their way"
            }
        }
        return nil
    }

    mutating func intern(_ text: String) -> DeviceToken {
        if let token = tokenNumbers[text] { return token }
        let token = DeviceToken(Int32(tokenTexts.count))
        tokenNumbers[text] = token
        tokenTexts.append(text)
        return token
    }

    /// The hex text of a token the provider learned.
    /// - Complexity: O(1).
    package func text(of token: DeviceToken) -> String { tokenTexts[Int(token.rawValue)] }
}

/// The provider process is a lane for the router with only the provider in it: its
/// requests go out on the wire (`outbox`), its answer to a re-request is the HTTP answer,
/// and its books are each device app's counts.
extension LiveProvider: ProviderEffectLane {
    package mutating func sendToAPNs(_ push: PushNotification, attempt: Int32, at now: SimTime) {
        outbox.append(OutgoingPush(lane: routedLane, push: push, attempt: attempt))
    }

    package mutating func retry(_ push: PushNotification, attempt: Int32, due: SimTime) {
        agenda.send(.retryDue(lane: routedLane, slot: pool.park(push, attempt: attempt)), arrivingAt: due)
    }

    package mutating func answerRerequest(invocation: Int32, ok: Bool, at now: SimTime) { rerequestAnswer = ok }

    package mutating func note(_ note: ProviderNote, at now: SimTime) {
        let index = Int(routedLane)
        switch note {
        case .sent(let push, let isRetry): lanes[index].counts[isRetry ? .retried : push.isResend ? .resent : .sent] += 1
        case .retryScheduled, .rerequestAnswered: break
        case .positionsExpired(let count): lanes[index].counts[.positionsExpired] += Int64(count)
        case .failed(_, let failure, _):
            switch failure {
            case .rejected: lanes[index].counts[.rejected] += 1
            case .network: lanes[index].counts[.networkFailures] += 1
            case .outage: lanes[index].counts[.outageFailures] += 1
            }
        case .dropped(_, let reason, _):
            switch reason {
            case .noValidToken: lanes[index].counts[.droppedNoToken] += 1
            case .staleSubscription: lanes[index].counts[.droppedStaleSubscription] += 1
            case .outage: lanes[index].counts[.droppedOutage] += 1
            }
        }
    }
}

/// One device app as the live provider knows it.
package struct ProviderLane {
    package let device: Int32
    package let app: Int32
    /// The simulation's provider actor for this device app.
    package var provider: XivaProvider
    /// The device id of its first registration (nil: none yet).
    package var deviceID: String?
    package var counts = ProviderLaneCounts()
}
