import Base
import Device
import FakeAPNs
import Provider

extension World {
    /// Delivers one message to its actor and routes what the actor answers, shown
    /// first to `observer`.
    /// - Complexity: O(1) amortized, plus the effects routed.
    package mutating func handle<Observer: WorldObserver>(_ message: WorldEvent, at now: SimTime, observer: Observer.Type) {
        Observer.handling(message, at: now, in: &self)
        switch message {
        case .connectionReachesAPNs(let token):
            apns.deviceConnected(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .disconnectionReachesAPNs(let token):
            apns.deviceDisconnected(token)
        case .bounceReachesAPNs(let slot):
            apns.deliveryFailed(pushPool.take(slot).push, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .tokenChangeReachesAPNs(let old, let new):
            apns.tokenChanged(from: old, to: new, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .registrationReachesProvider(let token, let hash):
            ledger.counts[.registrations] += 1
            provider.register(token, deviceIDHash: hash, at: now)
        case .subscriptionSyncReachesProvider(let generation):
            provider.subscriptionsSynced(generation: generation)
        case .pushReachesAPNs(let slot):
            let response = apns.receive(pushPool[slot], at: now, into: &apnsEffects)
            Observer.apnsAnswered(response, at: now, in: &self)
            if let reason = response.reason {
                agenda.send(.apnsErrorReachesProvider(slot, reason, timestamp: response.timestamp ?? now), arrivingAt: now)
            } else {
                ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: pushPool[slot].payload.messageIndex)
                pushPool.free(slot)
            }
            routeAPNsEffects(at: now, observer: Observer.self)
        case .apnsErrorReachesProvider(let slot, let reason, let timestamp):
            let (push, attempt) = pushPool.take(slot)
            provider.receiveResponse(.failure(reason, timestamp: timestamp), for: push,
                                     attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .sendFailureReachesProvider(let slot):
            let (push, attempt) = pushPool.take(slot)
            provider.sendFailed(push, attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .retryDue(let slot):
            let (push, attempt) = pushPool.take(slot)
            provider.retryDue(push, attempt: attempt, at: now, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .powerWindowOpens(let token):
            apns.powerWindowOpens(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .pushReachesDevice(let slot):
            // The push stays in its slot while the phone takes it: a bounce goes back from there.
            let footprintKB = footprint?.sample(&memoryRandom) ?? 0
            phone.receive(pushPool[slot], footprintKB: footprintKB, at: now, into: &deviceEffects)
            routeDeviceEffects(at: now, handedOver: slot, observer: Observer.self)
        case .rerequestReachesProvider(let position, let gap, let invocation, let returnDelay):
            ledger.rerequestServed(invocation: invocation)
            provider.receiveRerequest(lastPosition: position, gap: gap, invocation: invocation, at: now,
                                      into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: returnDelay, observer: Observer.self)
        case .answerReachesDevice(let invocation, let ok):
            ledger.rerequestEnded(invocation: invocation)
            phone.receiveRerequestAnswer(invocation: invocation, ok: ok, at: now, into: &deviceEffects)
            routeDeviceEffects(at: now, observer: Observer.self)
        case .extensionDeadline(let invocation):
            ledger.rerequestEnded(invocation: invocation)
            phone.extensionDeadline(invocation: invocation, at: now, into: &deviceEffects)
            routeDeviceEffects(at: now, observer: Observer.self)
        case .appUpdateReachesDevice:
            phone.updateApp(into: &deviceEffects)
            routeDeviceEffects(at: now, observer: Observer.self)
        case .tapped(let message):
            ledger.reached(Ledger.Stage.opened, messageIndex: message)
            launch(at: now, observer: Observer.self)
        }
    }

    /// Handles what the user, the device or the provider's schedule does on its own,
    /// shown first to `observer`; a long lane's ledger folds settled messages into
    /// `aggregate` (the lane's) as mail comes.
    /// - Complexity: O(1) amortized, plus the effects routed (and the messages folded).
    @inline(__always)
    package mutating func handle<Observer: WorldObserver>(_ event: TimelineEvent, at now: SimTime,
                                                          folding aggregate: inout StrategyAggregate, observer: Observer.Type) {
        Observer.occurring(event, at: now, in: &self)
        switch event {
        case .outage(let down):
            if down { provider.outageBegins() } else { provider.outageEnds() }
        case .deviceIDChange(let newID):
            // One device event, replayed in every app's lane: counted once.
            if currentLane == 0 { ledger.counts[.deviceIDChanges] += 1 }
            let hash = UInt32(truncatingIfNeeded: SplitMix64.mix(newID))
            ledger.deviceIDChanged(hash: hash)
            phone.changeDeviceID(to: newID, hash: hash)
        case .tokenRotation(let promptShown):
            ledger.counts[.tokenRotations] += 1
            let newToken = DeviceToken(nextTokenNumber)
            nextTokenNumber += 1
            phone.rotateToken(to: newToken, promptShown: promptShown, into: &deviceEffects)
            routeDeviceEffects(at: now, observer: Observer.self)
        case .subscriptionChange:
            subscriptionChanges(at: now, observer: Observer.self)
        case .connectivity(let online):
            connectivityChanges(at: now, online: online, observer: Observer.self)
        case .mail(let folder):
            mailArrives(at: now, folder: folder, folding: &aggregate, observer: Observer.self)
        case .launch:
            launch(at: now, observer: Observer.self)
        }
    }

    /// A mail reaches the provider from the backend, for folder generation `folder`.
    package mutating func mailArrives<Observer: WorldObserver>(at now: SimTime, folder: Int32, folding aggregate: inout StrategyAggregate,
                                                               observer: Observer.Type) {
        let message = ledger.newMessage(at: now, folding: &aggregate)
        Observer.mailArrived(message, at: now, in: &self)
        provider.receiveMail(messageIndex: message, folderGeneration: folder, at: now, into: &providerEffects)
        routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
    }

    /// The device goes online or offline.
    package mutating func connectivityChanges<Observer: WorldObserver>(at now: SimTime, online: Bool, observer: Observer.Type) {
        phone.setOnline(online, at: now, into: &deviceEffects)
        routeDeviceEffects(at: now, observer: Observer.self)
    }

    /// The user subscribes to another folder in the app.
    package mutating func subscriptionChanges<Observer: WorldObserver>(at now: SimTime, observer: Observer.Type) {
        ledger.counts[.subscriptionChanges] += 1
        folderGeneration += 1
        phone.subscriptionChanged(generation: folderGeneration, into: &deviceEffects)
        routeDeviceEffects(at: now, observer: Observer.self)
    }

    /// The user opens the app: it uploads its log, registers (per policy) and
    /// syncs what changed offline.
    package mutating func launch<Observer: WorldObserver>(at now: SimTime, observer: Observer.Type) {
        ledger.launched(at: now)
        phone.launch(into: &deviceEffects)
        routeDeviceEffects(at: now, observer: Observer.self)
    }

    /// Routes what the provider answered, each effect shown first to `observer`.
    /// - Complexity: O(effects) amortized.
    package mutating func routeProviderEffects<Observer: WorldObserver>(at now: SimTime, returnDelay: SimDuration,
                                                                        observer: Observer.Type) {
        // By index: iterating the array itself would retain it on every call.
        while providerRouted < providerEffects.count {
            let effect = providerEffects[providerRouted]
            providerRouted += 1
            Observer.routing(effect, at: now, in: &self)
            switch effect {
            case .send(let push):
                ledger.pushSent(push)
                send(push, attempt: 0, at: now)
            case .sendRetry(let push, let attempt):
                ledger.pushSent(push, isRetry: true)
                send(push, attempt: attempt, at: now)
            case .retry(let push, let attempt, let after):
                ledger.counts[.retries] += 1
                agenda.send(.retryDue(pushPool.park(push, attempt: attempt)), arrivingAt: now + after)
            case .answer(let invocation, let ok):
                if !ok { ledger.counts[.rerequestErrors] += 1 }
                agenda.send(.answerReachesDevice(invocation: invocation, ok: ok), arrivingAt: now + returnDelay)
            case .positionsExpired(let count):
                ledger.counts[.positionsExpired] += Int64(count)
            case .failed(let push, let failure):
                ledger.lost(push, Self.lossReason(failure))
            case .dropped(let message, let reason):
                ledger.dropped(messageIndex: message, Self.lossReason(reason))
            }
        }
        if providerRouted >= World.effectsKept {
            providerEffects.removeAll(keepingCapacity: true)
            providerRouted = 0
        }
    }

    /// A request leaves the provider: the network loses it (the provider's timeout
    /// fires) or it reaches APNs after the provider-to-APNs latency.
    @inline(__always)
    private mutating func send(_ push: PushNotification, attempt: Int32, at now: SimTime) {
        let slot = pushPool.park(push, attempt: attempt)
        if let network = chain.provider.network, networkRandom.nextUnitInterval() <= network.failureProbability {
            agenda.send(.sendFailureReachesProvider(slot), arrivingAt: now + network.timeout)
        } else {
            agenda.send(.pushReachesAPNs(slot), arrivingAt: now + providerToAPNs.sample(&providerLatencyRandom))
        }
    }

    package static func lossReason(_ failure: ProviderFailure) -> LossReason {
        switch failure {
        case .rejected(let response):
            // Out of retries, a throttled request is lost to the throttle; every other
            // refusal (APNs unavailable included) to APNs.
            switch response.reason?.remedy {
            case .dropToken?: .unregistered
            case .retryLater?: response.reason == .tooManyRequests ? .rateLimited : .apnsRejected
            case .giveUp?, nil: .apnsRejected
            }
        case .network: .providerNetwork
        case .outage: .providerOutage
        }
    }

    package static func lossReason(_ notShown: NotShownReason) -> LossReason {
        switch notShown {
        case .alertsNotAllowed: .alertsNotAllowed
        case .displayOff: .displayOff
        }
    }

    package static func lossReason(_ drop: ProviderDropReason) -> LossReason {
        switch drop {
        case .noValidToken: .unregistered
        case .staleSubscription: .staleSubscription
        case .outage: .providerOutage
        }
    }

    /// Routes what APNs answered, each effect shown first to `observer`.
    /// - Complexity: O(effects) amortized.
    package mutating func routeAPNsEffects<Observer: WorldObserver>(at now: SimTime, observer: Observer.Type) {
        while apnsRouted < apnsEffects.count {
            let effect = apnsEffects[apnsRouted]
            apnsRouted += 1
            Observer.routing(effect, at: now, in: &self)
            switch effect {
            case .deliver(let push):
                let delay = apnsToDevice.sample(&apnsLatencyRandom)
                agenda.send(.pushReachesDevice(pushPool.park(push, attempt: 0)), arrivingAt: now + delay)
            case .deferForPower(let token):
                let delay = powerDeferral?.sample(&powerRandom) ?? 0
                agenda.send(.powerWindowOpens(token), arrivingAt: now + delay)
            case .discard(let push, .replaced):
                ledger.lost(push, .apnsCoalesced)
            case .discard(let push, .expired):
                ledger.lost(push, .apnsExpired)
            case .discard(let push, .unregistered):
                ledger.lost(push, .unregistered)
            case .discard(let push, .disabled):
                ledger.lost(push, .disabled)
            case .held:
                // Told only to a traced world (`APNsConfiguration.reportsHolding`), for its observer.
                break
            }
        }
        if apnsRouted >= World.effectsKept {
            apnsEffects.removeAll(keepingCapacity: true)
            apnsRouted = 0
        }
    }

    /// The app's log went up. Rare next to deliveries, and the ledger's upload is
    /// long: kept out of the routing loop, which it would otherwise slow.
    @inline(never)
    private mutating func logUploaded(at now: SimTime, atReconnect: Bool) {
        ledger.uploaded(at: now, atReconnect: atReconnect)
    }

    /// Routes what the phone answered. `handedOver`: the slot of the push just given
    /// to `Phone.receive` (-1: none), which `.deliveryFailed` names; it is freed
    /// unless the push goes back to APNs from it.
    /// - Complexity: O(effects) amortized.
    package mutating func routeDeviceEffects<Observer: WorldObserver>(at now: SimTime, handedOver: PushSlot = -1,
                                                                      observer: Observer.Type) {
        var bounced = false
        while deviceRouted < deviceEffects.count {
            let effect = deviceEffects[deviceRouted]
            deviceRouted += 1
            Observer.routing(effect, at: now, in: &self)
            switch effect {
            case .connected(let token):
                agenda.sendNow(.connectionReachesAPNs(token))
            case .disconnected(let token):
                agenda.sendNow(.disconnectionReachesAPNs(token))
            case .deliveryFailed:
                precondition(handedOver >= 0, "a delivery failed with no push handed over")
                bounced = true
                agenda.sendNow(.bounceReachesAPNs(handedOver))
            case .received(let message, let isResend, let logged):
                ledger.reachedDevice(messageIndex: message, isResend: isResend)
                if logged { ledger.logged(messageIndex: message, at: now) }
            case .logUploaded(let atReconnect):
                logUploaded(at: now, atReconnect: atReconnect)
            case .appUpdated:
                ledger.counts[.appUpdates] += 1
            case .rerequest(let position, let gap, let invocation):
                ledger.rerequested()
                ledger.rerequestOpened(position: position, gap: gap, invocation: invocation)
                let roundTrip = rerequestRoundTrip.sample(&rerequestRandom)
                agenda.send(.rerequestReachesProvider(position: position, gap: gap, invocation: invocation,
                                                         returnDelay: roundTrip - roundTrip / 2), arrivingAt: now + roundTrip / 2)
            case .startDeadline(let invocation, let after):
                agenda.send(.extensionDeadline(invocation: invocation), arrivingAt: now + after)
            case .presented(let message, let replacedExisting, let run):
                switch run {
                case .ran: break
                case .notRun: ledger.counts[.extensionNotRun] += 1
                case .killed: ledger.counts[.extensionKilled] += 1
                case .timedOut: ledger.counts[.extensionTimedOut] += 1
                case .hashMismatch: ledger.counts[.hashMismatches] += 1
                }
                let first = ledger.presented(messageIndex: message, replacedExisting: replacedExisting, at: now)
                if first, let taps = chain.device.taps, tapRandom.nextUnitInterval() <= taps.probability {
                    let delay = tapDelay?.sample(&tapRandom) ?? 0
                    if now + delay < scenario.duration {
                        agenda.send(.tapped(messageIndex: message), arrivingAt: now + delay)
                    }
                }
            case .rerequestAnswerMissed:
                ledger.counts[.rerequestAnswersMissed] += 1
            case .summaryShown(let message, let from, let to, let replacedExisting):
                ledger.summaryShown(messageIndex: message, from: from, to: to, replacedExisting: replacedExisting)
            case .notShown(let message, let reason):
                ledger.lost(messageIndex: message, Self.lossReason(reason))
            case .tokenChanged(let old, let new):
                agenda.sendNow(.tokenChangeReachesAPNs(old: old, new: new))
            case .registered(let token, let hash):
                agenda.sendNow(.registrationReachesProvider(token, deviceIDHash: hash))
            case .subscriptionsSynced(let generation):
                agenda.sendNow(.subscriptionSyncReachesProvider(generation: generation))
            case .positionSaved(let position):
                ledger.positionSaved(position)
            }
        }
        if handedOver >= 0 && !bounced { pushPool.free(handedOver) }
        if deviceRouted >= World.effectsKept {
            deviceEffects.removeAll(keepingCapacity: true)
            deviceRouted = 0
        }
    }
}
