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
    /// Send `apns-collapse-id` derived from key + position (queue strategies only).
    public var sendsCollapseID: Bool
    /// How long a numbered payload is held for re-requests; nil: for the whole run.
    public var payloadTTL: SimDuration?
    /// `apns-expiration` policy.
    public var expiration: ExpirationPolicy
    /// `apns-priority` for mail pushes.
    public var priority: UInt8

    /// A configuration.
    /// - Complexity: O(1).
    public init(template: PushTemplate, numbering: Bool, sendsCollapseID: Bool = true,
                payloadTTL: SimDuration? = nil, expiration: ExpirationPolicy = .absent, priority: UInt8 = 10) {
        self.template = template
        self.numbering = numbering
        self.sendsCollapseID = sendsCollapseID
        self.payloadTTL = payloadTTL
        self.expiration = expiration
        self.priority = priority
    }
}

/// Why the provider never got a message to APNs.
public enum ProviderDropReason: UInt8, Sendable {
    /// The provider knows no valid token for the device (after 410, before re-registration).
    case noValidToken
}

/// What the provider does in answer to a message, for the simulator to route.
public enum ProviderEffect: Equatable, Sendable {
    /// Send this request to APNs (the wiring adds the network latency).
    case send(PushNotification)
    /// Answer a device's re-request: `ok` when at least one position was re-sent.
    case answer(invocation: Int32, ok: Bool)
    /// APNs refused a request; the provider gives up on it.
    case failed(PushNotification, APNsResponse)
    /// A mail never became a request.
    case dropped(messageIndex: Int32, ProviderDropReason)
}

/// The XIVA-like provider of one device + app: numbers pushes into the queue
/// `<apns_queue, device_id + app_name>`, holds payloads for a TTL, re-sends held
/// positions on request, and stops using a token APNs called `Unregistered`.
public struct XivaProvider: Sendable {
    private struct HeldPush: Sendable {
        var messageIndex: Int32
        var storedAt: SimTime
    }

    /// The configuration it was made with.
    public private(set) var configuration: ProviderConfiguration
    private var hash: UInt32
    private var token: DeviceToken?
    /// Position `p` is `queue[p - 1]`.
    private var queue: ContiguousArray<HeldPush> = []

    /// A provider with an empty queue and no token. `deviceIDHash` defaults to the
    /// hash of the template's device id.
    /// - Complexity: O(n) in the device id's length.
    public init(configuration: ProviderConfiguration, deviceIDHash hash: UInt32? = nil) {
        self.configuration = configuration
        self.hash = hash ?? deviceIDHash(configuration.template.deviceID)
    }

    /// Starts over for another device with an empty queue and no token, keeping
    /// the queue's capacity so a reused provider allocates nothing.
    /// - Complexity: O(n) in the queue's length.
    public mutating func reset(configuration: ProviderConfiguration, deviceIDHash hash: UInt32) {
        self.configuration = configuration
        self.hash = hash
        queue.removeAll(keepingCapacity: true)
        token = nil
    }

    /// The last position handed out (0 before the first push).
    public var lastPosition: Int32 { Int32(queue.count) }

    /// The device registered (or re-registered) this token for the app.
    /// - Complexity: O(1).
    public mutating func register(_ token: DeviceToken) { self.token = token }

    /// A mail for this device + app came from the backend: number it (queue
    /// strategies) and send it.
    /// - Complexity: amortized O(1).
    public mutating func receiveMail(messageIndex: Int32, at now: SimTime,
                                     into effects: inout ContiguousArray<ProviderEffect>) {
        guard let token else {
            effects.append(.dropped(messageIndex: messageIndex, .noValidToken))
            return
        }
        var position: Int32 = 0
        if configuration.numbering {
            queue.append(HeldPush(messageIndex: messageIndex, storedAt: now))
            position = Int32(queue.count)
        }
        effects.append(.send(push(token: token, messageIndex: messageIndex, position: position,
                                  at: now, isResend: false)))
    }

    /// The extension reports `gap` missed pushes before `lastPosition`: re-send the
    /// positions `lastPosition - gap … lastPosition - 1` still held, in order.
    /// Answers an error when it holds none of them (or does not number pushes).
    /// - Complexity: O(gap).
    public mutating func receiveRerequest(lastPosition: Int32, gap: Int32, invocation: Int32, at now: SimTime,
                                          into effects: inout ContiguousArray<ProviderEffect>) {
        guard configuration.numbering, let token, gap > 0 else {
            effects.append(.answer(invocation: invocation, ok: false))
            return
        }
        let first = max(1, lastPosition - gap)
        let last = min(lastPosition - 1, Int32(queue.count))
        var resent = false
        if first <= last {
            for position in first...last {
                let held = queue[Int(position) - 1]
                if let ttl = configuration.payloadTTL, now - held.storedAt >= ttl { continue }
                effects.append(.send(push(token: token, messageIndex: held.messageIndex, position: position,
                                          at: now, isResend: true)))
                resent = true
            }
        }
        effects.append(.answer(invocation: invocation, ok: resent))
    }

    /// APNs answered a request. 410 `Unregistered` makes the provider stop using
    /// that token until the device registers again.
    /// - Complexity: O(1).
    public mutating func receiveResponse(_ response: APNsResponse, for push: PushNotification,
                                         into effects: inout ContiguousArray<ProviderEffect>) {
        guard !response.isSuccess else { return }
        if response.reason == .unregistered, token == push.token { token = nil }
        effects.append(.failed(push, response))
    }

    private func push(token: DeviceToken, messageIndex: Int32, position: Int32, at now: SimTime,
                      isResend: Bool) -> PushNotification {
        let template = configuration.template
        let expiration: Expiration
        switch configuration.expiration {
        case .absent: expiration = .absent
        case .immediately: expiration = .immediately
        case .after(let duration): expiration = .at(now + duration)
        }
        let numbered = configuration.numbering
        let payload = PushPayload(messageIndex: messageIndex,
                                  xiva: numbered ? XivaInfo(position: position, deviceIDHash: hash) : nil,
                                  byteCount: template.byteCount(position: position, messageIndex: messageIndex))
        return PushNotification(token: token, priority: configuration.priority, expiration: expiration,
                                collapseID: numbered && configuration.sendsCollapseID
                                    ? template.collapseID(position: position) : nil,
                                payload: payload, isResend: isResend)
    }
}
