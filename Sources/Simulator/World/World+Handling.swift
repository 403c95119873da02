import Device
import FakeAPNs
import Provider

extension World {
    mutating func handle(_ event: WorldEvent, at now: SimTime) {
        switch event {
        case .pushReachesAPNs(let slot):
            let response = apns.receive(pushPool[slot], at: now, into: &apnsEffects)
            if let reason = response.reason {
                queue.schedule(.apnsErrorReachesProvider(slot, reason, timestamp: response.timestamp ?? now), at: now)
            } else {
                ledger.reached(Ledger.Stage.apnsAccepted, messageIndex: pushPool.take(slot).payload.messageIndex)
            }
            routeAPNsEffects(at: now)
        case .apnsErrorReachesProvider(let slot, let reason, let timestamp):
            let attempt = pushPool.attempt(slot)
            provider.receiveResponse(.failure(reason, timestamp: timestamp), for: pushPool.take(slot),
                                     attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0)
        case .sendFailureReachesProvider(let slot):
            let attempt = pushPool.attempt(slot)
            provider.sendFailed(pushPool.take(slot), attempt: attempt, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0)
        case .retryDue(let slot):
            let attempt = pushPool.attempt(slot)
            provider.retryDue(pushPool.take(slot), attempt: attempt, at: now, into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: 0)
        case .powerWindowOpens(let token):
            apns.powerWindowOpens(token, at: now, into: &apnsEffects)
            routeAPNsEffects(at: now)
        case .pushReachesDevice(let slot):
            let push = pushPool.take(slot)
            if isDeviceOnline { ledger.reachedDevice(push) }
            let footprintKB = footprint?.sample(&memoryRandom) ?? 0
            phone.receive(push, footprintKB: footprintKB, into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .rerequestReachesProvider(let position, let gap, let invocation, let returnDelay):
            provider.receiveRerequest(lastPosition: position, gap: gap, invocation: invocation, at: now,
                                      into: &providerEffects)
            routeProviderEffects(at: now, returnDelay: returnDelay)
        case .answerReachesDevice(let invocation, let ok):
            phone.receiveRerequestAnswer(invocation: invocation, ok: ok, into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .extensionDeadline(let invocation):
            phone.extensionDeadline(invocation: invocation, into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .tapped(let message):
            ledger.reached(Ledger.Stage.opened, messageIndex: message)
            launch(at: now)
        }
    }

    /// Handles what the user, the device or the provider's schedule does on its own.
    mutating func handle(_ event: TimelineEvent, at now: SimTime) {
        switch event {
        case .outage(let down):
            if down { provider.outageBegins() } else { provider.outageEnds() }
        case .deviceIDChange(let newID):
            // One device event, replayed in every app's lane: counted once.
            if currentLane == 0 { ledger.counts[.deviceIDChanges] += 1 }
            phone.changeDeviceID(to: newID, hash: UInt32(truncatingIfNeeded: SplitMix64.mix(newID)))
        case .tokenRotation(let promptShown):
            ledger.counts[.tokenRotations] += 1
            let newToken = DeviceToken(nextTokenNumber)
            nextTokenNumber += 1
            phone.rotateToken(to: newToken, promptShown: promptShown, into: &deviceEffects)
            routeDeviceEffects(at: now)
        case .subscriptionChange:
            subscriptionChanges(at: now)
        case .connectivity(let online):
            connectivityChanges(at: now, online: online)
        case .mail(let folder):
            mailArrives(at: now, folder: folder)
        case .launch:
            launch(at: now)
        }
    }

    /// A mail reaches the provider from the backend, for folder generation `folder`.
    mutating func mailArrives(at now: SimTime, folder: Int32) {
        let message = ledger.newMessage(at: now)
        provider.receiveMail(messageIndex: message, folderGeneration: folder, at: now, into: &providerEffects)
        routeProviderEffects(at: now, returnDelay: 0)
    }

    /// The device goes online or offline; a launch made offline uploads its log now.
    mutating func connectivityChanges(at now: SimTime, online: Bool) {
        isDeviceOnline = online
        if isDeviceOnline && uploadPending {
            uploadPending = false
            launchLog.upload(at: now, atReconnect: true)
        }
        phone.setOnline(isDeviceOnline, into: &deviceEffects)
        routeDeviceEffects(at: now)
    }

    /// The user subscribes to another folder in the app.
    mutating func subscriptionChanges(at now: SimTime) {
        ledger.counts[.subscriptionChanges] += 1
        folderGeneration += 1
        phone.subscriptionChanged(generation: folderGeneration, into: &deviceEffects)
        routeDeviceEffects(at: now)
    }

    /// The user opens the app: its log goes up to analytics (at once, or at the
    /// next reconnect when offline), it registers (per policy) and syncs what
    /// changed offline.
    mutating func launch(at now: SimTime) {
        ledger.counts[.launches] += 1
        launchLog.times.append(now)
        if isDeviceOnline {
            launchLog.upload(at: now, atReconnect: false)
        } else {
            uploadPending = true
        }
        phone.launch(into: &deviceEffects)
        routeDeviceEffects(at: now)
    }

    mutating func routeProviderEffects(at now: SimTime, returnDelay: SimDuration) {
        // By index: iterating the array itself would retain it on every call.
        while providerRouted < providerEffects.count {
            let effect = providerEffects[providerRouted]
            providerRouted += 1
            switch effect {
            case .send(let push):
                ledger.pushSent(push)
                send(push, attempt: 0, at: now)
            case .sendRetry(let push, let attempt):
                ledger.pushSent(push, isRetry: true)
                send(push, attempt: attempt, at: now)
            case .retry(let push, let attempt, let after):
                ledger.counts[.retries] += 1
                queue.schedule(.retryDue(pushPool.park(push, attempt: attempt)), at: now + after)
            case .answer(let invocation, let ok):
                if !ok { ledger.counts[.rerequestErrors] += 1 }
                queue.schedule(.answerReachesDevice(invocation: invocation, ok: ok), at: now + returnDelay)
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
    private mutating func send(_ push: PushNotification, attempt: Int32, at now: SimTime) {
        let slot = pushPool.park(push, attempt: attempt)
        if let network = chain.network, networkRandom.nextUnitInterval() <= network.failureProbability {
            queue.schedule(.sendFailureReachesProvider(slot), at: now + network.timeout)
        } else {
            queue.schedule(.pushReachesAPNs(slot), at: now + providerToAPNs.sample(&providerLatencyRandom))
        }
    }

    static func lossReason(_ failure: ProviderFailure) -> LossReason {
        switch failure {
        case .rejected(let response):
            switch response.reason {
            case .unregistered: .unregistered
            case .tooManyRequests: .rateLimited
            default: .apnsRejected
            }
        case .network: .providerNetwork
        case .outage: .providerOutage
        }
    }

    static func lossReason(_ drop: ProviderDropReason) -> LossReason {
        switch drop {
        case .noValidToken: .unregistered
        case .staleSubscription: .staleSubscription
        case .outage: .providerOutage
        }
    }

    mutating func routeAPNsEffects(at now: SimTime) {
        while apnsRouted < apnsEffects.count {
            let effect = apnsEffects[apnsRouted]
            apnsRouted += 1
            switch effect {
            case .deliver(let push):
                let delay = apnsToDevice.sample(&apnsLatencyRandom)
                queue.schedule(.pushReachesDevice(pushPool.park(push, attempt: 0)), at: now + delay)
            case .deferForPower(let token):
                let delay = powerDeferral?.sample(&powerRandom) ?? 0
                queue.schedule(.powerWindowOpens(token), at: now + delay)
            case .discard(let push, .replaced):
                ledger.lost(push, .apnsCoalesced)
            case .discard(let push, .expired):
                ledger.lost(push, .apnsExpired)
            case .discard(let push, .unregistered):
                ledger.lost(push, .unregistered)
            case .discard(let push, .disabled):
                ledger.lost(push, .disabled)
            }
        }
        if apnsRouted >= World.effectsKept {
            apnsEffects.removeAll(keepingCapacity: true)
            apnsRouted = 0
        }
    }

    mutating func routeDeviceEffects(at now: SimTime) {
        while deviceRouted < deviceEffects.count {
            let effect = deviceEffects[deviceRouted]
            deviceRouted += 1
            switch effect {
            // Messages that take no time are delivered at once, in effect order.
            case .connected(let token):
                apns.deviceConnected(token, at: now, into: &apnsEffects)
                routeAPNsEffects(at: now)
            case .disconnected(let token):
                apns.deviceDisconnected(token)
            case .deliveryFailed(let push):
                apns.deliveryFailed(push, at: now, into: &apnsEffects)
                routeAPNsEffects(at: now)
            case .rerequest(let position, let gap, let invocation):
                ledger.rerequested()
                let roundTrip = rerequestRoundTrip.sample(&rerequestRandom)
                queue.schedule(.rerequestReachesProvider(position: position, gap: gap, invocation: invocation,
                                                         returnDelay: roundTrip - roundTrip / 2),
                               at: now + roundTrip / 2)
            case .startDeadline(let invocation, let after):
                queue.schedule(.extensionDeadline(invocation: invocation), at: now + after)
            case .logged(let push):
                ledger.logged(push, at: now)
            case .presented(let push, let replacedExisting, let run):
                switch run {
                case .ran: break
                case .notRun: ledger.counts[.extensionNotRun] += 1
                case .killed: ledger.counts[.extensionKilled] += 1
                case .timedOut: ledger.counts[.extensionTimedOut] += 1
                case .hashMismatch: ledger.counts[.hashMismatches] += 1
                }
                let first = ledger.presented(push, replacedExisting: replacedExisting, at: now)
                if first, let taps = chain.taps, tapRandom.nextUnitInterval() <= taps.probability {
                    let delay = tapDelay?.sample(&tapRandom) ?? 0
                    if now + delay < scenario.duration {
                        queue.schedule(.tapped(messageIndex: push.payload.messageIndex), at: now + delay)
                    }
                }
            case .summaryShown(let push, let from, let to, let replacedExisting):
                ledger.summaryShown(push, from: from, to: to, replacedExisting: replacedExisting)
            case .notShown(let push, let reason):
                ledger.lost(push, reason == .alertsNotAllowed ? .alertsNotAllowed : .displayOff)
            case .tokenChanged(let old, let new):
                apns.invalidate(old, at: now, into: &apnsEffects)
                apns.register(new)
                // The user's setting belongs to the app, not to the token.
                apns.setNotificationsEnabled(new, !notificationsDisabled)
                routeAPNsEffects(at: now)
            case .registered(let token, let hash):
                ledger.counts[.registrations] += 1
                provider.register(token, deviceIDHash: hash, at: now)
            case .subscriptionsSynced(let generation):
                provider.subscriptionsSynced(generation: generation)
            }
        }
        if deviceRouted >= World.effectsKept {
            deviceEffects.removeAll(keepingCapacity: true)
            deviceRouted = 0
        }
    }
}
