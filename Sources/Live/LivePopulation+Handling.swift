import Base
import Device
import FakeAPNs
import Simulator

extension LivePopulation {
    /// Delivers one message to its actor and routes what the actor answers.
    /// - Complexity: O(1) amortized, plus the effects routed.
    mutating func handle(_ message: LiveMessage, at now: SimTime) {
        switch message {
        case .connectionReachesAPNs(let token):
            apns.deviceConnected(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now)
        case .disconnectionReachesAPNs(let token):
            apns.deviceDisconnected(token)
        case .bounceReachesAPNs(let slot):
            let push = pool.take(slot).push
            let lane = tokens.lane(of: push.token)
            lendCoin(of: lane)
            apns.deliveryFailed(push, at: now, into: &apnsEffects)
            returnCoin(to: lane)
            routeAPNsEffects(at: now)
        case .tokenChangeReachesAPNs(let old, let new):
            apns.tokenChanged(from: old, to: new, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now)
        case .powerWindowOpens(let token):
            let lane = tokens.lane(of: token)
            lendCoin(of: lane)
            apns.powerWindowOpens(token, at: now, into: &apnsEffects)
            returnCoin(to: lane)
            routeAPNsEffects(at: now)
        case .pushReachesDevice(let slot):
            // The push stays in its slot while the phone takes it: a bounce goes back from there.
            let push = pool[slot]
            let lane = tokens.lane(of: push.token)
            if push.pushType == .background {
                // No extension runs for it: no footprint drawn.
                lanes[Int(lane)].phone.receive(push, appForceQuit: backgroundFindsAppForceQuit(lane: lane), at: now,
                                               into: &deviceEffects)
            } else {
                let footprintKB = draws.footprintKB(&lanes[Int(lane)].streams.memory)
                lanes[Int(lane)].phone.receive(push, footprintKB: footprintKB, at: now, into: &deviceEffects)
            }
            routeDeviceEffects(lane: lane, at: now, handedOver: slot)
        case .answerReachesDevice(let lane, let invocation, let ok):
            lanes[Int(lane)].phone.receiveRerequestAnswer(invocation: invocation, ok: ok, at: now, into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .extensionDeadline(let lane, let invocation):
            lanes[Int(lane)].phone.extensionDeadline(invocation: invocation, at: now, into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .appUpdateReachesDevice(let lane):
            lanes[Int(lane)].phone.updateApp(into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .tapped(let lane):
            launch(lane: lane, at: now)
        case .steered(let lane, let action):
            apply(action, lane: lane, from: .controlAPI, at: now)
        }
    }

    /// What a device app does on its own.
    /// - Complexity: O(1) amortized, plus the effects routed.
    mutating func handle(_ event: TimelineEvent, lane: Int32, at now: SimTime) {
        let index = Int(lane)
        switch event {
        case .deviceIDChange(let newID):
            lanes[index].phone.changeDeviceID(to: newID, hash: UInt32(truncatingIfNeeded: SplitMix64.mix(newID)))
        case .tokenRotation(let promptShown):
            rotateToken(lane: lane, promptShown: promptShown, at: now)
        case .subscriptionChange:
            lanes[index].folderGeneration += 1
            lanes[index].phone.subscriptionChanged(generation: lanes[index].folderGeneration, into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .connectivity(let online):
            lanes[index].phone.setOnline(online, at: now, into: &deviceEffects)
            routeDeviceEffects(lane: lane, at: now)
        case .launch:
            launch(lane: lane, at: now)
        case .steered(let action):
            apply(action, lane: lane, from: .scenario, at: now)
        case .mail, .outage, .backgroundPush:
            // The provider's part of the timeline: `PopulationDraw` leaves it out.
            preconditionFailure("a live population draws no provider events")
        }
    }

    /// The app's token rotates; `promptShown`: a reinstall.
    mutating func rotateToken(lane: Int32, promptShown: Bool, at now: SimTime) {
        let index = Int(lane)
        lanes[index].counts[.tokenRotations] += 1
        lanes[index].rotations += 1
        let token = tokens.issue(seed: scenario.seed, user: Int(lanes[index].device), app: Int(lanes[index].app),
                                 rotation: Int(lanes[index].rotations), lane: lane)
        lanes[index].tokens.append(token)
        lanes[index].phone.rotateToken(to: token, promptShown: promptShown, into: &deviceEffects)
        lanes[index].note(.tokenChanged(reinstall: promptShown), message: nil, at: now)
        routeDeviceEffects(lane: lane, at: now)
    }


    /// Moves `lane`'s background budget to now: a push held past a spent hour reached the
    /// app when the next hour began (the phone settles lazily, at its next background push or here).
    /// - Complexity: O(1), plus the effects routed.
    package mutating func settleBackground(lane: Int32) {
        lanes[Int(lane)].phone.settleBackground(at: now, into: &deviceEffects)
        routeDeviceEffects(lane: lane, at: now)
    }

    /// Whether the background push now reaching `lane`'s phone finds the app force-quit: the
    /// scenario's `background.forceQuit`, drawn for the phone's n-th background push.
    /// - Complexity: O(1).
    private func backgroundFindsAppForceQuit(lane: Int32) -> Bool {
        let deviceApp = lanes[Int(lane)]
        return deviceApp.phone.configuration.background.isForceQuit(base: deviceApp.streams.backgroundForceQuit,
                                                                     serial: deviceApp.phone.backgroundUpdates.arrivals)
    }

    mutating func launch(lane: Int32, at now: SimTime) {
        lanes[Int(lane)].counts[.launches] += 1
        lanes[Int(lane)].phone.launch(into: &deviceEffects)
        routeDeviceEffects(lane: lane, at: now)
    }

    /// Routes what APNs answered (`EffectRouter`).
    /// - Complexity: O(effects).
    mutating func routeAPNsEffects(at now: SimTime) {
        var routed = 0
        while routed < apnsEffects.count {
            let effect = apnsEffects[routed]
            routed += 1
            EffectRouter.route(effect, at: now, through: &self)
        }
        apnsEffects.removeAll()
        // Its own again, should a copy of this value share it (`OwnedBuffer`).
        apnsEffects.makeUnique()
    }

    /// Routes what `lane`'s phone answered (`EffectRouter`). `handedOver`: the slot of the push
    /// just given to `Phone.receive` (-1: none); it is freed unless the push goes back to APNs from it.
    /// - Complexity: O(effects).
    mutating func routeDeviceEffects(lane: Int32, at now: SimTime, handedOver: PushSlot = -1) {
        routedLane = lane
        var bounced = false
        var routed = 0
        while routed < deviceEffects.count {
            let effect = deviceEffects[routed]
            routed += 1
            if EffectRouter.route(effect, handedOver: handedOver, at: now, through: &self) { bounced = true }
        }
        deviceEffects.removeAll()
        // Its own again, should a copy of this value share it (`OwnedBuffer`).
        deviceEffects.makeUnique()
        if handedOver >= 0 && !bounced { pool.free(handedOver) }
    }
}

/// The population is a lane for the router with many device apps on one clock: a message
/// names its device app, the books are each app's counts and log, and the provider is
/// outside, reached by calls that serve sends (`ProviderCall`).
extension LivePopulation: APNsEffectLane, DeviceEffectLane {
    package typealias Message = LiveMessage

    package mutating func send(_ message: LiveMessage, arrivingAt time: SimTime) { agenda.send(message, arrivingAt: time) }

    package mutating func sendNow(_ message: LiveMessage) { agenda.sendNow(message) }

    package mutating func park(_ push: PushNotification, attempt: Int32) -> PushSlot { pool.park(push, attempt: attempt) }

    package mutating func deliveryDelay(for token: DeviceToken) -> SimDuration {
        draws.apnsToDevice.sample(&lanes[Int(tokens.lane(of: token))].streams.apnsLatency)
    }

    package mutating func powerDelay(for token: DeviceToken) -> SimDuration {
        draws.powerDelay(&lanes[Int(tokens.lane(of: token))].streams.power)
    }

    package mutating func tapDelay() -> SimDuration? { draws.tap(&lanes[Int(routedLane)].streams.tap) }

    package mutating func discarded(_ push: PushNotification, _ reason: APNsDiscardReason, loss: LossReason, at now: SimTime) {
        let lane = Int(tokens.lane(of: push.token))
        lanes[lane].counts[.discarded(reason)] += 1
        lanes[lane].note(.dropped(reason), message: push.payload.messageIndex, at: now)
        if push.pushType == .background {
            lanes[lane].background[.apnsDiscarded] += 1
        } else if reason == .replaced, apns.storedNotification(for: push.token)?.pushType == .background {
            lanes[lane].background[.mailReplaced] += 1
        }
    }

    package mutating func callProvider(_ call: PhoneCall, at now: SimTime) {
        let lane = routedLane
        let index = Int(lane)
        switch call {
        case .register(let token, let hash):
            lanes[index].counts[.registrations] += 1
            lanes[index].note(.registered, message: nil, at: now)
            if link != nil {
                calls.append(ProviderCall(lane: lane, kind: .register(token: token, deviceID: lanes[index].phone.deviceID,
                                                                      deviceIDHash: hash, atInstall: false)))
                unanswered += 1
            }
        case .subscriptions(let generation):
            if link?.sendsSubscriptions == true {
                calls.append(ProviderCall(lane: lane, kind: .subscriptions(generation: generation)))
                unanswered += 1
            }
        case .rerequest(let position, let gap, let invocation):
            if link != nil {
                lanes[index].counts[.rerequests] += 1
                let phone = lanes[index].phone
                calls.append(ProviderCall(lane: lane, kind: .rerequest(
                    invocation: invocation, position: position, gap: gap, token: phone.token, deviceID: phone.deviceID,
                    deviceIDHash: phone.deviceIDHash)))
                unanswered += 1
                lanes[index].note(.rerequested(from: position - gap, to: position - 1), message: nil, at: now)
            } else {
                // No provider to ask: the extension's request fails at once.
                lanes[index].counts[.rerequestErrors] += 1
                lanes[index].note(.rerequestedWithoutProvider, message: nil, at: now)
                agenda.send(.answerReachesDevice(lane: lane, invocation: invocation, ok: false), arrivingAt: now)
            }
        }
    }

    /// A mail's own push drawn: its first showing is the one the user may tap (with a
    /// provider link, a re-sent copy of a mail already shown is not the first).
    package mutating func presented(messageIndex: Int32, isResend: Bool, replacedExisting: Bool, run: ExtensionRun,
                                   at now: SimTime) -> Bool {
        let index = Int(routedLane)
        lanes[index].counts[.shown] += 1
        if case .timedOut = run { lanes[index].counts[.rerequestTimeouts] += 1 }
        var first = true
        let serial = Int(messageIndex)
        if serial < mailOfSerial.count, mailOfSerial[serial] >= 0 {
            first = lanes[index].mailsShown.insert(mailOfSerial[serial]).inserted
            if first { lanes[index].counts[.mailsShown] += 1 }
        }
        if replacedExisting { lanes[index].counts[.replacedOnDevice] += 1 }
        lanes[index].show(ShownEntry(shownAt: now, record: records.record(messageIndex: messageIndex), messageIndex: messageIndex,
                                     summary: nil, replacedExisting: replacedExisting))
        lanes[index].note(.shown(run), message: messageIndex, at: now)
        return first
    }

    package mutating func note(_ note: DeviceNote, at now: SimTime) {
        let index = Int(routedLane)
        switch note {
        case .online: lanes[index].note(.online, message: nil, at: now)
        case .offline: lanes[index].note(.offline, message: nil, at: now)
        case .bounced: lanes[index].counts[.bounced] += 1
        case .received(let message, _, let logged):
            lanes[index].counts[.delivered] += 1
            lanes[index].note(.received(logged: logged), message: message, at: now)
        case .logUploaded: lanes[index].note(.logUploaded, message: nil, at: now)
        case .appUpdated: lanes[index].note(.appUpdated, message: nil, at: now)
        case .answerMissed: lanes[index].note(.answerMissed, message: nil, at: now)
        case .summaryShown(let message, let from, let to, let replacedExisting):
            lanes[index].counts[.shown] += 1
            lanes[index].counts[.summariesShown] += 1
            if replacedExisting { lanes[index].counts[.replacedOnDevice] += 1 }
            lanes[index].show(ShownEntry(shownAt: now, record: records.record(messageIndex: message), messageIndex: message,
                                         summary: from...to, replacedExisting: replacedExisting))
            lanes[index].note(.summaryShown, message: message, at: now)
        case .notShown(let message, let reason, _):
            lanes[index].counts[.notShown] += 1
            lanes[index].note(.notShown(reason), message: message, at: now)
        case .background(let message, let fate):
            lanes[index].receivedInBackground(message: message, fate, record: records.record(messageIndex: message), at: now)
        case .positionSaved:
            // Told only under `PhoneConfiguration.reportsSavedPosition`, which the population does not ask for.
            break
        }
    }
}

extension LiveMessage: DeviceAppMessage {
    /// A tap opens the app: which message was tapped does not matter to serve.
    package static func tapped(lane: Int32, messageIndex: Int32) -> LiveMessage { .tapped(lane: lane) }
}
