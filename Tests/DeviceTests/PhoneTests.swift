@testable import Base
@testable import Device
@testable import FakeAPNs
import Testing

private let token = DeviceToken(2)
private let deviceID: UInt64 = 42
private let hash: UInt32 = 0xcafe_f00d
private let second = TimeUnit.second

/// A numbered push for this phone; the collapse id follows the position unless told otherwise.
private func push(_ position: Int32, collapse: Bool = true, mutableContent: Bool = true,
                  hasAlert: Bool = true) -> PushNotification {
    PushNotification(token: token, collapseID: collapse ? CollapseID("queue/\(position)") : nil,
                     payload: PushPayload(messageIndex: 100 + position, mutableContent: mutableContent,
                                          hasAlert: hasAlert,
                                          xiva: XivaInfo(position: position, deviceIDHash: hash), byteCount: 300))
}

/// A push numbered for another device-id hash (the provider's, before it learns a new id).
private func push(_ position: Int32, hash pushHash: UInt32) -> PushNotification {
    PushNotification(token: token, collapseID: CollapseID("queue/\(position)"),
                     payload: PushPayload(messageIndex: 100 + position,
                                          xiva: XivaInfo(position: position, deviceIDHash: pushHash), byteCount: 300))
}

/// A phone's configuration for these tests: an app with nothing unusual unless told
/// (the engine names every field: `StrategyPlan.phoneConfiguration`).
private func appConfiguration(serviceExtension: ServiceExtension, updatedExtension: ServiceExtension? = nil,
                              eligibility: ExtensionEligibility = ExtensionEligibility(),
                              extensionTimeLimit: SimDuration = PhoneConfiguration.defaultExtensionTimeLimit,
                              registrationPolicy: RegistrationPolicy = .everyLaunch, subscriptionSync: SubscriptionSync = .reconnect,
                              memoryLimitKB: Int64 = .max, reportsSavedPosition: Bool = false,
                              copyBounds: CopyBounds? = nil, background: BackgroundBudget = BackgroundBudget()) -> PhoneConfiguration {
    PhoneConfiguration(serviceExtension: serviceExtension, updatedExtension: updatedExtension, eligibility: eligibility,
                       extensionTimeLimit: extensionTimeLimit, registrationPolicy: registrationPolicy,
                       subscriptionSync: subscriptionSync, memoryLimitKB: memoryLimitKB,
                       reportsSavedPosition: reportsSavedPosition, copyBounds: copyBounds, background: background)
}

/// The `queue` extension with repeatMaxCount 3.
private let queueExtension = ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3)

/// An offline phone with the `queue` extension and the given app policies.
private func offlinePhone(registration: RegistrationPolicy = .everyLaunch,
                          sync: SubscriptionSync = .reconnect) -> Phone {
    Phone(configuration: appConfiguration(serviceExtension: queueExtension, registrationPolicy: registration,
                                            subscriptionSync: sync),
          token: token, deviceID: deviceID, deviceIDHash: hash)
}

/// An online phone with the `queue` extension (repeatMaxCount 3).
private func onlinePhone(saving: PositionSaving = .everyNewerPosition,
                         eligibility: ExtensionEligibility = ExtensionEligibility()) -> Phone {
    var phone = Phone(configuration: appConfiguration(serviceExtension: ServiceExtension(positionSaving: saving,
                                                                                           repeatMaxCount: 3),
                                                        eligibility: eligibility),
                      token: token, deviceID: deviceID, deviceIDHash: hash)
    var effects: OwnedBuffer<DeviceEffect> = []
    phone.setOnline(true, at: 0, into: &effects)
    return phone
}

/// An online phone whose extension already saved position 1.
private func phoneAtPosition1() -> Phone {
    var phone = onlinePhone()
    var effects: OwnedBuffer<DeviceEffect> = []
    phone.receive(push(1), at: 0, into: &effects)
    return phone
}

/// The phone's effects name a push by its message; the tests name them by the push.
private extension DeviceEffect {
    static func received(_ push: PushNotification, logged: Bool) -> DeviceEffect {
        .received(messageIndex: push.payload.messageIndex, isResend: push.isResend, logged: logged)
    }

    static func presented(_ push: PushNotification, replacedExisting: Bool, run: ExtensionRun) -> DeviceEffect {
        .presented(messageIndex: push.payload.messageIndex, isResend: push.isResend, replacedExisting: replacedExisting, run: run)
    }

    static func summaryShown(_ push: PushNotification, fromPosition: Int32, toPosition: Int32,
                             replacedExisting: Bool) -> DeviceEffect {
        .summaryShown(messageIndex: push.payload.messageIndex, fromPosition: fromPosition, toPosition: toPosition,
                      replacedExisting: replacedExisting)
    }

    static func notShown(_ push: PushNotification, _ reason: NotShownReason) -> DeviceEffect {
        .notShown(messageIndex: push.payload.messageIndex, reason)
    }
}

/// The effects that carry what iOS and the extension decided, without the
/// bookkeeping ones (a receipt the extension did not log, `.logUploaded`), which
/// their own tests check.
private func decisions(_ effects: OwnedBuffer<DeviceEffect>) -> OwnedBuffer<DeviceEffect> {
    OwnedBuffer(effects.filter {
        switch $0 {
        case .received(_, _, let logged): logged
        case .logUploaded: false
        case .connected, .disconnected, .deliveryFailed, .rerequest, .startDeadline, .presented, .rerequestAnswerMissed,
             .summaryShown, .notShown, .tokenChanged, .registered, .subscriptionsSynced, .positionSaved,
             .appUpdated, .background: true
        }
    })
}

@Suite("Device: Phone")
struct PhoneTests {

    @Test("asked to, the phone reports each change of the saved position, and a position saved again for a new device id")
    func reportsSavedPosition() {
        var configuration = appConfiguration(serviceExtension: queueExtension)
        configuration.reportsSavedPosition = true
        var phone = Phone(configuration: configuration, token: token, deviceID: deviceID, deviceIDHash: hash)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        effects.removeAll()
        phone.receive(push(1), at: 0, into: &effects)
        #expect(effects.contains(.positionSaved(1)))
        effects.removeAll()
        // A duplicate moves nothing: no report.
        phone.receive(push(1), at: 0, into: &effects)
        #expect(!effects.contains { if case .positionSaved = $0 { true } else { false } })
        effects.removeAll()
        phone.receive(push(2), at: 0, into: &effects)
        #expect(effects.contains(.positionSaved(2)))
        // A new device id: a push numbered 2 for it is saved again, for the new id.
        let newHash: UInt32 = 0x0bad_cafe
        phone.changeDeviceID(to: deviceID + 1, hash: newHash)
        effects.removeAll()
        phone.receive(push(2, hash: newHash), at: 0, into: &effects)
        #expect(effects.contains(.positionSaved(2)))
        // A reinstall forgets it.
        effects.removeAll()
        phone.rotateToken(to: DeviceToken(9), promptShown: true, into: &effects)
        #expect(decisions(effects).first == .positionSaved(nil))
        // Not asked: never reported.
        var quiet = onlinePhone()
        effects.removeAll()
        quiet.receive(push(1), at: 0, into: &effects)
        #expect(!effects.contains { if case .positionSaved = $0 { true } else { false } })
    }

    /// Whether the push's own id replaced an entry, from the effects of one delivery.
    private static func replaced(_ effects: OwnedBuffer<DeviceEffect>) -> Bool? {
        for effect in effects.reversed() {
            switch effect {
            case .presented(_, _, let replacedExisting, _): return replacedExisting
            case .summaryShown(_, _, _, let replacedExisting): return replacedExisting
            case .connected, .disconnected, .deliveryFailed, .received, .logUploaded, .appUpdated, .rerequest,
                 .startDeadline, .rerequestAnswerMissed, .notShown, .tokenChanged, .registered,
                 .subscriptionsSynced, .positionSaved, .background: continue
            }
        }
        return nil
    }

    @Test("with copy bounds the phone drops an id only once no copy can match it: sent long enough ago, at or below the saved position and every recent re-request")
    func forgetsOnlyWhatNoCopyCanMatch() {
        // A copy reaches APNs within 10 s of its sending and the phone within 5 s of
        // that once connected; a re-request reaches the provider within 2 s.
        var configuration = appConfiguration(serviceExtension: queueExtension)
        configuration.copyBounds = CopyBounds(toAPNs: 10 * second, toDevice: 5 * second, rerequestToProvider: 2 * second)
        var phone = Phone(configuration: configuration, token: token, deviceID: deviceID, deviceIDHash: hash)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        phone.receive(push(1), at: 1 * second, into: &effects)
        phone.receive(push(2), at: 2 * second, into: &effects)
        // A gap of 3 and 4: re-requested at 3 s; 4 comes late and is shown.
        phone.receive(push(5), at: 3 * second, into: &effects)
        phone.receive(push(4), at: 4 * second, into: &effects)
        #expect(phone.notificationCenterCount == 3)
        // At 12 s copies sent before -3 s have settled: nothing entered yet.
        phone.receive(push(6), at: 12 * second, into: &effects)
        #expect(phone.notificationCenterCount == 4)
        // At 20 s copies sent before 5 s have settled, but the re-request made at 3 s
        // may be served until 5 s: its positions (3 and up) keep their ids.
        phone.receive(push(7), at: 20 * second, into: &effects)
        #expect(phone.notificationCenterCount == 3)  // 1 and 2 dropped; 4, 6, 7 kept
        effects.removeAll()
        phone.receive(push(4), at: 20 * second + 1, into: &effects)   // its re-send
        #expect(Self.replaced(effects) == true)
        // At 21 s the re-request's re-sends have all settled too: 4 goes; 6 and 7 were entered since.
        phone.receive(push(8), at: 21 * second, into: &effects)
        #expect(phone.notificationCenterCount == 3)  // 6, 7, 8
        // Offline, nothing settles: back online, the phone waits out `toDevice` first.
        phone.setOnline(false, at: 22 * second, into: &effects)
        phone.setOnline(true, at: 100 * second, into: &effects)
        phone.receive(push(9), at: 104 * second, into: &effects)
        #expect(phone.notificationCenterCount == 4)
        phone.receive(push(10), at: 106 * second, into: &effects)
        #expect(phone.notificationCenterCount == 2)  // 9 and 10: 6, 7 and 8 were entered before 91 s
        // A copy of an id above the saved position is never dropped, however old.
        var low = Phone(configuration: configuration, token: token, deviceID: deviceID, deviceIDHash: hash)
        low.setOnline(true, at: 0, into: &effects)
        low.receive(push(3), at: 1 * second, into: &effects)                   // saved: 3
        low.rotateToken(to: DeviceToken(9), promptShown: true, into: &effects)  // a reinstall forgets it
        low.receive(push(2), at: 2 * second, into: &effects)                   // saved: 2, below 3
        low.receive(push(1, collapse: false), at: 500 * second, into: &effects)
        // 3 is above the saved position: kept, and (oldest first) 2 waits behind it.
        #expect(low.notificationCenterCount == 2)
    }

    @Test("without copy bounds Notification Center keeps every id")
    func keepsEveryIDWithoutBounds() {
        var plain = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        for position: Int32 in 1...4 { plain.receive(push(position), at: SimTime(position) * 1_000 * second, into: &effects) }
        #expect(plain.notificationCenterCount == 4)
    }

    @Test("setOnline emits connected and disconnected only when the state changes")
    func connectivityChanges() {
        var phone = Phone(configuration: appConfiguration(serviceExtension: queueExtension),
                          token: token, deviceID: deviceID, deviceIDHash: hash)
        var effects: OwnedBuffer<DeviceEffect> = []
        #expect(!phone.isOnline)
        phone.setOnline(false, at: 0, into: &effects)
        #expect(effects.isEmpty)
        phone.setOnline(true, at: 0, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(phone.isOnline)
        phone.setOnline(false, at: 0, into: &effects)
        phone.setOnline(false, at: 0, into: &effects)
        #expect(!phone.isOnline)
        #expect(decisions(effects) == [.connected(token), .disconnected(token)])
    }

    @Test("an offline phone bounces a delivery back to APNs and its extension does not run")
    func offlineBounces() {
        var phone = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(false, at: 0, into: &effects)
        effects.removeAll()
        phone.receive(push(5), at: 0, into: &effects)
        #expect(decisions(effects) == [.deliveryFailed])
        #expect(phone.storage == ExtensionStorage())
    }

    @Test("iOS < 10, a push without mutable-content and one without an alert are presented with run notRun, nothing logged or saved",
          arguments: [
              (push(9, mutableContent: false), ExtensionEligibility()),
              (push(9, hasAlert: false), ExtensionEligibility()),
              (push(9), ExtensionEligibility(supportsServiceExtension: false)),
          ])
    func extensionDoesNotRun(notification: PushNotification, eligibility: ExtensionEligibility) {
        var phone = onlinePhone(eligibility: eligibility)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(notification, at: 0, into: &effects)
        #expect(decisions(effects) == [.presented(notification, replacedExisting: false, run: .notRun)])
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.waitingInvocations == 0)
    }

    @Test("alerts not allowed or display off: not shown with its reason, alerts first; nothing logged, saved or drawn",
          arguments: [
              (ExtensionEligibility(alertsAllowed: false), NotShownReason.alertsNotAllowed),
              (ExtensionEligibility(displayEnabled: false), NotShownReason.displayOff),
              (ExtensionEligibility(alertsAllowed: false, displayEnabled: false), NotShownReason.alertsNotAllowed),
              (ExtensionEligibility(displayEnabled: false, supportsServiceExtension: false), NotShownReason.displayOff),
          ])
    func notShown(eligibility: ExtensionEligibility, reason: NotShownReason) {
        var phone = onlinePhone(eligibility: eligibility)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(9), at: 0, into: &effects)
        #expect(decisions(effects) == [.notShown(push(9), reason)])
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.waitingInvocations == 0)
        // Nothing entered Notification Center: the same collapse id later adds an entry.
        phone.configuration.eligibility = ExtensionEligibility()
        effects.removeAll()
        phone.receive(push(9), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(9), logged: true), .presented(push(9), replacedExisting: false, run: .ran)])
    }

    @Test("the first numbered push is presented as is and its position saved for this device")
    func firstPushSaves() {
        var phone = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(1), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1), logged: true), .presented(push(1), replacedExisting: false, run: .ran)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 1, lastPositionDeviceID: deviceID))
    }

    @Test("a small gap re-requests (position, gap) and starts the 30 s deadline, presenting nothing yet")
    func rerequestPath() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(4), logged: true), .rerequest(position: 4, gap: 2, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
        #expect(PhoneConfiguration.defaultExtensionTimeLimit == 30 * second)
        #expect(phone.waitingInvocations == 1)
        #expect(phone.storage.lastNotificationPosition == 4)
    }

    @Test("the deadline uses the phone's own extension time limit, and invocations are numbered 0, 1, 2 …")
    func customTimeLimit() {
        var phone = Phone(configuration: appConfiguration(serviceExtension: queueExtension,
                                                            extensionTimeLimit: 7 * second),
                          token: token, deviceID: deviceID, deviceIDHash: hash)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        phone.receive(push(1), at: 0, into: &effects)
        effects.removeAll()
        phone.receive(push(3), at: 0, into: &effects)
        phone.receive(push(5), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(3), logged: true), .rerequest(position: 3, gap: 1, invocation: 0),
                            .startDeadline(invocation: 0, after: 7 * second),
                            .received(push(5), logged: true), .rerequest(position: 5, gap: 1, invocation: 1),
                            .startDeadline(invocation: 1, after: 7 * second)])
        #expect(phone.waitingInvocations == 2)
    }

    @Test("an ok answer presents the push that triggered the re-request")
    func answerOkPresents() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: true, at: 0, into: &effects)
        #expect(decisions(effects) == [.presented(push(4), replacedExisting: false, run: .ran)])
        #expect(phone.waitingInvocations == 0)
    }

    @Test("an error answer shows a summary for positions position-gap … position instead of the push")
    func answerErrorSummarises() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: false, at: 0, into: &effects)
        #expect(decisions(effects) == [.summaryShown(push(4), fromPosition: 2, toPosition: 4, replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
    }

    @Test("an ok answer arriving after the phone went offline is missed: the summary is shown, the miss announced first")
    func answerOkButOffline() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        phone.setOnline(false, at: 0, into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: true, at: 0, into: &effects)
        #expect(decisions(effects) == [.rerequestAnswerMissed(invocation: 0),
                            .summaryShown(push(4), fromPosition: 2, toPosition: 4, replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
    }

    @Test("an error answer arriving offline is an error like any other: summary, no miss announced")
    func answerErrorOffline() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        phone.setOnline(false, at: 0, into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: false, at: 0, into: &effects)
        #expect(decisions(effects) == [.summaryShown(push(4), fromPosition: 2, toPosition: 4, replacedExisting: false)])
    }

    @Test("when the deadline comes first the push is presented as is with run timedOut and the later answer is ignored")
    func deadlineFirst() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        effects.removeAll()
        phone.extensionDeadline(invocation: 0, at: 0, into: &effects)
        #expect(decisions(effects) == [.presented(push(4), replacedExisting: false, run: .timedOut)])
        #expect(phone.waitingInvocations == 0)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: false, at: 0, into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, at: 0, into: &effects)
        #expect(effects.isEmpty)
    }

    @Test("when the answer comes first the later deadline is ignored")
    func answerFirst() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, at: 0, into: &effects)
        effects.removeAll()
        phone.extensionDeadline(invocation: 0, at: 0, into: &effects)
        #expect(effects.isEmpty)
    }

    @Test("answers are matched to their own invocation, whatever order they come in")
    func answersMatchInvocations() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(3), at: 0, into: &effects)     // invocation 0, gap 1
        phone.receive(push(6), at: 0, into: &effects)     // invocation 1, gap 2
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 1, ok: false, at: 0, into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, at: 0, into: &effects)
        phone.receiveRerequestAnswer(invocation: 7, ok: true, at: 0, into: &effects)
        #expect(decisions(effects) == [.summaryShown(push(6), fromPosition: 4, toPosition: 6, replacedExisting: false),
                            .presented(push(3), replacedExisting: false, run: .ran)])
    }

    @Test("a gap bigger than repeatMaxCount shows a summary covering position-missed … position at once")
    func bigGapSummary() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(10), at: 0, into: &effects)    // 2…9 missed: 8 > 3
        #expect(decisions(effects) == [.received(push(10), logged: true),
                            .summaryShown(push(10), fromPosition: 2, toPosition: 10, replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
        #expect(phone.storage.lastNotificationPosition == 10)
    }

    @Test("a push with the same collapse id as one already shown replaces it")
    func sameCollapseIDReplaces() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(1), at: 0, into: &effects)     // the re-sent copy of position 1: a duplicate
        phone.receive(push(2), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1), logged: true), .presented(push(1), replacedExisting: true, run: .ran),
                            .received(push(2), logged: true), .presented(push(2), replacedExisting: false, run: .ran)])
    }

    @Test("a summary takes the collapse id of its push, so a later copy of that push replaces it")
    func summaryReplacedByCopy() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(10), at: 0, into: &effects)
        phone.receive(push(10), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(10), logged: true),
                            .summaryShown(push(10), fromPosition: 2, toPosition: 10, replacedExisting: false),
                            .received(push(10), logged: true), .presented(push(10), replacedExisting: true, run: .ran)])
    }

    @Test("pushes without a collapse id are never replaced, even identical ones")
    func noCollapseIDNeverReplaced() {
        var phone = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(1, collapse: false), at: 0, into: &effects)
        phone.receive(push(1, collapse: false), at: 0, into: &effects)
        phone.receive(push(2, collapse: false), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1, collapse: false), logged: true),
                            .presented(push(1, collapse: false), replacedExisting: false, run: .ran),
                            .received(push(1, collapse: false), logged: true),
                            .presented(push(1, collapse: false), replacedExisting: false, run: .ran),
                            .received(push(2, collapse: false), logged: true),
                            .presented(push(2, collapse: false), replacedExisting: false, run: .ran)])
    }

    @Test("queue-as-published on the phone: the second in-order push re-requests a gap of 1 that was not missed")
    func asPublishedOnPhone() {
        var phone = onlinePhone(saving: .onlyWhenGapFound)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(1), at: 0, into: &effects)
        phone.receive(push(2), at: 0, into: &effects)
        phone.receive(push(3), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1), logged: true), .presented(push(1), replacedExisting: false, run: .ran),
                            .received(push(2), logged: true), .presented(push(2), replacedExisting: false, run: .ran),
                            .received(push(3), logged: true), .rerequest(position: 3, gap: 1, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
    }

    @Test("reset brings back a fresh, offline install with a new identity")
    func resetIsFreshInstall() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)
        phone.reset(configuration: phone.configuration, token: DeviceToken(8), deviceID: 9, deviceIDHash: hash)
        #expect(phone.token == DeviceToken(8))
        #expect(phone.deviceID == 9)
        #expect(!phone.isOnline)
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.waitingInvocations == 0)
        effects.removeAll()
        phone.setOnline(true, at: 0, into: &effects)
        phone.receive(push(1), at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(DeviceToken(8)), .received(push(1), logged: true),
                            .presented(push(1), replacedExisting: false, run: .ran)])
    }

    // MARK: - The extension's run

    @Test("defaults: every-launch registration, sync at reconnect, no memory limit")
    func defaults() {
        let phone = Phone(configuration: appConfiguration(serviceExtension: queueExtension),
                          token: token, deviceID: deviceID, deviceIDHash: hash)
        #expect(phone.configuration.registrationPolicy == .everyLaunch)
        #expect(phone.configuration.subscriptionSync == .reconnect)
        #expect(phone.configuration.memoryLimitKB == .max)
        #expect(phone.configuration.extensionTimeLimit == PhoneConfiguration.defaultExtensionTimeLimit)
        #expect(!phone.promptPending && !phone.registrationPending)
        #expect(phone.pendingSubscriptionGeneration == nil)
    }

    @Test("over the memory limit the extension is killed: shown as is, nothing logged, the old position kept")
    func killedOverMemoryLimit() {
        var phone = phoneAtPosition1()
        phone.configuration.memoryLimitKB = 12_288
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), footprintKB: 12_289, at: 0, into: &effects)
        #expect(decisions(effects) == [.presented(push(4), replacedExisting: false, run: .killed)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 1, lastPositionDeviceID: deviceID))
        #expect(phone.waitingInvocations == 0)
    }

    @Test("at or just under the memory limit the extension runs: logged, gap re-requested, position saved",
          arguments: [Int64(12_288), 12_287])
    func runsAtMemoryLimit(footprintKB: Int64) {
        var phone = phoneAtPosition1()
        phone.configuration.memoryLimitKB = 12_288
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), footprintKB: footprintKB, at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(4), logged: true), .rerequest(position: 4, gap: 2, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
        #expect(phone.storage.lastNotificationPosition == 4)
    }

    @Test("a push numbered for another device-id hash is logged, then presented with run hashMismatch")
    func hashMismatchRun() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4, hash: 0xdead), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(4, hash: 0xdead), logged: true),
                            .presented(push(4, hash: 0xdead), replacedExisting: false, run: .hashMismatch)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 1, lastPositionDeviceID: deviceID))
    }

    @Test("an un-numbered provider push is logged and shown with run ran; a payload not from the provider is shown but not logged (step 1 precedes step 2)")
    func loggingFollowsStepOne() {
        var phone = onlinePhone()
        let plain = PushNotification(token: token, payload: PushPayload(messageIndex: 7, byteCount: 200))
        let foreign = PushNotification(token: token, payload: PushPayload(messageIndex: 8, fromProvider: false,
                                                                          byteCount: 200))
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(plain, at: 0, into: &effects)
        phone.receive(foreign, at: 0, into: &effects)
        #expect(decisions(effects) == [.received(plain, logged: true), .presented(plain, replacedExisting: false, run: .ran),
                            .presented(foreign, replacedExisting: false, run: .ran)])
    }

    // MARK: - Registration

    @Test("reset emits nothing and leaves the app registered: a launch is needed to register again")
    func resetRegistersNothing() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.reset(configuration: phone.configuration, token: DeviceToken(8), deviceID: 9, deviceIDHash: 3)
        phone.setOnline(true, at: 0, into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.connected(DeviceToken(8))])
    }

    @Test("every-launch: a launch while online registers the token and hash at once, every time")
    func everyLaunchOnline() {
        var phone = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.launch(into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.registered(token, deviceIDHash: hash), .registered(token, deviceIDHash: hash)])
        #expect(!phone.registrationPending)
    }

    @Test("every-launch: a launch while offline registers right after connected at the next reconnect, once")
    func everyLaunchOffline() {
        var phone = offlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.launch(into: &effects)
        phone.launch(into: &effects)
        #expect(effects.isEmpty)
        #expect(phone.registrationPending)
        phone.setOnline(true, at: 0, into: &effects)
        phone.setOnline(false, at: 0, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(token), .registered(token, deviceIDHash: hash),
                            .disconnected(token), .connected(token)])
    }

    @Test("once-at-prompt: a launch without the prompt registers nothing, online or offline")
    func onceAtPromptWithoutPrompt() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.launch(into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.connected(token)])
    }

    @Test("once-at-prompt: after a reinstall the first launch online registers the new token, the next does not")
    func onceAtPromptOnlineAfterReinstall() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        phone.rotateToken(to: DeviceToken(3), promptShown: true, into: &effects)
        effects.removeAll()
        phone.launch(into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.registered(DeviceToken(3), deviceIDHash: hash)])
        #expect(!phone.promptPending)
    }

    @Test("once-at-prompt: after a reinstall a launch offline registers the new token at the next reconnect")
    func onceAtPromptOfflineAfterReinstall() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.rotateToken(to: DeviceToken(3), promptShown: true, into: &effects)
        #expect(phone.promptPending)
        phone.launch(into: &effects)
        phone.launch(into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.tokenChanged(old: token, new: DeviceToken(3)),
                            .connected(DeviceToken(3)), .registered(DeviceToken(3), deviceIDHash: hash)])
    }

    // MARK: - Token rotation

    @Test("a rotation online announces the new token and its connection, keeps storage, and registers nothing until a launch")
    func rotateOnline() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.rotateToken(to: DeviceToken(3), promptShown: false, into: &effects)
        #expect(decisions(effects) == [.tokenChanged(old: token, new: DeviceToken(3)), .connected(DeviceToken(3))])
        #expect(phone.token == DeviceToken(3))
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 1, lastPositionDeviceID: deviceID))
        #expect(!phone.promptPending)
        effects.removeAll()
        phone.setOnline(false, at: 0, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.disconnected(DeviceToken(3)), .connected(DeviceToken(3)),
                            .registered(DeviceToken(3), deviceIDHash: hash)])
    }

    @Test("a rotation offline only announces the new token; the connection opens with it at reconnect")
    func rotateOffline() {
        var phone = offlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.rotateToken(to: DeviceToken(3), promptShown: false, into: &effects)
        #expect(decisions(effects) == [.tokenChanged(old: token, new: DeviceToken(3))])
        effects.removeAll()
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(DeviceToken(3))])
    }

    @Test("a reinstall (prompt shown) clears the extension's storage, so the next push is a first position")
    func rotateWithPromptClearsStorage() {
        var phone = phoneAtPosition1()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.rotateToken(to: DeviceToken(3), promptShown: true, into: &effects)
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.promptPending)
        effects.removeAll()
        phone.receive(push(5), at: 0, into: &effects)     // would re-request 2…4 with the old storage
        #expect(decisions(effects) == [.received(push(5), logged: true), .presented(push(5), replacedExisting: false, run: .ran)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 5, lastPositionDeviceID: deviceID))
    }

    @Test("a rotation drops a registration still waiting for the network: the app process that asked is gone")
    func rotateDropsPendingRegistration() {
        var phone = offlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.launch(into: &effects)
        phone.rotateToken(to: DeviceToken(3), promptShown: false, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.tokenChanged(old: token, new: DeviceToken(3)), .connected(DeviceToken(3))])
    }

    // MARK: - Device id change

    @Test("after a device-id change the next push forgets the saved position, and the next registration carries the new hash")
    func deviceIDChange() {
        var phone = phoneAtPosition1()
        phone.changeDeviceID(to: 43, hash: 0xbeef)
        #expect(phone.deviceID == 43 && phone.deviceIDHash == 0xbeef)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(4), at: 0, into: &effects)     // still numbered with the old hash
        #expect(decisions(effects) == [.received(push(4), logged: true), .presented(push(4), replacedExisting: false, run: .hashMismatch)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: nil, lastPositionDeviceID: 43))
        effects.removeAll()
        phone.launch(into: &effects)
        phone.receive(push(5, hash: 0xbeef), at: 0, into: &effects)
        #expect(decisions(effects) == [.registered(token, deviceIDHash: 0xbeef), .received(push(5, hash: 0xbeef), logged: true),
                            .presented(push(5, hash: 0xbeef), replacedExisting: false, run: .ran)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 5, lastPositionDeviceID: 43))
    }

    @Test("once-at-prompt without a prompt: the provider never learns the new hash, so pushes keep failing the check")
    func deviceIDChangeNeverLearned() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        phone.changeDeviceID(to: 43, hash: 0xbeef)
        effects.removeAll()
        phone.launch(into: &effects)
        phone.receive(push(1), at: 0, into: &effects)
        phone.receive(push(2), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1), logged: true), .presented(push(1), replacedExisting: false, run: .hashMismatch),
                            .received(push(2), logged: true), .presented(push(2), replacedExisting: false, run: .hashMismatch)])
    }

    // MARK: - Subscription sync

    @Test("a subscription change while online syncs at once")
    func subscriptionOnline() {
        var phone = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.subscriptionChanged(generation: 3, into: &effects)
        #expect(decisions(effects) == [.subscriptionsSynced(generation: 3)])
        #expect(phone.pendingSubscriptionGeneration == nil)
    }

    @Test("offline changes sync the latest generation right after connected, under reconnect")
    func subscriptionOfflineReconnect() {
        var phone = offlinePhone(sync: .reconnect)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.subscriptionChanged(generation: 3, into: &effects)
        phone.subscriptionChanged(generation: 4, into: &effects)
        #expect(effects.isEmpty)
        #expect(phone.pendingSubscriptionGeneration == 4)
        phone.setOnline(true, at: 0, into: &effects)
        phone.setOnline(false, at: 0, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(token), .subscriptionsSynced(generation: 4),
                            .disconnected(token), .connected(token)])
    }

    @Test("under launch, an offline change waits past reconnect and an offline launch, and syncs at a launch while online")
    func subscriptionOfflineLaunchPolicy() {
        var phone = offlinePhone(registration: .onceAtPrompt, sync: .launch)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.subscriptionChanged(generation: 4, into: &effects)
        phone.launch(into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(token)])
        effects.removeAll()
        phone.launch(into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.subscriptionsSynced(generation: 4)])
    }

    @Test("a launch while online registers, then syncs a pending change")
    func launchRegistersThenSyncs() {
        var phone = offlinePhone(sync: .launch)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.subscriptionChanged(generation: 2, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        effects.removeAll()
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.registered(token, deviceIDHash: hash), .subscriptionsSynced(generation: 2)])
    }

    @Test("reconnecting emits connected, then the pending registration, then the pending sync")
    func reconnectOrder() {
        var phone = offlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.subscriptionChanged(generation: 6, into: &effects)
        phone.launch(into: &effects)
        phone.setOnline(true, at: 0, into: &effects)
        #expect(decisions(effects) == [.connected(token), .registered(token, deviceIDHash: hash),
                            .subscriptionsSynced(generation: 6)])
    }

    @Test("reset drops a pending registration, prompt, sync and log upload, and takes the configuration it is given")
    func resetDropsPending() {
        var phone = offlinePhone(registration: .onceAtPrompt, sync: .launch)
        var configuration = phone.configuration
        configuration.memoryLimitKB = 24_576
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.rotateToken(to: DeviceToken(3), promptShown: true, into: &effects)
        phone.launch(into: &effects)
        phone.subscriptionChanged(generation: 6, into: &effects)
        phone.rotateToken(to: DeviceToken(4), promptShown: true, into: &effects)
        #expect(phone.uploadPending)
        phone.reset(configuration: configuration, token: DeviceToken(8), deviceID: 9, deviceIDHash: 3)
        #expect(!phone.promptPending && !phone.registrationPending && !phone.uploadPending)
        #expect(phone.pendingSubscriptionGeneration == nil)
        #expect(phone.configuration == configuration)
        effects.removeAll()
        phone.setOnline(true, at: 0, into: &effects)
        phone.launch(into: &effects)
        #expect(decisions(effects) == [.connected(DeviceToken(8))])
    }

    // MARK: - Answers

    @Test("iOS receiving a push is an effect, first of the delivery's: online it is received, offline only bounced")
    func receiveAnswersArrival() {
        var phone = offlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(push(1), at: 0, into: &effects)
        #expect(effects == [.deliveryFailed])
        phone.setOnline(true, at: 0, into: &effects)
        effects.removeAll()
        phone.receive(push(1), at: 0, into: &effects)
        #expect(effects == [.received(push(1), logged: true), .presented(push(1), replacedExisting: false, run: .ran)])
    }

    @Test("a launch online uploads the log at once; a launch offline uploads it at the next connection, once")
    func launchUploadsTheLog() {
        var phone = offlinePhone(registration: .onceAtPrompt)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.launch(into: &effects)       // offline: waits
        phone.launch(into: &effects)       // still one pending upload
        #expect(phone.uploadPending && effects.isEmpty)
        phone.setOnline(true, at: 0, into: &effects)   // goes up now, before the connection's traffic
        phone.setOnline(false, at: 0, into: &effects)
        phone.setOnline(true, at: 0, into: &effects)   // nothing left
        phone.launch(into: &effects)       // online: at once
        #expect(effects == [.logUploaded(atReconnect: true), .connected(token), .disconnected(token), .connected(token),
                            .logUploaded(atReconnect: false)])
        #expect(!phone.uploadPending)
    }

    // MARK: - A rollout's update

    @Test("before its update the old app shows numbered pushes as they come; after it, the new extension finds gaps")
    func updateSwitchesTheExtension() {
        let old = ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3, readsNumbering: false)
        var phone = Phone(configuration: appConfiguration(serviceExtension: old, updatedExtension: queueExtension),
                          token: token, deviceID: deviceID, deviceIDHash: hash)
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(true, at: 0, into: &effects)
        effects.removeAll()
        phone.receive(push(1), at: 0, into: &effects)
        phone.receive(push(4), at: 0, into: &effects)
        #expect(decisions(effects) == [.received(push(1), logged: true), .presented(push(1), replacedExisting: false, run: .ran),
                            .received(push(4), logged: true), .presented(push(4), replacedExisting: false, run: .ran)])
        #expect(phone.storage == ExtensionStorage())
        effects.removeAll()
        phone.updateApp(into: &effects)
        phone.updateApp(into: &effects)     // a second time: nothing
        #expect(effects == [.appUpdated] && phone.appUpdated)
        effects.removeAll()
        phone.receive(push(5), at: 0, into: &effects)      // the first numbered push the new app sees: saved
        phone.receive(push(8), at: 0, into: &effects)      // a gap of 2: re-requested
        #expect(decisions(effects) == [.received(push(5), logged: true), .presented(push(5), replacedExisting: false, run: .ran),
                            .received(push(8), logged: true), .rerequest(position: 8, gap: 2, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
    }

    @Test("without an update in the configuration updateApp changes nothing; reset forgets an update")
    func updateNeedsAnUpdate() {
        var plain = onlinePhone()
        var effects: OwnedBuffer<DeviceEffect> = []
        plain.updateApp(into: &effects)
        #expect(effects.isEmpty && !plain.appUpdated)
        var phone = Phone(configuration: appConfiguration(serviceExtension: queueExtension, updatedExtension: queueExtension),
                          token: token, deviceID: deviceID, deviceIDHash: hash)
        phone.updateApp(into: &effects)
        phone.reset(configuration: phone.configuration, token: token, deviceID: deviceID, deviceIDHash: hash)
        #expect(!phone.appUpdated)
    }
}
