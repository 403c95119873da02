import Base
import Device
import FakeAPNs
import Kernel
import Simulator

/// The scenario's population of phones on one live clock, behind one APNs: the
/// simulation's actors (`APNsServer`, `Phone`) fed through the kernel's agenda, as in a
/// simulated world, except that the provider is outside: its pushes arrive as requests
/// (`receive`), at the instant the clock reads, and APNs's answer goes back to it.
///
/// Every device app's own doings (connectivity, launches, token rotations, notification
/// settings) are drawn from the seed as the simulation draws them (`PopulationDraw`), so
/// one seed gives the same population on every start, and the same requests at the same
/// instants get the same answers.
///
/// Order within an instant: what is due at `t` (the agenda's key: zero-time messages, the
/// timeline, messages in flight) happens before a request that arrives at `t`.
///
/// With a provider to call (`ProviderLink`), the phones' registrations and re-requests
/// become `calls` for serve to send, and their outcomes come back through `answered`.
/// Under a clock that waits for them (`holdsClock`), the population stops at the instant
/// of a call until every call is answered: what arrives meanwhile (the re-sent pushes)
/// arrives at that instant, so the same answers give the same run.
package struct LivePopulation {
    package let scenario: Scenario
    package let strategy: Strategy
    /// The apps' topics (bundle ids), by app index on a device.
    package let topics: [String]
    /// When the run ends: nothing is drawn at or after it.
    package let end: SimTime

    package internal(set) var apns = APNsServer()
    package internal(set) var lanes: [DeviceApp] = []
    package internal(set) var tokens = DeviceTokens()
    package internal(set) var records: PushRecords
    /// The clock's reading: everything due at or before it has happened.
    package internal(set) var now: SimTime = 0
    /// Requests APNs received with a token of the population (the next serial).
    package internal(set) var serials: Int64 = 0
    /// Where the extension reads the provider's numbering and the mail's id.
    package let fields: ProviderFields
    /// The provider the phones call; nil: none (a re-request fails at once).
    package let link: ProviderLink?
    /// Calls made and not yet taken by serve (`takeCalls`).
    package internal(set) var calls: [ProviderCall] = []
    /// Calls made and not yet answered.
    package internal(set) var unanswered = 0
    /// Where the clock was asked to go while it waits for calls (nil: it is there).
    package internal(set) var pendingTarget: SimTime?
    /// With a link: the mail id (the payload's, -1: none) of each accepted request, by serial.
    var mailOfSerial: [Int32] = []
    /// Every steering action taken so far, in the order taken (`steer`, the scenario's `events`).
    package internal(set) var steerings: [SteeringRecord] = []
    /// Device apps of teams' own test tokens so far (`registerTestToken`): their devices follow the scenario's.
    package internal(set) var testDevices: Int32 = 0

    var agenda = Agenda<LiveMessage, PopulationDraw>()
    var pool = PushPool()
    var apnsEffects = OwnedBuffer<APNsEffect>()
    var deviceEffects = OwnedBuffer<DeviceEffect>()
    let plan: StrategyPlan
    /// What the router draws delays, footprints and taps from.
    package let draws: ChainDraws
    /// The device app whose phone's effects are being routed.
    package internal(set) var routedLane: Int32 = 0

    /// Devices and their apps, at time 0: installed, registered, online or not as drawn.
    /// - Parameters:
    ///   - strategy: whose app (its extension and registration policy) the phones run.
    ///   - topics: each app's topic, by app index; apps beyond the list get `app<n>.<last>`.
    ///   - end: the run's end (at most the scenario's duration).
    ///   - recordsKept: accepted requests remembered for the API (`PushRecords`).
    /// - Complexity: O(d × a) for d devices of a apps.
    package init(scenario: Scenario, strategy: Strategy, topics: [String], end: SimTime, recordsKept: Int = 1 << 16,
                 fields: ProviderFields = .xiva, link: ProviderLink? = nil) {
        self.scenario = scenario
        self.fields = fields
        self.link = link
        self.strategy = strategy
        self.topics = topics
        self.end = min(end, scenario.duration)
        records = PushRecords(capacity: recordsKept)
        plan = StrategyPlan(strategy: strategy, scenario: scenario)
        draws = ChainDraws(scenario)
        let seed = scenario.seed
        let chain = scenario.chain
        // The storage coin is each device app's own (`DeviceApp.apnsCoin`), lent around each call.
        apns.reset(configuration: plan.apns, seed: 0)

        var cut = scenario
        cut.duration = self.end
        let sources = LaneDraw.Sources(scenario: cut, outages: [[]])
        var draws = ContiguousArray<LaneDraw>()
        var startsOnline: [Bool] = []
        for user in 0..<scenario.devices {
            let device = World.deviceTraits(chain: chain, seed: seed, user: user)
            let online = sources.startsOnline(seed: seed, user: user)
            let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(device.deviceID))
            for app in 0..<device.apps {
                let traits = UserTimeline.laneTraits(chain: chain, seed: seed, user: user, lane: app)
                draws.append(LaneDraw(sources: sources, seed: seed, user: user, lane: app, accounts: traits.accounts))
                let lane = Int32(lanes.count)
                // Seeded as a world seeds its APNs for this device app.
                var apnsChoice = RandomStream.apnsChoice.generator(seed: seed, user: UInt64(user), lane: app)
                let token = tokens.issue(seed: seed, user: user, app: app, rotation: 0, lane: lane)
                let configuration = plan.phoneConfiguration(device: device, alertsNotAllowed: traits.alertsNotAllowed,
                                                            displayOff: traits.displayOff, reportsSavedPosition: false, copyBounds: nil)
                var deviceApp = DeviceApp(device: Int32(user), app: Int32(app),
                                          phone: Phone(configuration: configuration, token: token, deviceID: device.deviceID,
                                                       deviceIDHash: hash),
                                          streams: LaneStreams(seed: seed, user: user, app: app),
                                          apnsCoin: SplitMix64(seed: apnsChoice.next()))
                // Installed and registered before the run starts.
                deviceApp.tokens = [token]
                deviceApp.counts[.registrations] += 1
                if link != nil {
                    calls.append(ProviderCall(lane: lane, kind: .register(token: token, deviceID: device.deviceID, deviceIDHash: hash,
                                                                          atInstall: true)))
                    unanswered += 1
                }
                apns.register(token)
                apns.setNotificationsEnabled(token, !traits.notificationsDisabled)
                lanes.append(deviceApp)
                startsOnline.append(online)
            }
        }
        agenda.start(drawing: PopulationDraw(draws: draws), window: 4096)
        for lane in lanes.indices {
            lanes[lane].phone.setOnline(startsOnline[lane], at: 0, into: &deviceEffects)
            routeDeviceEffects(lane: Int32(lane), at: 0)
            if let rollout = strategy.rollout {
                var random = RandomStream.appUpdate.generator(seed: seed, user: UInt64(lanes[lane].device),
                                                              lane: Int(lanes[lane].app))
                let update = plan.rolloutFrom + rollout.adoption.sample(&random)
                if update < self.end { agenda.send(.appUpdateReachesDevice(lane: Int32(lane)), arrivingAt: update) }
            }
        }
        pendingTarget = 0
        resume()
    }

    /// The topic of app `app` on a device.
    /// - Complexity: O(1).
    package func topic(ofApp app: Int32) -> String { Self.topic(ofApp: app, among: topics) }

    /// The topic of app `app` given `--topic`'s list: serve and the provider name apps alike.
    /// - Complexity: O(1).
    package static func topic(ofApp app: Int32, among topics: [String]) -> String {
        let index = Int(app)
        if index < topics.count { return topics[index] }
        return "\(topics.last ?? "com.example.app").app\(index + 1)"
    }

    /// The topic of each app index the population holds, as `GET /` tells it.
    /// - Complexity: O(lanes).
    package var appTopics: [String] { Self.topics(ofApps: lanes.lazy.map(\.app), among: topics) }

    /// The topic of each app index up to the largest in `apps`: what serve and the provider
    /// compare, so that two `--topic` lists naming the apps alike agree.
    /// - Complexity: O(apps).
    package static func topics(ofApps apps: some Sequence<Int32>, among topics: [String]) -> [String] {
        (0..<((apps.max() ?? -1) + 1)).map { topic(ofApp: $0, among: topics) }
    }

    /// Moves the clock to `time` (not before `now` or where it was already asked to go, not
    /// past `end`): everything due at or before it happens, unless the clock holds for
    /// calls: then it stops at the instant of a call (`pendingTarget` stays set) and goes on
    /// once they are answered.
    /// - Complexity: O(events due × log of the messages in flight).
    package mutating func advance(to time: SimTime) {
        pendingTarget = min(max(time, now, pendingTarget ?? now), end)
        resume()
    }

    /// Whether the clock stands still for unanswered calls.
    package var isHolding: Bool { link?.holdsClock == true && unanswered > 0 }

    /// Goes on toward `pendingTarget` as far as unanswered calls let it.
    mutating func resume() {
        guard let target = pendingTarget else { return }
        drain(before: target + 1)
        if isHolding {
            now = max(now, agenda.now)
        } else {
            now = target
            pendingTarget = nil
        }
    }

    /// Calls made since the last time, for serve to send.
    /// - Complexity: O(calls).
    package mutating func takeCalls() -> [ProviderCall] {
        defer { calls.removeAll(keepingCapacity: true) }
        return calls
    }

    /// A call came back: `ok` when the provider answered 2xx. A re-request's answer reaches
    /// the extension now; the clock goes on when nothing else is awaited.
    /// - Complexity: O(1), plus the events it lets happen.
    package mutating func answered(_ call: ProviderCall, ok: Bool) {
        precondition(unanswered > 0, "an answer to no call")
        unanswered -= 1
        let lane = Int(call.lane)
        switch call.kind {
        case .register:
            if !ok {
                lanes[lane].counts[.registrationFailures] += 1
                lanes[lane].note(.registrationNotTaken, message: nil, at: now)
            }
        case .subscriptions:
            break
        case .rerequest(let invocation, _, _, _, _, _):
            if !ok {
                lanes[lane].counts[.rerequestErrors] += 1
                lanes[lane].note(.rerequestFailed, message: nil, at: now)
            }
            agenda.send(.answerReachesDevice(lane: call.lane, invocation: invocation, ok: ok), arrivingAt: now)
        }
        if pendingTarget != nil { resume() } else { drain(before: now + 1) }
    }

    /// Plays every item due before `limit`, stopping after one that made a call the clock waits for.
    mutating func drain(before limit: SimTime) {
        while !isHolding, let item = agenda.next(before: limit) {
            switch item {
            case .message(let message): handle(message, at: agenda.now)
            case .occurrence(let occurrence): handle(occurrence.event, lane: occurrence.lane, at: agenda.now)
            }
        }
    }

    /// A request for `token` reaches APNs now (after `APNsWireRequest.parse` and the
    /// checks that need the provider's credentials and the token's topic). Answers what
    /// APNs answers; an accepted push goes its way through the population.
    /// - Complexity: O(n) in the payload, plus the events it causes.
    package mutating func receive(_ request: APNsWireRequest, token: DeviceToken, apnsID: String) -> APNsResponse {
        let lane = tokens.lane(of: token)
        let serial = serials
        serials += 1
        let alert = AlertText(payload: request.payload)
        let reading = fields.read(request.payload)
        if link != nil { mailOfSerial.append(reading.message ?? -1) }
        let expiration: Expiration = switch request.expiration {
        case .absent: .absent
        case .immediately: .immediately
        case .epochSeconds(let seconds): .at(LiveClock.simulatedTime(epochSeconds: seconds, start: scenario.start))
        }
        let push = PushNotification(token: token, pushType: request.pushType, priority: request.priority, expiration: expiration,
                                    collapseID: request.collapseID.map(CollapseID.init),
                                    payload: PushPayload(messageIndex: PushRecords.messageIndex(serial),
                                                         mutableContent: alert.mutableContent, hasAlert: alert.hasAlert,
                                                         fromProvider: reading.fromProvider, xiva: reading.xiva,
                                                         byteCount: Int32(request.payload.count)))
        lanes[Int(lane)].counts[.requests] += 1
        // A wall-clock expiration read on a simulated clock elsewhere: said aloud, answered as APNs answers.
        let expiredOnArrival = if case .at(let instant) = expiration, instant < now { true } else { false }
        if expiredOnArrival { lanes[Int(lane)].counts[.expiredOnArrival] += 1 }
        lendCoin(of: lane)
        let response = apns.receive(push, at: now, into: &apnsEffects)
        returnCoin(to: lane)
        if request.pushType == .background { lanes[Int(lane)].background[.sent] += 1 }
        if let reason = response.reason {
            if request.pushType == .background { lanes[Int(lane)].background[.rejected] += 1 }
            lanes[Int(lane)].counts[.rejected] += 1
            lanes[Int(lane)].rejections[reason.index] += 1
        } else {
            lanes[Int(lane)].counts[.accepted] += 1
            records.keep(PushRecord(serial: serial, apnsID: apnsID, acceptedAt: now, lane: lane, title: alert.title,
                                    body: alert.body, collapseID: request.collapseID, priority: request.priority,
                                    expiredOnArrival: expiredOnArrival))
            if expiredOnArrival { lanes[Int(lane)].note(.arrivedExpired, message: PushRecords.messageIndex(serial), at: now) }
        }
        routeAPNsEffects(at: now)
        drain(before: now + 1)
        return response
    }

    /// Before a call into APNs for `lane`'s token: APNs tosses its storage coin from `lane`'s
    /// own stream, as a world's APNs, which holds one device app, does, so two close pushes
    /// keep the same one as in `run`.
    /// - Complexity: O(1).
    mutating func lendCoin(of lane: Int32) { apns.storageCoin = lanes[Int(lane)].apnsCoin }

    /// After the call: keeps where `lane`'s stream got to.
    /// - Complexity: O(1).
    mutating func returnCoin(to lane: Int32) { lanes[Int(lane)].apnsCoin = apns.storageCoin }

    /// A request for `token` refused before it reached APNs's storage (its credentials or topic).
    /// - Complexity: O(1).
    package mutating func refused(_ token: DeviceToken, _ reason: APNsReason) {
        let lane = Int(tokens.lane(of: token))
        lanes[lane].counts[.requests] += 1
        lanes[lane].counts[.rejected] += 1
        lanes[lane].rejections[reason.index] += 1
    }

    /// Pushes travelling between APNs and a phone of `lane` (delivered, not yet arrived, or bouncing back).
    /// - Complexity: O(m) in the messages waiting.
    package func travelling(lane: Int32) -> Int64 {
        Int64(agenda.countMessages { message in
            switch message {
            case .pushReachesDevice(let slot), .bounceReachesAPNs(let slot): tokens.lane(of: pool[slot].token) == lane
            case .connectionReachesAPNs, .disconnectionReachesAPNs, .tokenChangeReachesAPNs, .powerWindowOpens,
                 .answerReachesDevice, .extensionDeadline, .appUpdateReachesDevice, .tapped, .steered:
                false
            }
        })
    }

    /// Notifications APNs holds for `lane`'s tokens: the offline slot and the power batch.
    /// - Complexity: O(t + k) in the lane's tokens and what they hold.
    package func held(lane: Int32) -> [PushNotification] {
        var held: [PushNotification] = []
        for token in lanes[Int(lane)].tokens {
            if let stored = apns.storedNotification(for: token) { held.append(stored) }
            held += apns.powerBatch(for: token)
        }
        return held
    }

    /// Every push accounted once: for each device app, what APNs accepted was delivered,
    /// dropped for one reason, or is still held or travelling; what was delivered was shown,
    /// not shown, or waits in the extension. nil when the books balance, else what does not.
    /// - Complexity: O(t + m + l) for t tokens, m messages waiting and l lanes.
    package func accountingProblem() -> String? {
        var travellingByLane = [Int64](repeating: 0, count: lanes.count)
        _ = agenda.countMessages { message in
            switch message {
            case .pushReachesDevice(let slot), .bounceReachesAPNs(let slot):
                travellingByLane[Int(tokens.lane(of: pool[slot].token))] += 1
            case .connectionReachesAPNs, .disconnectionReachesAPNs, .tokenChangeReachesAPNs, .powerWindowOpens,
                 .answerReachesDevice, .extensionDeadline, .appUpdateReachesDevice, .tapped, .steered:
                break
            }
            return false
        }
        for (index, lane) in lanes.enumerated() {
            let c = lane.counts
            let ended = c[.delivered] + c[.coalesced] + c[.expired] + c[.discardedUnregistered] + c[.discardedDisabled]
            let held = Int64(self.held(lane: Int32(index)).count)
            if c[.accepted] != ended + held + travellingByLane[index] {
                return "device \(lane.device) app \(lane.app): APNs accepted \(c[.accepted]), but \(ended) were delivered or "
                    + "dropped, \(held) are held and \(travellingByLane[index]) travelling"
            }
            let background = lane.background[.received]
            if c[.delivered] != c[.shown] + c[.notShown] + Int64(lane.phone.waitingInvocations) + background {
                return "device \(lane.device) app \(lane.app): \(c[.delivered]) delivered, but \(c[.shown]) shown, "
                    + "\(c[.notShown]) not shown, \(lane.phone.waitingInvocations) in the extension and \(background) "
                    + "handed to the app in the background"
            }
            if c[.requests] != c[.accepted] + c[.rejected] {
                return "device \(lane.device) app \(lane.app): \(c[.requests]) requests, \(c[.accepted]) accepted, "
                    + "\(c[.rejected]) rejected"
            }
        }
        return nil
    }
}

extension APNsReason {
    /// The reason's place in `allCases`, for per-reason counts.
    package var index: Int { Int(rawValue) }
}
