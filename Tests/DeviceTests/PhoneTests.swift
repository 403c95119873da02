import Testing
import FakeAPNs
import Device

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

/// An online phone with the `queue` extension (repeatMaxCount 3).
private func onlinePhone(saving: PositionSaving = .everyNewerPosition,
                         eligibility: ExtensionEligibility = ExtensionEligibility()) -> Phone {
    var phone = Phone(token: token, deviceID: deviceID, deviceIDHash: hash,
                      serviceExtension: ServiceExtension(positionSaving: saving, repeatMaxCount: 3),
                      eligibility: eligibility)
    var effects: ContiguousArray<DeviceEffect> = []
    phone.setOnline(true, into: &effects)
    return phone
}

/// An online phone whose extension already saved position 1.
private func phoneAtPosition1() -> Phone {
    var phone = onlinePhone()
    var effects: ContiguousArray<DeviceEffect> = []
    phone.receive(push(1), into: &effects)
    return phone
}

@Suite("Device: Phone")
struct PhoneTests {

    @Test("setOnline emits connected and disconnected only when the state changes")
    func connectivityChanges() {
        var phone = Phone(token: token, deviceID: deviceID, deviceIDHash: hash,
                          serviceExtension: ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3))
        var effects: ContiguousArray<DeviceEffect> = []
        #expect(!phone.isOnline)
        phone.setOnline(false, into: &effects)
        #expect(effects.isEmpty)
        phone.setOnline(true, into: &effects)
        phone.setOnline(true, into: &effects)
        #expect(phone.isOnline)
        phone.setOnline(false, into: &effects)
        phone.setOnline(false, into: &effects)
        #expect(!phone.isOnline)
        #expect(effects == [.connected(token), .disconnected(token)])
    }

    @Test("an offline phone bounces a delivery back to APNs and its extension does not run")
    func offlineBounces() {
        var phone = onlinePhone()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.setOnline(false, into: &effects)
        effects.removeAll()
        phone.receive(push(5), into: &effects)
        #expect(effects == [.deliveryFailed(push(5))])
        #expect(phone.storage == ExtensionStorage())
    }

    @Test("a push the extension does not run for is presented as is without touching storage",
          arguments: [
              (push(9, mutableContent: false), ExtensionEligibility()),
              (push(9, hasAlert: false), ExtensionEligibility()),
              (push(9), ExtensionEligibility(alertsAllowed: false)),
              (push(9), ExtensionEligibility(displayEnabled: false)),
              (push(9), ExtensionEligibility(supportsServiceExtension: false)),
          ])
    func extensionDoesNotRun(notification: PushNotification, eligibility: ExtensionEligibility) {
        var phone = onlinePhone(eligibility: eligibility)
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(notification, into: &effects)
        #expect(effects == [.presented(notification, replacedExisting: false)])
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.waitingInvocations == 0)
    }

    @Test("eligibility needs all three of alerts allowed, display enabled and iOS 10")
    func eligibilityNeedsAll() {
        #expect(ExtensionEligibility().extensionRuns)
        #expect(!ExtensionEligibility(alertsAllowed: false).extensionRuns)
        #expect(!ExtensionEligibility(displayEnabled: false).extensionRuns)
        #expect(!ExtensionEligibility(supportsServiceExtension: false).extensionRuns)
    }

    @Test("the first numbered push is presented as is and its position saved for this device")
    func firstPushSaves() {
        var phone = onlinePhone()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(1), into: &effects)
        #expect(effects == [.presented(push(1), replacedExisting: false)])
        #expect(phone.storage == ExtensionStorage(lastNotificationPosition: 1, lastPositionDeviceID: deviceID))
    }

    @Test("a small gap re-requests (position, gap) and starts the 30 s deadline, presenting nothing yet")
    func rerequestPath() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        #expect(effects == [.rerequest(position: 4, gap: 2, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
        #expect(Phone.defaultExtensionTimeLimit == 30 * second)
        #expect(phone.waitingInvocations == 1)
        #expect(phone.storage.lastNotificationPosition == 4)
    }

    @Test("the deadline uses the phone's own extension time limit, and invocations are numbered 0, 1, 2 …")
    func customTimeLimit() {
        var phone = Phone(token: token, deviceID: deviceID, deviceIDHash: hash,
                          serviceExtension: ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3),
                          extensionTimeLimit: 7 * second)
        var effects: ContiguousArray<DeviceEffect> = []
        phone.setOnline(true, into: &effects)
        phone.receive(push(1), into: &effects)
        effects.removeAll()
        phone.receive(push(3), into: &effects)
        phone.receive(push(5), into: &effects)
        #expect(effects == [.rerequest(position: 3, gap: 1, invocation: 0), .startDeadline(invocation: 0, after: 7 * second),
                            .rerequest(position: 5, gap: 1, invocation: 1), .startDeadline(invocation: 1, after: 7 * second)])
        #expect(phone.waitingInvocations == 2)
    }

    @Test("an ok answer presents the push that triggered the re-request")
    func answerOkPresents() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: true, into: &effects)
        #expect(effects == [.presented(push(4), replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
    }

    @Test("an error answer shows a summary for positions position-gap … position instead of the push")
    func answerErrorSummarises() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: false, into: &effects)
        #expect(effects == [.summaryShown(push(4), fromPosition: 2, toPosition: 4, replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
    }

    @Test("an ok answer arriving after the phone went offline shows the summary, since the re-sent pushes cannot come")
    func answerOkButOffline() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        phone.setOnline(false, into: &effects)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: true, into: &effects)
        #expect(effects == [.summaryShown(push(4), fromPosition: 2, toPosition: 4, replacedExisting: false)])
    }

    @Test("when the deadline comes first the push is presented as is and the later answer is ignored")
    func deadlineFirst() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        effects.removeAll()
        phone.extensionDeadline(invocation: 0, into: &effects)
        #expect(effects == [.presented(push(4), replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 0, ok: false, into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, into: &effects)
        #expect(effects.isEmpty)
    }

    @Test("when the answer comes first the later deadline is ignored")
    func answerFirst() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, into: &effects)
        effects.removeAll()
        phone.extensionDeadline(invocation: 0, into: &effects)
        #expect(effects.isEmpty)
    }

    @Test("answers are matched to their own invocation, whatever order they come in")
    func answersMatchInvocations() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(3), into: &effects)     // invocation 0, gap 1
        phone.receive(push(6), into: &effects)     // invocation 1, gap 2
        effects.removeAll()
        phone.receiveRerequestAnswer(invocation: 1, ok: false, into: &effects)
        phone.receiveRerequestAnswer(invocation: 0, ok: true, into: &effects)
        phone.receiveRerequestAnswer(invocation: 7, ok: true, into: &effects)
        #expect(effects == [.summaryShown(push(6), fromPosition: 4, toPosition: 6, replacedExisting: false),
                            .presented(push(3), replacedExisting: false)])
    }

    @Test("a gap bigger than repeatMaxCount shows a summary covering position-missed … position at once")
    func bigGapSummary() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(10), into: &effects)    // 2…9 missed: 8 > 3
        #expect(effects == [.summaryShown(push(10), fromPosition: 2, toPosition: 10, replacedExisting: false)])
        #expect(phone.waitingInvocations == 0)
        #expect(phone.storage.lastNotificationPosition == 10)
    }

    @Test("a push with the same collapse id as one already shown replaces it")
    func sameCollapseIDReplaces() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(1), into: &effects)     // the re-sent copy of position 1: a duplicate
        phone.receive(push(2), into: &effects)
        #expect(effects == [.presented(push(1), replacedExisting: true),
                            .presented(push(2), replacedExisting: false)])
    }

    @Test("a summary takes the collapse id of its push, so a later copy of that push replaces it")
    func summaryReplacedByCopy() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(10), into: &effects)
        phone.receive(push(10), into: &effects)
        #expect(effects == [.summaryShown(push(10), fromPosition: 2, toPosition: 10, replacedExisting: false),
                            .presented(push(10), replacedExisting: true)])
    }

    @Test("pushes without a collapse id are never replaced, even identical ones")
    func noCollapseIDNeverReplaced() {
        var phone = onlinePhone()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(1, collapse: false), into: &effects)
        phone.receive(push(1, collapse: false), into: &effects)
        phone.receive(push(2, collapse: false), into: &effects)
        #expect(effects == [.presented(push(1, collapse: false), replacedExisting: false),
                            .presented(push(1, collapse: false), replacedExisting: false),
                            .presented(push(2, collapse: false), replacedExisting: false)])
    }

    @Test("queue-as-published on the phone: the second in-order push re-requests a gap of 1 that was not missed")
    func asPublishedOnPhone() {
        var phone = onlinePhone(saving: .onlyWhenGapFound)
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(1), into: &effects)
        phone.receive(push(2), into: &effects)
        phone.receive(push(3), into: &effects)
        #expect(effects == [.presented(push(1), replacedExisting: false),
                            .presented(push(2), replacedExisting: false),
                            .rerequest(position: 3, gap: 1, invocation: 0),
                            .startDeadline(invocation: 0, after: 30 * second)])
    }

    @Test("reset brings back a fresh, offline install with a new identity")
    func resetIsFreshInstall() {
        var phone = phoneAtPosition1()
        var effects: ContiguousArray<DeviceEffect> = []
        phone.receive(push(4), into: &effects)
        phone.reset(token: DeviceToken(8), deviceID: 9, deviceIDHash: hash)
        #expect(phone.token == DeviceToken(8))
        #expect(phone.deviceID == 9)
        #expect(!phone.isOnline)
        #expect(phone.storage == ExtensionStorage())
        #expect(phone.waitingInvocations == 0)
        effects.removeAll()
        phone.setOnline(true, into: &effects)
        phone.receive(push(1), into: &effects)
        #expect(effects == [.connected(DeviceToken(8)), .presented(push(1), replacedExisting: false)])
    }
}
