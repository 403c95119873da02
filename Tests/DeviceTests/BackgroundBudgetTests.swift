@testable import Base
@testable import Device
@testable import FakeAPNs
import Foundation
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

    /// The closed form of the hourly budget under Poisson arrivals. Arrivals at rate λ an
    /// hour; each finds the app force-quit with probability q (discarded, spending nothing),
    /// so those that meet the budget are Poisson with μ = λ(1 − q) an hour (thinning). With
    /// H ∈ {0, 1} the push held at an hour's start (it takes one of the K slots), the hour's
    /// N arrivals deliver min(N, K − H) at once and defer max(0, N − (K − H)), of which all
    /// but the newest are throttled, and H' = 1 exactly when N > K − H: a two-state Markov
    /// chain with p_h = P(N > K − h) and stationary π₁ = p₀ / (1 − p₁ + p₀).
    private struct ClosedForm {
        var delivered = 0.0, afterDeferral = 0.0, deferred = 0.0, throttled = 0.0, discarded = 0.0

        init(perHour lambda: Double, budget: Int, forceQuit q: Double) {
            let mu = lambda * (1 - q)
            let top = 200
            var pmf = [Double](repeating: 0, count: top)
            pmf[0] = exp(-mu)
            for n in 1..<top { pmf[n] = pmf[n - 1] * mu / Double(n) }
            func tail(above k: Int) -> Double { pmf.indices.filter { $0 > k }.reduce(0) { $0 + pmf[$1] } }
            let p0 = tail(above: budget), p1 = tail(above: budget - 1)
            let held = p0 / (1 - p1 + p0)
            for (h, weight) in [(0, 1 - held), (1, held)] {
                let room = budget - h
                for n in pmf.indices {
                    delivered += weight * pmf[n] * Double(min(n, room))
                    deferred += weight * pmf[n] * Double(max(0, n - room))
                    throttled += weight * pmf[n] * Double(max(0, n - room - 1))
                }
            }
            afterDeferral = held
            discarded = lambda * q
        }
    }

    @Test("the hourly budget throttles as its closed form says (Poisson arrivals, 200,000 hours, within 0.02 an hour: about 6 standard errors)",
          arguments: [(4.0, 3, 0.0), (2.5, 2, 0.2), (6.0, 3, 0.1)])
    func throttlesAsTheClosedForm(lambda: Double, budget: Int, forceQuit: Double) {
        let hours = 200_000
        let model = BackgroundBudget(perHour: Int32(budget), forceQuitShare: forceQuit)
        var updates = BackgroundUpdates()
        var effects: OwnedBuffer<DeviceEffect> = []
        var random = SplitMix64(seed: 0xbac6_2024)
        var counts = [BackgroundFate: Int](), serial: Int64 = 0
        var time: SimTime = 0
        let horizon = SimTime(hours) * hour
        while true {
            time += max(1, SimTime((-log(random.nextUnitInterval()) / lambda * Double(hour)).rounded(.up)))
            guard time < horizon else { break }
            let forceQuit = model.isForceQuit(base: 77, serial: serial)
            serial += 1
            updates.arrive(messageIndex: Int32(truncatingIfNeeded: serial), appForceQuit: forceQuit, budget: model, at: time,
                           into: &effects)
            for index in 0..<effects.count { if case .background(_, let fate) = effects[index] { counts[fate, default: 0] += 1 } }
            effects.removeAll()
        }
        let expected = ClosedForm(perHour: lambda, budget: budget, forceQuit: forceQuit)
        func perHour(_ fate: BackgroundFate) -> Double { Double(counts[fate] ?? 0) / Double(hours) }
        // The per-hour counts have variances below about 2 (Poisson-like, μ ≤ 6 past a budget of
        // 2 or 3), and the chain mixes within a few hours: a standard error of at most about
        // √(2 × 2 / 200,000) ≈ 0.0045 an hour, so 0.02 is some 4–6 of them.
        let tolerance = 0.02
        #expect(abs(perHour(.deliveredToApp) - expected.delivered) < tolerance)
        #expect(abs(perHour(.deferred) - expected.deferred) < tolerance)
        #expect(abs(perHour(.throttled) - expected.throttled) < tolerance)
        #expect(abs(perHour(.deliveredAfterDeferral) - expected.afterDeferral) < tolerance)
        #expect(abs(perHour(.discardedForceQuit) - expected.discarded) < tolerance)
        // What reaches the app an hour never exceeds the budget on average.
        #expect(perHour(.deliveredToApp) + perHour(.deliveredAfterDeferral) <= Double(budget))
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
