import Base
import Device
import FakeAPNs
import Foundation
import Provider
@testable import Simulator
import TestSupport
import Testing

/// A lane that records what the router asks of it, for run, serve and provider alike.
private struct RecordingLane: ProviderEffectLane, APNsEffectLane, DeviceEffectLane {
    enum Message: DeviceAppMessage, Equatable {
        case connection(DeviceToken), disconnection(DeviceToken), bounce(PushSlot), tokenChange(DeviceToken, DeviceToken)
        case power(DeviceToken), delivery(PushSlot), deadline(lane: Int32, invocation: Int32), tap(lane: Int32, message: Int32)
        static func connectionReachesAPNs(_ token: DeviceToken) -> Self { .connection(token) }
        static func disconnectionReachesAPNs(_ token: DeviceToken) -> Self { .disconnection(token) }
        static func bounceReachesAPNs(_ slot: PushSlot) -> Self { .bounce(slot) }
        static func tokenChangeReachesAPNs(old: DeviceToken, new: DeviceToken) -> Self { .tokenChange(old, new) }
        static func powerWindowOpens(_ token: DeviceToken) -> Self { .power(token) }
        static func pushReachesDevice(_ slot: PushSlot) -> Self { .delivery(slot) }
        static func extensionDeadline(lane: Int32, invocation: Int32) -> Self { .deadline(lane: lane, invocation: invocation) }
        static func tapped(lane: Int32, messageIndex: Int32) -> Self { .tap(lane: lane, message: messageIndex) }
    }

    let draws: ChainDraws
    var streams = LaneStreams(seed: 7, user: 3, app: 1)
    var routedLane: Int32 = 5
    var end: SimTime = 10 * TimeUnit.day
    /// Whether `presented` answers "first showing".
    var firstShowing = true
    var sent: [(Message, SimTime)] = []
    var parked: [PushNotification] = []
    var toAPNs: [(PushNotification, Int32)] = []
    var retries: [SimTime] = []
    var answers: [Bool] = []
    var providerNotes: [ProviderNote] = []
    var deviceNotes: [DeviceNote] = []
    var calls: [PhoneCall] = []
    var losses: [LossReason] = []

    init(_ scenario: Scenario) { draws = ChainDraws(scenario) }

    mutating func send(_ message: Message, arrivingAt time: SimTime) { sent.append((message, time)) }
    mutating func sendNow(_ message: Message) { sent.append((message, -1)) }
    mutating func park(_ push: PushNotification, attempt: Int32) -> PushSlot {
        parked.append(push)
        return PushSlot(parked.count - 1)
    }
    mutating func deliveryDelay(for token: DeviceToken) -> SimDuration { draws.apnsToDevice.sample(&streams.apnsLatency) }
    mutating func powerDelay(for token: DeviceToken) -> SimDuration { draws.powerDelay(&streams.power) }
    mutating func tapDelay() -> SimDuration? { draws.tap(&streams.tap) }
    mutating func discarded(_ push: PushNotification, _ reason: APNsDiscardReason, loss: LossReason, at now: SimTime) {
        losses.append(loss)
    }
    mutating func sendToAPNs(_ push: PushNotification, attempt: Int32, at now: SimTime) { toAPNs.append((push, attempt)) }
    mutating func retry(_ push: PushNotification, attempt: Int32, due: SimTime) { retries.append(due) }
    mutating func answerRerequest(invocation: Int32, ok: Bool, at now: SimTime) { answers.append(ok) }
    mutating func note(_ note: ProviderNote, at now: SimTime) {
        providerNotes.append(note)
        switch note {
        case .failed(_, _, let loss), .dropped(_, _, let loss): losses.append(loss)
        case .sent, .retryScheduled, .rerequestAnswered, .positionsExpired: break
        }
    }
    mutating func callProvider(_ call: PhoneCall, at now: SimTime) { calls.append(call) }
    mutating func presented(messageIndex: Int32, isResend: Bool, replacedExisting: Bool, run: ExtensionRun, at now: SimTime) -> Bool {
        firstShowing
    }
    mutating func note(_ note: DeviceNote, at now: SimTime) {
        deviceNotes.append(note)
        if case .notShown(_, _, let loss) = note { losses.append(loss) }
    }
}

@Suite("the one router: which message, after which drawn delay, and which loss each effect becomes")
struct EffectRouterTests {
    static let scenario = WorldFixtures.twoStates(
        perDay: 10, onMean: "1h", offMean: "1h", devices: 1, days: 10,
        extra: #""latency": { "apnsToDevice": "2s" }, "apns": { "priority5Deferral": "40s" }, "device": { "taps": { "probability": 1, "delay": "30s" } },"#,
        strategies: #"{ "name": "queue" }"#)
    static let token = DeviceToken(4)
    static func push(_ message: Int32 = 9) -> PushNotification {
        PushNotification(token: token, payload: PushPayload(messageIndex: message, byteCount: 100))
    }

    @Test("APNs: a delivery parks the push and reaches the device after the scenario's latency; power waits its deferral; each discard is its one loss")
    func apnsEffects() {
        var lane = RecordingLane(Self.scenario)
        let now: SimTime = 1_000
        EffectRouter.route(.deliver(Self.push()), at: now, through: &lane)
        EffectRouter.route(.deferForPower(Self.token), at: now, through: &lane)
        #expect(lane.parked.count == 1)
        #expect(lane.sent.map(\.0) == [.delivery(0), .power(Self.token)])
        #expect(lane.sent.map(\.1) == [now + 2 * TimeUnit.second, now + 40 * TimeUnit.second])
        for reason in APNsDiscardReason.allCases { EffectRouter.route(.discard(Self.push(), reason), at: now, through: &lane) }
        #expect(lane.losses.count == APNsDiscardReason.allCases.count)
        #expect(Dictionary(uniqueKeysWithValues: zip(APNsDiscardReason.allCases, lane.losses))
            == [.replaced: .apnsCoalesced, .expired: .apnsExpired, .unregistered: .unregistered, .disabled: .disabled])
    }

    @Test("the provider: sends and retries leave for APNs with their attempt; a retry is due after its back-off; each failure is its one loss")
    func providerEffects() {
        var lane = RecordingLane(Self.scenario)
        let now: SimTime = 5_000
        EffectRouter.route(.send(Self.push()), at: now, through: &lane)
        EffectRouter.route(.sendRetry(Self.push(), attempt: 2), at: now, through: &lane)
        EffectRouter.route(.retry(Self.push(), attempt: 1, after: 700), at: now, through: &lane)
        EffectRouter.route(.answer(invocation: 3, ok: false), at: now, through: &lane)
        #expect(lane.toAPNs.map(\.1) == [0, 2])
        #expect(lane.retries == [now + 700])
        #expect(lane.answers == [false])
        let failures: [ProviderFailure] = [.rejected(.failure(.unregistered, timestamp: 1)), .rejected(.failure(.tooManyRequests)),
                                           .rejected(.failure(.payloadTooLarge)), .rejected(.failure(.serviceUnavailable)),
                                           .network, .outage]
        for failure in failures { EffectRouter.route(.failed(Self.push(), failure), at: now, through: &lane) }
        for drop in ProviderDropReason.allCases { EffectRouter.route(.dropped(messageIndex: 9, drop), at: now, through: &lane) }
        #expect(lane.losses == [.unregistered, .rateLimited, .apnsRejected, .apnsRejected, .providerNetwork, .providerOutage]
            + ProviderDropReason.allCases.map { LossReason($0) })
        #expect(ProviderDropReason.allCases.map { LossReason($0) } == [.unregistered, .staleSubscription, .providerOutage])
    }

    @Test("the phone: a first showing is tapped after the drawn delay, a later one or one past the end is not; a bounce returns the handed-over slot")
    func deviceEffects() {
        var lane = RecordingLane(Self.scenario)
        let now: SimTime = 60 * TimeUnit.second
        #expect(!EffectRouter.route(.presented(messageIndex: 9, isResend: false, replacedExisting: false, run: .ran), handedOver: 4, at: now, through: &lane))
        #expect(lane.sent.map(\.0) == [.tap(lane: 5, message: 9)])
        #expect(lane.sent.map(\.1) == [now + 30 * TimeUnit.second])
        lane.firstShowing = false
        _ = EffectRouter.route(.presented(messageIndex: 9, isResend: false, replacedExisting: false, run: .ran), handedOver: -1, at: now, through: &lane)
        lane.firstShowing = true
        lane.end = now + 10 * TimeUnit.second
        _ = EffectRouter.route(.presented(messageIndex: 10, isResend: false, replacedExisting: false, run: .ran), handedOver: -1, at: now, through: &lane)
        #expect(lane.sent.count == 1)
        #expect(EffectRouter.route(.deliveryFailed, handedOver: 4, at: now, through: &lane))
        #expect(lane.sent.last?.0 == .bounce(4))
        _ = EffectRouter.route(.startDeadline(invocation: 2, after: 30 * TimeUnit.second), handedOver: -1, at: now, through: &lane)
        #expect(lane.sent.last?.0 == .deadline(lane: 5, invocation: 2))
        _ = EffectRouter.route(.rerequest(position: 7, gap: 2, invocation: 2), handedOver: -1, at: now, through: &lane)
        _ = EffectRouter.route(.registered(Self.token, deviceIDHash: 11), handedOver: -1, at: now, through: &lane)
        #expect(lane.calls.count == 2)
        _ = EffectRouter.route(.notShown(messageIndex: 9, .displayOff), handedOver: -1, at: now, through: &lane)
        #expect(lane.losses == [.displayOff])
    }

    @Test("only the router switches over the actors' effects to route them (the trace recorder only observes them)")
    func oneRouter() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        // A case of each actor's effect that only a switch routing it would name.
        let routingCases = ["case .deliver(", "case .deferForPower(", "case .sendRetry(", "case .startDeadline(",
                            "case .presented(", "case .rerequestAnswerMissed", "case .deliveryFailed"]
        let allowed: Set<String> = ["Simulator/Engine/EffectRouter.swift", "Simulator/Trace/TraceRecorder.swift"]
        var offenders: [String] = []
        for case let file as String in walker where file.hasSuffix(".swift") && !allowed.contains(file) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for routingCase in routingCases where text.contains(routingCase) { offenders.append("\(file): \(routingCase)") }
        }
        #expect(offenders == [])
    }
}
