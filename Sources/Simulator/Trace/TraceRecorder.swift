import Base
import Device
import FakeAPNs
import Provider

/// What a traced device's world keeps of what it was shown (`Recording` hands it every
/// hook): it turns the messages and effects the world routes into `TraceEvent`s, and
/// asks nothing of anyone. What an effect does
/// not say itself (which message a bounce or an extension's answer belongs to, what
/// released a notification from APNs) it reads from the message being handled, which
/// the world shows it first; which invocation belongs to which message it notes
/// itself as the re-requests go out.
package struct TraceRecorder {
    /// The story so far.
    package private(set) var story: DeviceStory

    private var lane: Int32 = 0
    /// The message being handled (nil: a timeline occurrence, or the lane's start and end).
    private var current: WorldEvent?
    /// The push the message being handled names by its slot, with its attempt.
    private var handledPush: PushNotification?
    private var handledAttempt: Int32 = 0
    /// The device's connectivity as its effects told it (the start's comes as an effect too).
    private var online = false
    /// Set by a token rotation of the timeline, for the `.tokenChanged` it makes.
    private var rotationIsReinstall = false
    /// The folder of the mail occurring, for `mailArrived`.
    private var mailFolder: Int32 = 0
    /// The message of each re-request invocation of the lane (index: invocation).
    private var invocationMessages: [Int32] = []
    /// Invocations waiting for the provider's answer.
    private var waiting: Set<Int32> = []
    /// The lane's events start here in `story.events`.
    private var laneStart = 0
    /// When each message of the lane was last told of (index: message).
    private var lastTold: [SimTime] = []

    /// A recorder for `device` under strategy `strategy` (an index into the run's).
    /// - Complexity: O(1).
    package init(device: Int, strategy: Int) {
        story = DeviceStory(device: device, strategy: strategy, events: [])
    }

    private mutating func record(_ kind: TraceKind, at time: SimTime, message: Int32 = -1, _ values: Int64...) {
        story.events.append(TraceEvent(time: time, app: lane, message: message, kind: kind, values: values))
        if message >= 0 {
            while lastTold.count <= Int(message) { lastTold.append(0) }
            lastTold[Int(message)] = time
        }
    }

    private static func bool(_ value: Bool) -> Int64 { value ? 1 : 0 }

    private static func position(_ push: PushNotification) -> Int64 { push.payload.xiva.map { Int64($0.position) } ?? TraceEvent.null }

    private func message(ofInvocation invocation: Int32) -> Int32 {
        invocation >= 0 && Int(invocation) < invocationMessages.count ? invocationMessages[Int(invocation)] : -1
    }

    /// - Complexity: O(1).
    package mutating func laneStarts(_ lane: Int) {
        self.lane = Int32(lane)
        current = nil
        handledPush = nil
        online = false
        invocationMessages.removeAll()
        waiting.removeAll()
        lastTold.removeAll()
        laneStart = story.events.count
    }

    /// - Complexity: O(1) amortized.
    package mutating func handling(_ message: WorldEvent, at now: SimTime, pool: borrowing PushPool) {
        current = message
        handledPush = nil
        switch message {
        case .bounceReachesAPNs(let slot), .pushReachesAPNs(let slot), .apnsErrorReachesProvider(let slot, _, _),
             .retryDue(let slot), .pushReachesDevice(let slot):
            handledPush = pool[slot]
            handledAttempt = pool.attempt(slot)
        case .sendFailureReachesProvider(let slot):
            handledPush = pool[slot]
            handledAttempt = pool.attempt(slot)
            record(.requestLost, at: now, message: pool[slot].payload.messageIndex, Int64(handledAttempt))
        case .faultReachesProvider(let slot, let kind):
            handledPush = pool[slot]
            handledAttempt = pool.attempt(slot)
            // An error answer is told as APNs's answer; a dropped connection or a timeout as a request lost.
            if kind.answer == nil {
                record(.requestLost, at: now, message: pool[slot].payload.messageIndex, Int64(handledAttempt))
            }
        case .rerequestReachesProvider(let position, let gap, let invocation, _):
            record(.rerequestReceived, at: now, message: self.message(ofInvocation: invocation),
                   Int64(position), Int64(gap), Int64(invocation))
        case .answerReachesDevice(let invocation, let ok):
            let wasWaiting = waiting.remove(invocation) != nil
            let message = self.message(ofInvocation: invocation)
            record(.rerequestAnswerReceived, at: now, message: message, Int64(invocation), Self.bool(ok), Self.bool(!wasWaiting))
            if wasWaiting && !ok {
                record(.rerequestFailed, at: now, message: message, Int64(invocation), TraceNames.index(RerequestFailure.error))
            }
        case .extensionDeadline(let invocation):
            // The deadline of an invocation already answered changes nothing.
            if waiting.remove(invocation) != nil {
                record(.rerequestFailed, at: now, message: self.message(ofInvocation: invocation), Int64(invocation),
                       TraceNames.index(RerequestFailure.timedOut))
            }
        case .tapped(let message):
            record(.tapped, at: now, message: message)
            record(.launched, at: now, Self.bool(true))
        case .connectionReachesAPNs, .disconnectionReachesAPNs, .tokenChangeReachesAPNs, .registrationReachesProvider,
             .subscriptionSyncReachesProvider, .powerWindowOpens, .appUpdateReachesDevice:
            // Told by the effects that sent them, or by what the actor answers.
            break
        }
    }

    /// - Complexity: O(1) amortized.
    package mutating func occurring(_ event: TimelineEvent, at now: SimTime) {
        current = nil
        handledPush = nil
        switch event {
        case .outage(let down):
            record(.providerOutage, at: now, Self.bool(down))
        case .deviceIDChange:
            record(.deviceIDChanged, at: now)
        case .tokenRotation(let promptShown):
            // Told with its tokens when the phone answers `.tokenChanged`.
            rotationIsReinstall = promptShown
        case .subscriptionChange:
            record(.subscriptionChanged, at: now)
        case .connectivity:
            // Told by the phone's answer: only a change of state is one.
            break
        case .mail(let folder):
            mailFolder = folder
        case .launch:
            record(.launched, at: now, Self.bool(false))
        case .steered(let action):
            record(.steered, at: now, TraceNames.index(action))
            // Told as the drawn events of its kind are: a launch here, a rotation with its tokens
            // when the phone answers `.tokenChanged`, a connectivity change by the phone's answer.
            if action == .launch { record(.launched, at: now, Self.bool(false)) }
            if action == .rotateToken || action == .reinstall { rotationIsReinstall = action == .reinstall }
        case .backgroundPush:
            // Background pushes are not traced (docs/trace.md): they are no mail.
            break
        }
    }

    /// - Complexity: O(1) amortized.
    package mutating func mailArrived(_ messageIndex: Int32, at now: SimTime) {
        record(.mailArrived, at: now, message: messageIndex, Int64(mailFolder))
    }

    /// - Complexity: O(1) amortized.
    package mutating func apnsAnswered(_ response: APNsResponse, at now: SimTime) {
        guard let push = handledPush else { return }
        record(.apnsAnswered, at: now, message: push.payload.messageIndex, Int64(response.status),
               response.reason.map { Int64($0.rawValue) } ?? TraceEvent.null)
    }

    /// - Complexity: O(1) amortized.
    package mutating func routing(_ effect: ProviderEffect, at now: SimTime) {
        switch effect {
        case .send(let push):
            record(.requestSent, at: now, message: push.payload.messageIndex, Self.position(push), 0, Self.bool(push.isResend),
                   Self.bool(push.collapseID != nil), Int64(push.priority))
        case .sendRetry(let push, let attempt):
            record(.requestSent, at: now, message: push.payload.messageIndex, Self.position(push), Int64(attempt),
                   Self.bool(push.isResend), Self.bool(push.collapseID != nil), Int64(push.priority))
        case .retry(let push, let attempt, let after):
            record(.retryScheduled, at: now, message: push.payload.messageIndex, Int64(attempt), after)
        case .answer(let answer):
            record(.rerequestServed, at: now, message: message(ofInvocation: answer.invocation), Int64(answer.invocation),
                   Self.bool(answer.ok))
        case .positionsExpired(let count):
            var message: Int32 = -1
            if case .rerequestReachesProvider(_, _, let invocation, _) = current { message = self.message(ofInvocation: invocation) }
            record(.positionsExpired, at: now, message: message, Int64(count))
        case .failed(let push, let failure):
            var status = TraceEvent.null
            if case .rejected(let response) = failure { status = Int64(response.status) }
            record(.providerGaveUp, at: now, message: push.payload.messageIndex, TraceNames.index(GiveUpReason(failure)), status)
        case .dropped(let mail):
            record(.dropped, at: now, message: mail.messageIndex, TraceNames.index(mail.reason))
        }
    }

    /// What released a notification APNs hands out now: the message being handled.
    private var route: DeliveryRoute {
        guard let current else { return .direct }
        switch current {
        case .connectionReachesAPNs, .tokenChangeReachesAPNs: return .storage
        case .powerWindowOpens: return .power
        case .bounceReachesAPNs: return .bounce
        case .pushReachesAPNs, .disconnectionReachesAPNs, .registrationReachesProvider, .subscriptionSyncReachesProvider,
             .apnsErrorReachesProvider, .sendFailureReachesProvider, .faultReachesProvider, .retryDue, .pushReachesDevice,
             .rerequestReachesProvider, .answerReachesDevice, .extensionDeadline, .appUpdateReachesDevice, .tapped:
            return .direct
        }
    }

    /// - Complexity: O(1) amortized.
    package mutating func routing(_ effect: APNsEffect, at now: SimTime) {
        switch effect {
        // Background pushes are no mail: not traced (docs/trace.md).
        case .deliver(let push) where push.pushType == .background: break
        case .discard(let push, _) where push.pushType == .background: break
        case .held(let push, _) where push.pushType == .background: break
        case .deliver(let push):
            record(.apnsDelivered, at: now, message: push.payload.messageIndex, TraceNames.index(route))
        case .discard(let push, let reason):
            record(.apnsDiscarded, at: now, message: push.payload.messageIndex, TraceNames.index(reason))
        case .deferForPower:
            // Each held notification is told by `.heldForPower`.
            break
        case .held(let push, .offlineSlot):
            record(.apnsStored, at: now, message: push.payload.messageIndex,
                   APNsServer.storageDeadline(of: push, at: now) ?? TraceEvent.null)
        case .held(let push, .powerBatch):
            record(.apnsHeldForPower, at: now, message: push.payload.messageIndex)
        }
    }

    /// - Complexity: O(1) amortized.
    package mutating func routing(_ effect: DeviceEffect, at now: SimTime) {
        switch effect {
        case .connected:
            // A rotation's new token on a connection already up is no change of state.
            if !online {
                online = true
                record(.connectivityChanged, at: now, Self.bool(true))
            }
        case .disconnected:
            if online {
                online = false
                record(.connectivityChanged, at: now, Self.bool(false))
            }
        case .deliveryFailed where handledPush?.pushType == .background:
            break
        case .deliveryFailed:
            record(.bounced, at: now, message: handledPush?.payload.messageIndex ?? -1)
        case .received(let message, let isResend, let logged):
            record(.deviceReceived, at: now, message: message, Self.bool(isResend), Self.bool(logged))
        case .logUploaded(let atReconnect):
            record(.logUploaded, at: now, Self.bool(atReconnect))
        case .appUpdated:
            record(.appUpdated, at: now)
        case .rerequest(let position, let gap, let invocation):
            let message = handledPush?.payload.messageIndex ?? -1
            while invocationMessages.count <= Int(invocation) { invocationMessages.append(-1) }
            invocationMessages[Int(invocation)] = message
            waiting.insert(invocation)
            record(.gapDetected, at: now, message: message, Int64(position), Int64(gap), TraceNames.index(GapAction.rerequest))
            record(.rerequestSent, at: now, message: message, Int64(position), Int64(gap), Int64(invocation))
        case .startDeadline:
            break
        case .presented(let message, _, let replacedExisting, let run):
            record(.shown, at: now, message: message, Self.bool(replacedExisting), TraceNames.index(run))
        case .rerequestAnswerMissed(let invocation):
            record(.rerequestFailed, at: now, message: message(ofInvocation: invocation), Int64(invocation),
                   TraceNames.index(RerequestFailure.answerMissed))
        case .summaryShown(let message, let from, let to, let replacedExisting):
            // A summary at a push's arrival is the extension's own answer to a gap too large to ask for.
            if case .pushReachesDevice = current {
                record(.gapDetected, at: now, message: message, Int64(to), Int64(to - from), TraceNames.index(GapAction.summary))
            }
            record(.summaryShown, at: now, message: message, Int64(from), Int64(to), Self.bool(replacedExisting))
        case .notShown(let message, let reason):
            record(.notShown, at: now, message: message, TraceNames.index(reason))
        case .tokenChanged(let old, let new):
            record(.tokenRotated, at: now, Int64(old.rawValue), Int64(new.rawValue), Self.bool(rotationIsReinstall))
        case .registered(let token, _):
            record(.registered, at: now, Int64(token.rawValue))
        case .subscriptionsSynced(let generation):
            record(.subscriptionsSynced, at: now, Int64(generation))
        case .positionSaved(let position):
            var message: Int32 = -1
            if case .pushReachesDevice = current, let push = handledPush { message = push.payload.messageIndex }
            record(.positionSaved, at: now, message: message, position.map { Int64($0) } ?? TraceEvent.null)
        case .background:
            // Not traced: a background push is no mail (docs/trace.md).
            break
        }
    }

    /// Tells every message's bucket, at the instant it was shown, or else at the last
    /// event told of it, merged into the lane's events in time order (after the events
    /// of the same instant).
    /// - Complexity: O(n log n) in the lane's events.
    package mutating func laneEnds(at end: SimTime, ledger: borrowing Ledger) {
        current = nil
        handledPush = nil
        var outcomes: [TraceEvent] = []
        for (offset, record) in ledger.records.enumerated() {
            let message = Int32(ledger.recordsOffset + offset)
            let kind: TraceOutcome, reason: Int64
            switch record.outcome {
            case .delivered: (kind, reason) = (.delivered, TraceEvent.null)
            case .summarized: (kind, reason) = (.summarized, TraceEvent.null)
            case .pending: (kind, reason) = (.pending, TraceEvent.null)
            case .lost(let raw): (kind, reason) = (.lost, LossReason(rawValue: raw).map { TraceNames.index($0) } ?? TraceEvent.null)
            case .unaccounted:
                // The run stops on the broken identity (`AccountingError`); nothing to tell.
                continue
            }
            let told = Int(message) < lastTold.count ? lastTold[Int(message)] : record.arrival
            let time = record.shownAt >= 0 ? record.shownAt : max(told, record.arrival)
            outcomes.append(TraceEvent(time: time, app: lane, message: message, kind: .outcome,
                                       values: [TraceNames.index(kind), reason]))
        }
        guard !outcomes.isEmpty else { return }
        // By time, then message; each lands after the lane's events of its instant.
        outcomes.sort { ($0.time, $0.message) < ($1.time, $1.message) }
        let told = story.events[laneStart...]
        var merged = ContiguousArray<TraceEvent>()
        merged.reserveCapacity(told.count + outcomes.count)
        var next = 0
        for event in told {
            while next < outcomes.count, outcomes[next].time < event.time {
                merged.append(outcomes[next])
                next += 1
            }
            merged.append(event)
        }
        merged.append(contentsOf: outcomes[next...])
        story.events.replaceSubrange(laneStart..., with: merged)
    }
}
