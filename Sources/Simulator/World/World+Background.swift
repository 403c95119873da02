import Base
import Device
import FakeAPNs

extension World {
    /// The payload of a background push: `{"aps":{"content-available":1}}` and a small
    /// sync hint, in bytes (only its size matters to APNs).
    package static let backgroundPayloadBytes: Int32 = 64

    /// The backend sends the app background push number `serial` (`background`): straight
    /// to APNs, to the token the provider knows, with `apns-push-type: background` and
    /// `apns-priority: 5`, as Apple requires. It is no mail: the ledger's messages never
    /// see it; it is counted in `ledger.background`.
    /// - Complexity: O(1), plus the effects routed.
    package mutating func backgroundPushSent<Observer: WorldObserver>(serial: Int32, at now: SimTime, observer: Observer.Type) {
        guard let token = provider.currentToken else { return }
        ledger.background[.sent] += 1
        let push = PushNotification(token: token, pushType: .background, priority: 5, expiration: .absent,
                                    payload: PushPayload(messageIndex: serial, mutableContent: false, hasAlert: false,
                                                         fromProvider: false, byteCount: Self.backgroundPayloadBytes))
        if apns.receive(push, at: now, into: &apnsEffects).reason != nil { ledger.background[.rejected] += 1 }
        routeAPNsEffects(at: now, observer: Observer.self)
    }

    /// The base of lane `lane`'s force-quit draws (`BackgroundBudget.isForceQuit`), from its own stream.
    /// - Complexity: O(1).
    package static func backgroundForceQuitBase(seed: UInt64, user: Int, lane: Int) -> UInt64 {
        var stream = RandomStream.backgroundForceQuit.generator(seed: seed, user: UInt64(user), lane: lane)
        return stream.next()
    }

    /// A background push reaches the phone: no extension runs for it, so no footprint is
    /// drawn and the mail's draws stay as they were. Kept out of the mail's path.
    /// - Complexity: O(1), plus the effects routed.
    @inline(never)
    package mutating func backgroundPushReachesDevice<Observer: WorldObserver>(_ slot: PushSlot, at now: SimTime,
                                                                              observer: Observer.Type) {
        let push = pushPool[slot]
        phone.receive(push, appForceQuit: backgroundFindsAppForceQuit(serial: push.payload.messageIndex), at: now,
                      into: &deviceEffects)
        routeDeviceEffects(at: now, handedOver: slot, observer: Observer.self)
    }

    /// Whether background push `serial` finds the app force-quit on this lane
    /// (`BackgroundBudget.isForceQuit`, from the lane's own stream).
    /// - Complexity: O(1).
    package func backgroundFindsAppForceQuit(serial: Int32) -> Bool {
        guard let budget = scenario.chain.background?.budget, budget.forceQuitShare > 0 else { return false }
        return budget.isForceQuit(base: backgroundForceQuitBase, serial: Int64(serial))
    }

    /// APNs discarded `push`: a background push is counted as such; a mail's is a loss, and
    /// one that left the offline slot to a background push is what the stream cost.
    /// - Complexity: O(1).
    package mutating func apnsDiscarded(_ push: PushNotification, _ reason: APNsDiscardReason, loss: LossReason) {
        guard push.pushType != .background else {
            ledger.background[.apnsDiscarded] += 1
            return
        }
        if reason == .replaced, apns.storedPushType(for: push.token) == .background {
            ledger.background[.mailReplaced] += 1
        }
        ledger.lost(push, loss)
    }

    /// A background push met its fate on the device.
    /// - Complexity: O(1).
    package mutating func backgroundFate(_ fate: BackgroundFate) {
        ledger.background[fate.counter] += 1
        switch fate {
        case .deliveredToApp, .deferred, .discardedForceQuit: ledger.background[.received] += 1
        case .deliveredAfterDeferral, .throttled: break
        }
    }

    /// At the lane's end: a push held from an earlier hour reached the app when its hour
    /// began (inside the run: an hour that starts at `end` is past it); one still held is
    /// counted so.
    /// - Complexity: O(1).
    package mutating func settleBackground<Observer: WorldObserver>(at end: SimTime, observer: Observer.Type) {
        guard scenario.chain.background != nil else { return }
        phone.settleBackground(at: end - 1, into: &deviceEffects)
        routeDeviceEffects(at: end - 1, observer: Observer.self)
        if phone.backgroundUpdates.held != nil { ledger.background[.heldAtEnd] += 1 }
    }

    /// Background pushes on their way or held by APNs (not the ledger's copies).
    /// - Complexity: O(m) in the messages waiting.
    package func backgroundCopiesLocated() -> Int64 {
        var located = Int64(agenda.countMessages { message in
            switch message {
            case .pushReachesDevice(let slot), .bounceReachesAPNs(let slot): pushPool[slot].pushType == .background
            case .pushReachesAPNs, .apnsErrorReachesProvider, .sendFailureReachesProvider, .retryDue,
                 .connectionReachesAPNs, .disconnectionReachesAPNs, .tokenChangeReachesAPNs,
                 .registrationReachesProvider, .subscriptionSyncReachesProvider, .powerWindowOpens,
                 .rerequestReachesProvider, .answerReachesDevice, .extensionDeadline, .tapped, .appUpdateReachesDevice,
                 .faultReachesProvider:
                // A fault's request is the provider's: background pushes go to APNs on their own.
                false
            }
        })
        for token in 0..<nextTokenNumber {
            let token = DeviceToken(token)
            if apns.storedNotification(for: token)?.pushType == .background { located += 1 }
            located += Int64(apns.powerBatch(for: token).count { $0.pushType == .background })
        }
        return located
    }
}
