import Base
import FakeAPNs

/// How the provider fills `apns-expiration`.
public enum ExpirationPolicy: Equatable, Sendable {
    /// No header: APNs stores for its maximum (30 days).
    case absent
    /// `apns-expiration: 0`: one attempt, no storage.
    case immediately
    /// Expire this long after sending.
    case after(SimDuration)
}

/// How one provider instance behaves; fixed for a run.
public struct ProviderConfiguration: Sendable, Equatable {
    /// The payload and collapse-id shapes.
    public var template: PushTemplate
    /// Number pushes per device + app and serve re-requests (the push queue).
    public var numbering: Bool
    /// When numbering starts (a rollout's first day); mail before it is sent unnumbered.
    public var numberingFrom: SimTime
    /// Send `apns-collapse-id` derived from key + position (queue strategies only).
    public var sendsCollapseID: Bool
    /// How long a numbered payload is held for re-requests; nil: for the whole run.
    public var payloadTTL: SimDuration?
    /// `apns-expiration` policy.
    public var expiration: ExpirationPolicy
    /// `apns-priority` for mail pushes.
    public var priority: UInt8
    /// How requests without an answer, 429s and 503s are retried.
    public var retry: RetryPolicy
    /// What a re-request gets when some of its positions are past `payloadTTL`.
    public var expiredPositions: ExpiredPositionsAnswer

    /// A configuration.
    /// - Complexity: O(1).
    public init(template: PushTemplate, numbering: Bool, numberingFrom: SimTime = 0, sendsCollapseID: Bool = true,
                payloadTTL: SimDuration? = nil, expiration: ExpirationPolicy = .absent, priority: UInt8 = 10,
                retry: RetryPolicy = RetryPolicy(), expiredPositions: ExpiredPositionsAnswer = .resendRest) {
        self.template = template
        self.numbering = numbering
        self.numberingFrom = numberingFrom
        self.sendsCollapseID = sendsCollapseID
        self.payloadTTL = payloadTTL
        self.expiration = expiration
        self.priority = priority
        self.retry = retry
        self.expiredPositions = expiredPositions
    }
}

/// Why the provider never got a message to APNs.
public enum ProviderDropReason: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    /// The provider knows no valid token for the device (after 410, before re-registration).
    case noValidToken
    /// The mail is for a folder subscribed in the app that the provider has not synced yet.
    case staleSubscription
    /// The provider was down when the mail arrived.
    case outage
}

/// What the provider does in answer to a message, for the simulator to route.
public enum ProviderEffect: Equatable, Sendable, BitwiseCopyable {
    /// Send this request to APNs (the wiring adds the network latency).
    case send(PushNotification)
    /// Answer a device's re-request (`answer(invocation:ok:)`): `ok` when at least one
    /// position was re-sent.
    case answer(RerequestAnswer)
    /// The provider gives up on a request: APNs refused it, the network lost it
    /// with no retry left, or the provider was down when its retry was due.
    case failed(PushNotification, ProviderFailure)
    /// Hold this request and call `retryDue(_:attempt:at:into:)` with `attempt` after `after`.
    case retry(PushNotification, attempt: Int32, after: SimDuration)
    /// Send this request again as attempt `attempt` (1: the first retry): the same
    /// copy trying again, not a new one.
    case sendRetry(PushNotification, attempt: Int32)
    /// This many re-requested positions were past the payload TTL (emitted before the
    /// re-request's `.answer`, only when more than 0).
    case positionsExpired(Int32)
    /// A mail never became a request (`dropped(messageIndex:_:)`).
    case dropped(DroppedMail)

    /// Answer a device's re-request: `ok` when at least one position was re-sent.
    /// - Complexity: O(1).
    @inlinable
    public static func answer(invocation: Int32, ok: Bool) -> ProviderEffect {
        .answer(RerequestAnswer(invocation: invocation, ok: ok))
    }

    /// A mail never became a request.
    /// - Complexity: O(1).
    @inlinable
    public static func dropped(messageIndex: Int32, _ reason: ProviderDropReason) -> ProviderEffect {
        .dropped(DroppedMail(messageIndex: messageIndex, reason: reason))
    }
}

// The two small cases' payloads are two 4-byte words, as the push's first 8 bytes are (its
// token, its payload's message index). A payload of an `Int32` and a byte made the compiler
// split the effect's first word into pieces of 4, 1, 2 and 1 bytes for every case, so every
// push taken out of an effect, or put into one, was copied in four loads and four stores
// where two do (docs/performance.md, 2026-11-28, third round).

/// A re-request's answer, as `ProviderEffect.answer` carries it.
public struct RerequestAnswer: Equatable, Sendable, BitwiseCopyable {
    /// The extension invocation that asked.
    public var invocation: Int32
    /// `ok` as 0 or 1, a whole word (above).
    @usableFromInline var okWord: UInt32

    /// True when at least one position was re-sent.
    @inlinable public var ok: Bool { okWord != 0 }

    /// - Complexity: O(1).
    @inlinable
    public init(invocation: Int32, ok: Bool) {
        self.invocation = invocation
        okWord = ok ? 1 : 0
    }
}

/// A mail that never became a request, as `ProviderEffect.dropped` carries it.
public struct DroppedMail: Equatable, Sendable, BitwiseCopyable {
    /// The mail's index.
    public var messageIndex: Int32
    /// `reason`'s raw value, a whole word (above); only ever written from a reason.
    @usableFromInline var reasonWord: UInt32

    /// Why it was dropped.
    @inlinable public var reason: ProviderDropReason {
        assert(reasonWord < UInt32(ProviderDropReason.allCases.count), "a drop reason's word written from no reason")
        // A case's raw value is its declaration index, the enum's representation.
        return unsafeBitCast(UInt8(truncatingIfNeeded: reasonWord), to: ProviderDropReason.self)
    }

    /// - Complexity: O(1).
    @inlinable
    public init(messageIndex: Int32, reason: ProviderDropReason) {
        self.messageIndex = messageIndex
        reasonWord = UInt32(reason.rawValue)
    }
}

/// The XIVA-like provider of one device + app: numbers pushes into the queue
/// `<apns_queue, device_id + app_name>`, holds payloads for a TTL, re-sends held
/// positions on request, retries requests that got no answer (or a 429 / 503),
/// drops mail for folder subscriptions it has not synced yet and everything that
/// arrives while it is down, and stops using a token APNs called `Unregistered`.
///
/// XIVA's subscription store is separate from its sending path, so registrations
/// and subscription syncs are applied even during an outage; only numbering,
/// sending and re-request answers stop.
///
/// A copy shares the held positions with the original until one calls `ownStorage()`
/// (the hot path writes them without a uniqueness check).
public struct XivaProvider: Sendable {
    /// The configuration it was made with.
    public private(set) var configuration: ProviderConfiguration
    /// The template in use: the configuration's until the device id changes, then
    /// re-keyed so the new queue's collapse ids differ from the old queue's.
    public private(set) var template: PushTemplate {
        didSet { shape = template.shape }
    }
    /// `template`'s sizes and keys, for the hot path.
    private var shape: PushShape
    @usableFromInline var hash: UInt32
    @usableFromInline var token: DeviceToken?
    /// The token the provider sends to now (nil: it knows no valid one); the backend's
    /// background pushes go to it too.
    public var currentToken: DeviceToken? { token }
    /// When the current token was last registered; a 410 stamped earlier is stale.
    @usableFromInline var tokenRegisteredAt: SimTime = 0
    /// The numbered positions and their payloads.
    private var queue = HeldPositions()
    /// The newest folder-subscription generation the provider knows (0: the folders
    /// subscribed at install).
    public private(set) var syncedGeneration: Int32 = 0
    /// True between `outageBegins()` and `outageEnds()`.
    public private(set) var isDown = false

    /// A provider with an empty queue and no token. `deviceIDHash` defaults to the
    /// hash of the template's device id.
    /// - Complexity: O(n) in the device id's length.
    public init(configuration: ProviderConfiguration, deviceIDHash hash: UInt32? = nil) {
        self.configuration = configuration
        self.template = configuration.template
        shape = configuration.template.shape
        self.hash = hash ?? deviceIDHash(configuration.template.deviceID)
        queue.removeAll(keepsTimes: configuration.payloadTTL != nil)
    }

    /// Makes the held positions this value's own. They are written without a uniqueness
    /// check (`HeldPositions`), so **a copy shares them** until one of the two calls this:
    /// a copy kept to resume from must, before either is written again.
    /// - Complexity: O(n) in the positions held, when shared.
    public mutating func ownStorage() { queue.ownStorage() }

    /// Starts over for another device with an empty queue, no token, only the
    /// install-time subscriptions and no outage, keeping the queue's capacity so a
    /// reused provider allocates nothing.
    /// - Complexity: O(n) in the queue's length.
    public mutating func reset(configuration: ProviderConfiguration, deviceIDHash hash: UInt32) {
        self.configuration = configuration
        self.template = configuration.template
        self.hash = hash
        queue.removeAll(keepsTimes: configuration.payloadTTL != nil)
        token = nil
        tokenRegisteredAt = 0
        syncedGeneration = 0
        isDown = false
    }

    /// Goes on under `configuration`, keeping everything it holds (its queue, token,
    /// subscriptions, outage): for a world resumed under a strategy that behaved the same
    /// until now. A template re-keyed for a new device id is re-keyed from the new one.
    /// - Complexity: O(1); O(n) in the template's size when it was re-keyed.
    public mutating func reconfigure(_ configuration: ProviderConfiguration) {
        let rekeyed = template.deviceID != self.configuration.template.deviceID
        self.configuration = configuration
        template = rekeyed
            ? PushTemplate(app: configuration.template.app, deviceID: template.deviceID,
                           alertTitle: configuration.template.alertTitle, alertBody: configuration.template.alertBody,
                           numbered: configuration.template.numbered, tabulated: false)
            : configuration.template
    }

    /// Payloads held for re-requests (a long queue forgets those past `payloadTTL`).
    /// - Complexity: O(1).
    public var heldPayloads: Int { Int(queue.lastPosition - queue.forgotten) }

    /// Entries the queue keeps in memory: one a held payload under `payloadTTL`, one a
    /// run of consecutive messages without it.
    /// - Complexity: O(1).
    public var queueEntries: Int { queue.entries }

    /// The last position handed out (0 before the first push).
    public var lastPosition: Int32 { queue.lastPosition }

    /// The device registered (or re-registered) this token for the app at `now`.
    /// A `deviceIDHash` other than the current one means the device id changed: the
    /// queue key `<device_id + app>` is new, so numbering restarts at 1, the old
    /// key's held payloads are gone, and payloads carry the new hash. The same hash
    /// or nil leaves the queue alone. Applied even while the provider is down.
    /// - Complexity: O(1); O(n) in the template's size when the device id changed.
    @inlinable
    public mutating func register(_ token: DeviceToken, deviceIDHash newHash: UInt32? = nil, at now: SimTime = 0) {
        self.token = token
        tokenRegisteredAt = now
        guard let newHash, newHash != hash else { return }
        rekey(deviceIDHash: newHash)
    }

    /// `register` for a device id that changed. Apart: rare, and it builds strings, so a
    /// registration that keeps the id (nearly all) is a few stores inlined into the caller,
    /// without this path's frame (26 instructions a registration out of line).
    /// - Complexity: O(n) in the template's size.
    @usableFromInline @inline(never)
    mutating func rekey(deviceIDHash newHash: UInt32) {
        hash = newHash
        queue.removeAll(keepsTimes: configuration.payloadTTL != nil)
        // The provider only learns the new id's hash; render it as the id, padded to
        // the old id's length so collapse-id sizes stay what the scenario measured.
        let hex = String(newHash, radix: 16)
        let width = max(template.deviceID.utf8.count, 8)
        let deviceID = String(repeating: "0", count: width - hex.count) + hex
        template = PushTemplate(app: template.app, deviceID: deviceID, alertTitle: template.alertTitle,
                                alertBody: template.alertBody, numbered: template.numbered, tabulated: false)
    }

    /// The device's folder subscriptions up to `generation` reached the provider.
    /// Applied even while the provider is down.
    /// - Complexity: O(1).
    public mutating func subscriptionsSynced(generation: Int32) {
        syncedGeneration = max(syncedGeneration, generation)
    }

    /// The provider goes down: mail is dropped, re-requests answer errors and due
    /// retries fail until `outageEnds()`.
    /// - Complexity: O(1).
    public mutating func outageBegins() { isDown = true }

    /// The provider is back up.
    /// - Complexity: O(1).
    public mutating func outageEnds() { isDown = false }

    /// A mail for this device + app came from the backend, for a folder whose
    /// subscription has generation `folderGeneration` (0: subscribed at install):
    /// number it (queue strategies, from `numberingFrom`) and send it. Dropped, numbering nothing, when
    /// the provider is down, then when it has not synced that subscription yet,
    /// then when it knows no valid token.
    /// - Complexity: amortized O(1).
    public mutating func receiveMail(messageIndex: Int32, folderGeneration: Int32 = 0, at now: SimTime,
                                     into effects: inout OwnedBuffer<ProviderEffect>) {
        // A down provider cannot even look the subscription up.
        if isDown {
            effects.append(.dropped(messageIndex: messageIndex, .outage))
            return
        }
        // The provider does not know this device wants the folder, so it sends nothing.
        if folderGeneration > syncedGeneration {
            effects.append(.dropped(messageIndex: messageIndex, .staleSubscription))
            return
        }
        guard let token else {
            effects.append(.dropped(messageIndex: messageIndex, .noValidToken))
            return
        }
        var position: Int32 = 0
        if configuration.numbering, now >= configuration.numberingFrom {
            if let ttl = configuration.payloadTTL { queue.forgetExpired(at: now, ttl: ttl) }
            position = queue.append(messageIndex: messageIndex, storedAt: now)
        }
        effects.append(.send(push(token: token, messageIndex: messageIndex, position: position,
                                  at: now, isResend: false)))
    }

    /// The extension reports `gap` missed pushes before `lastPosition`: re-send the
    /// positions `lastPosition - gap … lastPosition - 1` still held, in order.
    /// Positions past `payloadTTL` are counted (`.positionsExpired`, before the
    /// answer); under `.error` one of them makes the whole request an error.
    /// Answers an error when it re-sends nothing (down, no numbering, no token,
    /// nothing held).
    /// - Complexity: O(gap).
    public mutating func receiveRerequest(lastPosition: Int32, gap: Int32, invocation: Int32, at now: SimTime,
                                          into effects: inout OwnedBuffer<ProviderEffect>) {
        guard !isDown, configuration.numbering, let token, gap > 0 else {
            effects.append(.answer(invocation: invocation, ok: false))
            return
        }
        let first = max(1, lastPosition - gap)
        let last = min(lastPosition - 1, self.lastPosition)
        guard first <= last else {
            effects.append(.answer(invocation: invocation, ok: false))
            return
        }
        var expired: Int32 = 0
        if let ttl = configuration.payloadTTL {
            for position in first...last where position <= queue.forgotten || now - queue.storedAt(position) >= ttl {
                expired += 1
            }
        }
        if expired > 0 { effects.append(.positionsExpired(expired)) }
        if expired > 0, configuration.expiredPositions == .error {
            effects.append(.answer(invocation: invocation, ok: false))
            return
        }
        var resent = false
        for position in first...last where position > queue.forgotten {
            if let ttl = configuration.payloadTTL, now - queue.storedAt(position) >= ttl { continue }
            effects.append(.send(push(token: token, messageIndex: queue.messageIndex(at: position), position: position,
                                      at: now, isResend: true)))
            resent = true
        }
        effects.append(.answer(invocation: invocation, ok: resent))
    }

    /// APNs answered attempt `attempt` (0: the first try) of a request. 200 ends
    /// it. What APNs says can be retried (`APNsReason.remedy`: 429 TooManyRequests, 5xx)
    /// is retried like a network failure while retries are left.
    /// 410 `Unregistered` makes the provider stop using the token until the device
    /// registers again, but only for its current token and only when the 410's
    /// timestamp is not earlier than that token's last registration (Apple: such a
    /// 410 predates the registration and is ignored); a 410 without a timestamp
    /// counts as current. Every other error, and a 429 / 503 out of retries, fails.
    /// Handled the same while the provider is down: the request went out before.
    /// - Complexity: O(1).
    public mutating func receiveResponse(_ response: APNsResponse, for push: PushNotification, attempt: Int32 = 0,
                                         into effects: inout OwnedBuffer<ProviderEffect>) {
        guard !response.isSuccess else { return }
        switch response.reason?.remedy {
        case .retryLater?:
            if attempt < configuration.retry.maxRetries {
                scheduleRetry(push, after: attempt, into: &effects)
                return
            }
        case .dropToken?:
            if token == push.token, (response.timestamp ?? .max) >= tokenRegisteredAt { token = nil }
        case .giveUp?, nil:
            // The request itself is wrong: sending it again cannot help.
            break
        }
        effects.append(.failed(push, .rejected(response)))
    }

    /// Attempt `attempt` (0: the first try) of a request got no answer (connection
    /// reset, timeout): retry it while retries are left, else give up with `.network`.
    /// - Complexity: O(1).
    public mutating func sendFailed(_ push: PushNotification, attempt: Int32,
                                    into effects: inout OwnedBuffer<ProviderEffect>) {
        if attempt < configuration.retry.maxRetries {
            scheduleRetry(push, after: attempt, into: &effects)
        } else {
            effects.append(.failed(push, .network))
        }
    }

    /// A retry the provider asked for (`.retry`) is due: send the same request
    /// again (`.sendRetry`), addressed to the token the provider knows now. Fails
    /// with `.outage` while down, and as `Unregistered` when it knows no valid token.
    /// - Complexity: O(1).
    public mutating func retryDue(_ push: PushNotification, attempt: Int32, at now: SimTime,
                                  into effects: inout OwnedBuffer<ProviderEffect>) {
        if isDown {
            effects.append(.failed(push, .outage))
            return
        }
        guard let token else {
            effects.append(.failed(push, .rejected(.failure(.unregistered))))
            return
        }
        var again = push
        again.token = token
        effects.append(.sendRetry(again, attempt: attempt))
    }

    private func scheduleRetry(_ push: PushNotification, after attempt: Int32,
                               into effects: inout OwnedBuffer<ProviderEffect>) {
        let next = attempt + 1
        effects.append(.retry(push, attempt: next, after: configuration.retry.delay(beforeAttempt: next)))
    }

    /// Mutating only in name: out of line (a re-request's re-sends), a non-mutating method
    /// was handed a copy of the provider each call.
    @inline(__always)
    private mutating func push(token: DeviceToken, messageIndex: Int32, position: Int32, at now: SimTime,
                      isResend: Bool) -> PushNotification {
        let expiration: Expiration
        switch configuration.expiration {
        case .absent: expiration = .absent
        case .immediately: expiration = .immediately
        case .after(let duration): expiration = .at(now + duration)
        }
        let numbered = position > 0
        let payload = PushPayload(messageIndex: messageIndex,
                                  xiva: numbered ? XivaInfo(position: position, deviceIDHash: hash) : nil,
                                  byteCount: shape.byteCount(position: position, messageIndex: messageIndex))
        return PushNotification(token: token, priority: configuration.priority, expiration: expiration,
                                collapseID: numbered && configuration.sendsCollapseID
                                    ? shape.collapseID(position: position) : nil,
                                payload: payload, isResend: isResend)
    }
}
