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
            registrationReachesProvider(token, deviceIDHash: hash, at: now)
        case .subscriptionSyncReachesProvider(let generation):
            provider.subscriptionsSynced(generation: generation)
        case .pushReachesAPNs(let slot):
            pushReachesAPNs(slot, at: now, observer: Observer.self)
        case .apnsErrorReachesProvider(let slot, let reason, let timestamp):
            let (push, attempt) = pushPool.take(slot)
            provider.receiveResponse(.failure(reason, timestamp: timestamp), for: push,
                                     attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .sendFailureReachesProvider(let slot):
            let (push, attempt) = pushPool.take(slot)
            provider.sendFailed(push, attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .faultReachesProvider(let slot, let kind):
            faultReachesProvider(slot, kind, at: now, observer: Observer.self)
        case .retryDue(let slot):
            let (push, attempt) = pushPool.take(slot)
            provider.retryDue(push, attempt: attempt, at: now, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0, observer: Observer.self)
        case .powerWindowOpens(let token):
            apns.powerWindowOpens(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .pushReachesDevice(let slot):
            pushReachesDevice(slot, at: now, observer: Observer.self)
        case .rerequestReachesProvider(let position, let gap, let invocation, let returnDelay):
            serveRerequest(position: position, gap: gap, invocation: invocation, returnDelay: returnDelay, at: now,
                           observer: Observer.self)
        case .answerReachesDevice(let invocation, let ok):
            rerequestAnswerArrives(invocation: invocation, ok: ok, at: now, observer: Observer.self)
        case .extensionDeadline(let invocation):
            extensionDeadlinePasses(invocation: invocation, at: now, observer: Observer.self)
        case .appUpdateReachesDevice:
            phone.updateApp(into: &deviceEffects)
            routeDeviceEffects(at: now, observer: Observer.self)
        case .tapped(let message):
            tapped(message, at: now, observer: Observer.self)
        }
    }

    /// The extension's re-request reaches the provider, which re-sends what it still holds
    /// and answers; `returnDelay`: the rest of the round trip, which the answer takes back.
    @inline(__always)
    package mutating func serveRerequest<Observer: WorldObserver>(position: Int32, gap: Int32, invocation: Int32,
                                                                  returnDelay: SimDuration, at now: SimTime,
                                                                  observer: Observer.Type) {
        ledger.rerequestServed(invocation: invocation)
        provider.receiveRerequest(lastPosition: position, gap: gap, invocation: invocation, at: now, into: &providerEffects)
        routeProviderEffects(at: now, returnDelay: returnDelay, observer: Observer.self)
    }

    /// The provider's answer to re-request `invocation` reaches the extension.
    @inline(__always)
    package mutating func rerequestAnswerArrives<Observer: WorldObserver>(invocation: Int32, ok: Bool, at now: SimTime,
                                                                          observer: Observer.Type) {
        ledger.rerequestEnded(invocation: invocation)
        phone.receiveRerequestAnswer(invocation: invocation, ok: ok, at: now, into: &deviceEffects)
        // The answer or the deadline, whichever comes second, finds the invocation ended: nothing to route.
        if deviceRouted < deviceEffects.count { routeDeviceEffects(at: now, observer: Observer.self) }
    }

    /// The extension's time for invocation `invocation` is up.
    @inline(__always)
    package mutating func extensionDeadlinePasses<Observer: WorldObserver>(invocation: Int32, at now: SimTime,
                                                                           observer: Observer.Type) {
        ledger.rerequestEnded(invocation: invocation)
        phone.extensionDeadline(invocation: invocation, at: now, into: &deviceEffects)
        // As for the answer: after it, the deadline finds nothing waiting.
        if deviceRouted < deviceEffects.count { routeDeviceEffects(at: now, observer: Observer.self) }
    }

    /// The user taps message `message`'s notification: it is opened, and the app launches.
    @inline(__always)
    package mutating func tapped<Observer: WorldObserver>(_ message: Int32, at now: SimTime, observer: Observer.Type) {
        ledger.reached(Ledger.Stage.opened, messageIndex: message)
        launch(at: now, observer: Observer.self)
    }

    /// The app's registration reaches the provider.
    @inline(__always)
    private mutating func registrationReachesProvider(_ token: DeviceToken, deviceIDHash hash: UInt32, at now: SimTime) {
        ledger.counts[.registrations] += 1
        provider.register(token, deviceIDHash: hash, at: now)
    }

    /// A request reaches APNs from its slot: an error goes back to the provider, an accepted
    /// one frees the slot; what APNs does with it is routed.
    /// - Complexity: O(1) amortized, plus the effects routed.
    @inline(__always)
    package mutating func pushReachesAPNs<Observer: WorldObserver>(_ slot: PushSlot, at now: SimTime, observer: Observer.Type) {
        let response = apns.receive(pushPool[slot], at: now, into: &apnsEffects)
        Observer.apnsAnswered(response, at: now, in: &self)
        if let reason = response.reason {
            send(.apnsErrorReachesProvider(slot, reason, timestamp: response.timestamp ?? now), arrivingAt: now)
        } else {
            ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: pushPool[slot].payload.messageIndex)
            pushPool.free(slot)
        }
        routeAPNsEffects(at: now, observer: Observer.self)
    }

    /// A notification reaches the phone from its slot. The push stays in its slot while the
    /// phone takes it: a bounce goes back from there.
    /// - Complexity: O(1) amortized, plus the effects routed.
    @inline(__always)
    package mutating func pushReachesDevice<Observer: WorldObserver>(_ slot: PushSlot, at now: SimTime, observer: Observer.Type) {
        // The push stays in its slot while the phone takes it: a bounce goes back from there.
        // Read once: each read of the slot was a copy of the push.
        let push = pushPool[slot]
        if push.pushType == .background {
            backgroundPushReachesDevice(slot, at: now, observer: Observer.self)
            return
        }
        let footprintKB = memoryRandom.next()
        phone.receive(push, footprintKB: footprintKB, at: now, into: &deviceEffects)
        routeDeviceEffects(at: now, handedOver: slot, observer: Observer.self)
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
        case .outage, .connectivity, .mail:
            // The provider's alone (a mail's push meets APNs later, as a message), or the change itself.
            break
        case .deviceIDChange, .tokenRotation, .subscriptionChange, .launch, .steered, .backgroundPush:
            tellOfflineIfUntold(observer: Observer.self)
        }
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
            rotateToken(promptShown: promptShown, at: now, observer: Observer.self)
        case .subscriptionChange:
            subscriptionChanges(at: now, observer: Observer.self)
        case .connectivity(let online):
            timelineConnectivityChanges(at: now, online: online, observer: Observer.self)
        case .mail(let folder):
            mailArrives(at: now, folder: folder, folding: &aggregate, observer: Observer.self)
        case .launch:
            launch(at: now, observer: Observer.self)
        case .steered(let action):
            steer(action, at: now, observer: Observer.self)
        case .backgroundPush(let serial):
            backgroundPushSent(serial: serial, at: now, observer: Observer.self)
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

    /// Routes what the provider answered (`EffectRouter`), each effect shown first to
    /// `observer`. `returnDelay`: what is left of the round trip of the re-request being
    /// handled, which its answer takes back.
    /// - Complexity: O(effects) amortized.
    package mutating func routeProviderEffects<Observer: WorldObserver>(at now: SimTime, returnDelay: SimDuration,
                                                                        observer: Observer.Type) {
        self.returnDelay = returnDelay
        // By index: iterating the array itself would retain it on every call. As the phone's
        // (`routeDeviceEffects`): the loop's test is the read's bounds check.
        while UInt(bitPattern: providerRouted) < UInt(bitPattern: providerEffects.count) {
            let effect = providerEffects.withUnsafeBufferPointer { $0[providerRouted] }
            providerRouted &+= 1
            Observer.routing(effect, at: now, in: &self)
            EffectRouter.route(effect, at: now, through: &self)
        }
        if providerRouted >= World.effectsKept {
            providerEffects.removeAll()
            providerRouted = 0
        }
    }

    /// Routes what APNs answered (`EffectRouter`), each effect shown first to `observer`.
    /// APNs often answers nothing (a connection with nothing stored, a push stored for an
    /// offline device): that is checked here, inlined, without the routing's call.
    /// - Complexity: O(effects) amortized.
    @inline(__always)
    package mutating func routeAPNsEffects<Observer: WorldObserver>(at now: SimTime, observer: Observer.Type) {
        if apnsRouted < apnsEffects.count { routeAPNsEffectsLeft(at: now, observer: Observer.self) }
    }

    /// `routeAPNsEffects` once there is something to route.
    private mutating func routeAPNsEffectsLeft<Observer: WorldObserver>(at now: SimTime, observer: Observer.Type) {
        // As the phone's (`routeDeviceEffects`): the loop's test is the read's bounds check.
        while UInt(bitPattern: apnsRouted) < UInt(bitPattern: apnsEffects.count) {
            let effect = apnsEffects.withUnsafeBufferPointer { $0[apnsRouted] }
            apnsRouted &+= 1
            Observer.routing(effect, at: now, in: &self)
            EffectRouter.route(effect, at: now, through: &self)
        }
        if apnsRouted >= World.effectsKept {
            apnsEffects.removeAll()
            apnsRouted = 0
        }
    }

    /// Routes what the phone answered (`EffectRouter`), each effect shown first to
    /// `observer`. `handedOver`: the slot of the push just given to `Phone.receive` (-1:
    /// none), which `.deliveryFailed` names; it is freed unless the push goes back to APNs from it.
    /// - Complexity: O(effects) amortized.
    package mutating func routeDeviceEffects<Observer: WorldObserver>(at now: SimTime, handedOver: PushSlot = -1,
                                                                      observer: Observer.Type) {
        var bounced = false
        // `deviceRouted` counts up from 0 to the buffer's count: the loop's test is the read's bounds
        // check (the buffer pointer checks it again in debug builds); the count bounds the increment.
        while UInt(bitPattern: deviceRouted) < UInt(bitPattern: deviceEffects.count) {
            let effect = deviceEffects.withUnsafeBufferPointer { $0[deviceRouted] }
            deviceRouted &+= 1
            Observer.routing(effect, at: now, in: &self)
            if EffectRouter.route(effect, handedOver: handedOver, at: now, through: &self) { bounced = true }
        }
        if handedOver >= 0 && !bounced { pushPool.free(handedOver) }
        if deviceRouted >= World.effectsKept {
            deviceEffects.removeAll()
            deviceRouted = 0
        }
        // The message the agenda would hand out next, handled now (`handlesNowAtOnce`).
        if let message = pendingNow {
            pendingNow = nil
            eventsAtOnce += 1
            handleAtOnce(message, at: now, observer: Observer.self)
        }
    }

    /// `handle` for a message handled as the phone's routing ends (`sendNow`): a connection,
    /// a disconnection or a registration, most of them, handled here without `handle`'s call
    /// and dispatch.
    @inline(__always)
    private mutating func handleAtOnce<Observer: WorldObserver>(_ message: WorldEvent, at now: SimTime, observer: Observer.Type) {
        switch message {
        case .connectionReachesAPNs(let token):
            Observer.handling(message, at: now, in: &self)
            apns.deviceConnected(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now, observer: Observer.self)
        case .disconnectionReachesAPNs(let token):
            Observer.handling(message, at: now, in: &self)
            apns.deviceDisconnected(token)
        case .registrationReachesProvider(let token, let hash):
            // A registration follows a launch or a reconnection: a third of the messages handled at once.
            Observer.handling(message, at: now, in: &self)
            registrationReachesProvider(token, deviceIDHash: hash, at: now)
        case .bounceReachesAPNs, .tokenChangeReachesAPNs, .subscriptionSyncReachesProvider,
             .pushReachesAPNs, .apnsErrorReachesProvider, .sendFailureReachesProvider, .retryDue, .powerWindowOpens,
             .pushReachesDevice, .rerequestReachesProvider, .answerReachesDevice, .extensionDeadline,
             .appUpdateReachesDevice, .tapped, .faultReachesProvider:
            handle(message, at: now, observer: Observer.self)
        }
    }

    /// The app's log went up. Rare next to deliveries, and the ledger's upload is
    /// long: kept out of the routing loop, which it would otherwise slow.
    @inline(never)
    private mutating func logUploaded(at now: SimTime, atReconnect: Bool) {
        ledger.uploaded(at: now, atReconnect: atReconnect)
    }
}

/// A world is one lane for the router: one device app, its agenda and pool, its ledger as
/// the books, and the provider in process, reached through the agenda after drawn latencies.
extension World: ProviderEffectLane, APNsEffectLane, DeviceEffectLane {
    package typealias Message = WorldEvent

    /// Sends through the agenda's slots written before, inlined; a message that needs a new
    /// slot (rare once a lane has run a while) goes apart (`sendTakingSlot`). The routing loops
    /// then hold no address of the agenda's queues for a call, which they computed and kept
    /// on every entry (about 4 instructions a routing, 5.7 million on mail).
    @inline(__always)
    package mutating func send(_ message: WorldEvent, arrivingAt time: SimTime) {
        if !agenda.trySend(message, arrivingAt: time) { sendTakingSlot(message, arrivingAt: time) }
    }

    /// `send` for a message that takes a new slot of the agenda's.
    @inline(never)
    private mutating func sendTakingSlot(_ message: WorldEvent, arrivingAt time: SimTime) {
        agenda.send(message, arrivingAt: time)
    }

    /// `sendNow`'s agenda half: through a slot written before, inlined, or apart.
    @inline(__always)
    private mutating func sendNowThroughAgenda(_ message: WorldEvent) {
        if !agenda.trySendNow(message) { sendNowTakingSlot(message) }
    }

    /// `sendNow` for a message that takes a new slot of the agenda's.
    @inline(never)
    private mutating func sendNowTakingSlot(_ message: WorldEvent) {
        agenda.sendNow(message)
    }

    package mutating func sendNow(_ message: WorldEvent) {
        // Sent by the last of the phone's effects with nothing else due now: the agenda would
        // hand it out next, so the routing hands it over as it ends (`handlesNowAtOnce`).
        if handlesNowAtOnce, deviceRouted == deviceEffects.count, pendingNow == nil, !agenda.holdsZeroTimeMessages,
           Self.isHandledAtOnce(message) {
            pendingNow = message
        } else {
            sendNowThroughAgenda(message)
        }
    }

    /// The zero-time messages that may skip the agenda: those that reach APNs's connection
    /// state or the provider's registrations, and send nothing at zero time themselves.
    @inline(__always)
    private static func isHandledAtOnce(_ message: WorldEvent) -> Bool {
        switch message {
        case .connectionReachesAPNs, .disconnectionReachesAPNs, .registrationReachesProvider, .subscriptionSyncReachesProvider:
            true
        case .bounceReachesAPNs, .tokenChangeReachesAPNs, .pushReachesAPNs, .apnsErrorReachesProvider, .sendFailureReachesProvider,
             .faultReachesProvider, .retryDue, .powerWindowOpens, .pushReachesDevice, .rerequestReachesProvider, .answerReachesDevice,
             .extensionDeadline, .appUpdateReachesDevice, .tapped:
            false
        }
    }

    package mutating func park(_ push: PushNotification, attempt: Int32) -> PushSlot {
        pushPool.park(push, attempt: attempt)
    }

    package mutating func deliveryDelay(for token: DeviceToken) -> SimDuration { apnsLatencyRandom.next() }

    package mutating func powerDelay(for token: DeviceToken) -> SimDuration { powerRandom.next() }

    @inline(__always)
    package mutating func tapDelay() -> SimDuration? { draws.tap(&tapRandom) }

    package var routedLane: Int32 { 0 }
    package var end: SimTime { scenario.duration }

    /// A request leaves the provider: the network loses it (the provider's timeout
    /// fires) or it reaches APNs after the provider-to-APNs latency. Inlined into the
    /// provider's routing: called, the push was copied out of its effect onto the stack
    /// to be passed by address, 20 stores a request.
    @inline(__always)
    package mutating func sendToAPNs(_ push: PushNotification, attempt: Int32, at now: SimTime) {
        // The router's `.sent` note of this request, taken here (`note(_:at:)`).
        ledger.pushSent(push, isRetry: attempt > 0)
        let slot = pushPool.park(push, attempt: attempt)
        if let network = draws.network, networkRandom.nextUnitInterval() <= network.failureProbability {
            send(.sendFailureReachesProvider(slot), arrivingAt: now + network.timeout)
        } else if faultLane.isNamed, let kind = faultLane.kind(at: now) {
            sendIntoFault(slot, kind, at: now)
        } else {
            send(.pushReachesAPNs(slot), arrivingAt: now + providerLatencyRandom.next())
        }
    }

    package mutating func retry(_ push: PushNotification, attempt: Int32, due: SimTime) {
        send(.retryDue(pushPool.park(push, attempt: attempt)), arrivingAt: due)
    }

    package mutating func answerRerequest(invocation: Int32, ok: Bool, at now: SimTime) {
        send(.answerReachesDevice(invocation: invocation, ok: ok), arrivingAt: now + returnDelay)
    }

    @inline(__always)
    package mutating func note(_ note: ProviderNote, at now: SimTime) {
        // A request leaving, nearly every note, is noted by `sendToAPNs`, which the router calls
        // next with the same push (`isRetry` is `attempt > 0`): one call a request, not two.
        if case .sent = note { return }
        // A re-request answered with re-sends, nearly every answer, counts nothing: no call.
        if case .rerequestAnswered(ok: true) = note { return }
        noteSeldom(note, at: now)
    }

    /// `note(_:at:)` for the provider's other notes (retries, re-request answers, losses).
    @inline(never)
    private mutating func noteSeldom(_ note: ProviderNote, at now: SimTime) {
        switch note {
        case .sent: break // Noted by `sendToAPNs`.
        case .retryScheduled:
            ledger.counts[.retries] += 1
            if let kind = faultLane.routing { ledger.faults[kind, .retries] += 1 }
        case .rerequestAnswered(let ok): if !ok { ledger.counts[.rerequestErrors] += 1 }
        case .positionsExpired(let count): ledger.counts[.positionsExpired] += Int64(count)
        case .failed(let push, _, let loss):
            ledger.lost(push, loss)
            if let kind = faultLane.routing { ledger.faults[kind, .givenUp] += 1 }
        case .dropped(let message, _, let loss): ledger.dropped(messageIndex: message, loss)
        }
    }

    package mutating func discarded(_ push: PushNotification, _ reason: APNsDiscardReason, loss: LossReason, at now: SimTime) {
        apnsDiscarded(push, reason, loss: loss)
    }

    /// The phone's calls reach the in-process provider through the agenda: a registration
    /// and a subscription sync at once, a re-request after half a drawn round trip (its
    /// answer takes the other half back).
    package mutating func callProvider(_ call: PhoneCall, at now: SimTime) {
        switch call {
        case .register(let token, let hash):
            sendNow(.registrationReachesProvider(token, deviceIDHash: hash))
        case .subscriptions(let generation):
            sendNow(.subscriptionSyncReachesProvider(generation: generation))
        case .rerequest(let position, let gap, let invocation):
            ledger.rerequested()
            ledger.rerequestOpened(position: position, gap: gap, invocation: invocation)
            let roundTrip = rerequestRandom.next()
            send(.rerequestReachesProvider(position: position, gap: gap, invocation: invocation,
                                                     returnDelay: roundTrip - roundTrip / 2), arrivingAt: now + roundTrip / 2)
        }
    }

    package mutating func presented(messageIndex: Int32, isResend: Bool, replacedExisting: Bool, run: ExtensionRun,
                                   at now: SimTime) -> Bool {
        // Nearly every showing is of a run that went well: one comparison, not the switch's table.
        if run != .ran {
            switch run {
            case .ran: break
            case .notRun: ledger.counts[.extensionNotRun] += 1
            case .killed: ledger.counts[.extensionKilled] += 1
            case .timedOut: ledger.counts[.extensionTimedOut] += 1
            case .hashMismatch: ledger.counts[.hashMismatches] += 1
            }
        }
        return ledger.presented(messageIndex: messageIndex, isResend: isResend, replacedExisting: replacedExisting, at: now)
    }

    package mutating func note(_ note: DeviceNote, at now: SimTime) {
        switch note {
        case .online, .offline, .bounced: break
        case .received(let message, let isResend, let logged):
            ledger.received(messageIndex: message, isResend: isResend, logged: logged, at: now)
        case .logUploaded(let atReconnect): logUploaded(at: now, atReconnect: atReconnect)
        case .appUpdated: ledger.counts[.appUpdates] += 1
        case .answerMissed: ledger.counts[.rerequestAnswersMissed] += 1
        case .summaryShown(let message, let from, let to, let replacedExisting):
            ledger.summaryShown(messageIndex: message, from: from, to: to, replacedExisting: replacedExisting)
        case .notShown(let message, _, let loss): ledger.lost(messageIndex: message, loss)
        case .positionSaved(let position): ledger.positionSaved(position)
        case .background(_, let fate): backgroundFate(fate)
        }
    }
}

extension WorldEvent: DeviceAppMessage {
    /// A world holds one device app: the lane is not carried.
    @inline(__always) package static func extensionDeadline(lane: Int32, invocation: Int32) -> WorldEvent {
        .extensionDeadline(invocation: invocation)
    }

    @inline(__always) package static func tapped(lane: Int32, messageIndex: Int32) -> WorldEvent {
        .tapped(messageIndex: messageIndex)
    }
}
