@testable import Base
@testable import Device
@testable import FakeAPNs
import Testing

private let hour = TimeUnit.hour

/// A background push as APNs hands it to the phone: no alert, no extension.
private func backgroundPush(_ message: Int32) -> PushNotification {
    PushNotification(token: DeviceToken(0), pushType: .background, priority: 5,
                     payload: PushPayload(messageIndex: message, mutableContent: false, hasAlert: false, fromProvider: false,
                                          byteCount: 64))
}

/// An online phone whose app has `budget`.
private func onlinePhone(budget: BackgroundBudget) -> Phone {
    let configuration = PhoneConfiguration(
        serviceExtension: ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3), updatedExtension: nil,
        eligibility: ExtensionEligibility(), extensionTimeLimit: PhoneConfiguration.defaultExtensionTimeLimit,
        registrationPolicy: .everyLaunch, subscriptionSync: .reconnect, memoryLimitKB: .max, reportsSavedPosition: false,
        copyBounds: nil, background: budget)
    var phone = Phone(configuration: configuration, token: DeviceToken(0), deviceID: 1, deviceIDHash: 2)
    var effects: OwnedBuffer<DeviceEffect> = []
    phone.setOnline(true, at: 0, into: &effects)
    return phone
}

/// The fates in `effects`, in order.
private func fates(_ effects: OwnedBuffer<DeviceEffect>) -> [BackgroundFate] {
    (0..<effects.count).compactMap { index in
        if case .background(_, let fate) = effects[index] { fate } else { nil }
    }
}

@Suite("Background pushes on the phone")
struct BackgroundBudgetTests {
    @Test("a background push reaches the app, never Notification Center nor the extension, whatever the settings")
    func neverDrawn() {
        for eligibility in [ExtensionEligibility(), ExtensionEligibility(alertsAllowed: false),
                            ExtensionEligibility(displayEnabled: false)] {
            var phone = onlinePhone(budget: BackgroundBudget(perHour: 100))
            var effects: OwnedBuffer<DeviceEffect> = []
            phone.configuration.eligibility = eligibility
            for message in 0..<Int32(20) { phone.receive(backgroundPush(message), at: SimTime(message) * 60 * TimeUnit.second, into: &effects) }
            #expect(phone.notificationCenterCount == 0)
            #expect(phone.waitingInvocations == 0)
            #expect(fates(effects) == Array(repeating: .deliveredToApp, count: 20))
            // Nothing but the background fates: no `.received`, `.presented`, `.notShown` or re-request.
            #expect(effects.count == 20)
        }
    }

    @Test("past the hour's budget only the newest is held; it reaches the app as the next hour begins")
    func newestHeldPastTheBudget() {
        var phone = onlinePhone(budget: BackgroundBudget(perHour: 2))
        var effects: OwnedBuffer<DeviceEffect> = []
        for (message, minute) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)] as [(Int32, Int64)] {
            phone.receive(backgroundPush(message), at: minute * TimeUnit.minute, into: &effects)
        }
        #expect(fates(effects) == [.deliveredToApp, .deliveredToApp, .deferred, .throttled, .deferred, .throttled, .deferred])
        #expect(phone.backgroundUpdates.held == 4)
        effects.removeAll()
        // The next hour: the held one takes one of its two slots, so one more fits.
        phone.receive(backgroundPush(5), at: hour + 10 * TimeUnit.minute, into: &effects)
        phone.receive(backgroundPush(6), at: hour + 20 * TimeUnit.minute, into: &effects)
        #expect(fates(effects) == [.deliveredAfterDeferral, .deliveredToApp, .deferred])
        var messages: [Int32] = []
        for index in 0..<effects.count { if case .background(let message, _) = effects[index] { messages.append(message) } }
        #expect(messages == [4, 5, 6])
        effects.removeAll()
        // Hours later, settled lazily: the held one went at the start of hour 2, and hour 5 starts afresh.
        phone.settleBackground(at: 5 * hour, into: &effects)
        #expect(fates(effects) == [.deliveredAfterDeferral])
        #expect(phone.backgroundUpdates.hourIndex == 5 && phone.backgroundUpdates.usedThisHour == 0)
    }

    @Test("a background push that finds the app force-quit is discarded and spends no budget")
    func forceQuitDiscards() {
        var phone = onlinePhone(budget: BackgroundBudget(perHour: 1))
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.receive(backgroundPush(0), appForceQuit: true, at: 0, into: &effects)
        phone.receive(backgroundPush(1), at: 1, into: &effects)
        #expect(fates(effects) == [.discardedForceQuit, .deliveredToApp])
    }

    @Test("an offline phone sends a background push back to APNs, as any push")
    func offlineBounces() {
        var phone = onlinePhone(budget: BackgroundBudget())
        var effects: OwnedBuffer<DeviceEffect> = []
        phone.setOnline(false, at: 0, into: &effects)
        effects.removeAll()
        phone.receive(backgroundPush(0), at: 1, into: &effects)
        #expect(effects.count == 1 && effects[0] == .deliveryFailed)
    }

    @Test("the force-quit draw hits its share (100,000 draws, within 0.01: over 7 standard errors) and is the same for the same serial")
    func forceQuitShare() {
        let budget = BackgroundBudget(forceQuitShare: 0.3)
        let hits = (0..<Int64(100_000)).filter { budget.isForceQuit(base: 12345, serial: $0) }.count
        #expect(abs(Double(hits) / 100_000 - 0.3) < 0.01)
        #expect(budget.isForceQuit(base: 9, serial: 4) == budget.isForceQuit(base: 9, serial: 4))
        #expect(!BackgroundBudget(forceQuitShare: 0).isForceQuit(base: 1, serial: 1))
    }
}
