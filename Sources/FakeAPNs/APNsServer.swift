/// Why APNs dropped a notification it had accepted.
public enum APNsDiscardReason: UInt8, Sendable, CaseIterable {
    /// A newer notification for the same offline device + app replaced it
    /// (APNs keeps one per app): the talk's big loss, `apns_coalesced`.
    case replaced
    /// Its `apns-expiration` passed while it waited for the device, or it was
    /// sent with `apns-expiration: 0` to an offline device: `apns_expired`.
    case expired
}

/// What FakeAPNs does in answer to a message, for the simulator to route.
public enum APNsEffect: Equatable, Sendable {
    /// Hand this notification to the device now (the wiring adds the delivery latency).
    case deliver(PushNotification)
    /// An accepted notification is gone for good.
    case discard(PushNotification, APNsDiscardReason)
}

/// The lossy APNs of one simulated world: validates requests the way Apple
/// documents, delivers to connected devices, and for a disconnected device
/// keeps only the latest notification per app (one slot per device token).
///
/// A plain value with no clock of its own: it reacts to the messages the
/// kernel hands it, at the instant the kernel says.
public struct APNsServer: Sendable {
    /// The longest APNs stores a notification, whatever `apns-expiration` says.
    public static let maximumStorage: SimDuration = 30 * TimeUnit.day
    /// The longest `apns-collapse-id` APNs accepts, in UTF-8 bytes.
    public static let maximumCollapseIDBytes: Int32 = 64

    private struct TokenState: Sendable {
        var known = false
        var unregisteredAt: SimTime?
        var connected = false
        var stored: PushNotification?
        var storedUntil: SimTime = 0
    }

    private var tokens: ContiguousArray<TokenState> = []

    /// An APNs that knows no token yet.
    /// - Complexity: O(1).
    public init() {}

    /// Forgets every token and stored notification, keeping the storage's capacity,
    /// so one value serves many worlds without allocating.
    /// - Complexity: O(n) in the number of tokens it knew.
    public mutating func reset() { tokens.removeAll(keepingCapacity: true) }

    /// A device registered for remote notifications and got `token`.
    /// - Complexity: amortized O(1).
    public mutating func register(_ token: DeviceToken) {
        let index = Int(token.rawValue)
        if index >= tokens.count { tokens.append(contentsOf: repeatElement(TokenState(), count: index - tokens.count + 1)) }
        tokens[index].known = true
        tokens[index].unregisteredAt = nil
    }

    /// The app behind `token` is gone (uninstall, restore, new phone): from now on
    /// APNs answers 410 `Unregistered` with this timestamp.
    /// - Complexity: O(1).
    public mutating func invalidate(_ token: DeviceToken, at now: SimTime) {
        guard isKnown(token) else { return }
        tokens[Int(token.rawValue)].unregisteredAt = now
        tokens[Int(token.rawValue)].stored = nil
    }

    /// Whether APNs holds a notification for `token` (for tests and end-of-run accounting).
    /// - Complexity: O(1).
    public func storedNotification(for token: DeviceToken) -> PushNotification? {
        isKnown(token) ? tokens[Int(token.rawValue)].stored : nil
    }

    private func isKnown(_ token: DeviceToken) -> Bool {
        token.rawValue >= 0 && Int(token.rawValue) < tokens.count && tokens[Int(token.rawValue)].known
    }

    /// Validates a request like APNs' HTTP/2 API and, when it is accepted, delivers
    /// it or stores it. The answer goes back to the provider.
    /// - Complexity: O(1).
    public mutating func receive(_ push: PushNotification, at now: SimTime,
                                 into effects: inout ContiguousArray<APNsEffect>) -> APNsResponse {
        if let rejection = validate(push) { return rejection }
        let index = Int(push.token.rawValue)
        if let since = tokens[index].unregisteredAt { return .failure(.unregistered, timestamp: since) }
        if tokens[index].connected {
            effects.append(.deliver(push))
        } else {
            store(push, at: now, into: &effects)
        }
        return .ok
    }

    /// The checks APNs makes before it accepts a request, in a fixed order.
    /// - Complexity: O(1).
    public func validate(_ push: PushNotification) -> APNsResponse? {
        guard isKnown(push.token) else { return .failure(.badDeviceToken) }
        if push.pushType == .missing { return .failure(.missingPushType) }
        if push.priority != 10 && push.priority != 5 && push.priority != 1 { return .failure(.badPriority) }
        if let collapseID = push.collapseID, collapseID.byteCount > Self.maximumCollapseIDBytes {
            return .failure(.badCollapseId)
        }
        if push.payload.byteCount > push.pushType.maximumPayloadBytes { return .failure(.payloadTooLarge) }
        return nil
    }

    /// The device behind `token` opened its connection to APNs: the stored
    /// notification, if any and not expired, goes out.
    /// - Complexity: O(1).
    public mutating func deviceConnected(_ token: DeviceToken, at now: SimTime,
                                         into effects: inout ContiguousArray<APNsEffect>) {
        guard isKnown(token) else { return }
        let index = Int(token.rawValue)
        tokens[index].connected = true
        guard let stored = tokens[index].stored else { return }
        tokens[index].stored = nil
        if now >= tokens[index].storedUntil {
            effects.append(.discard(stored, .expired))
        } else {
            effects.append(.deliver(stored))
        }
    }

    /// The device behind `token` lost its connection: new notifications are stored.
    /// - Complexity: O(1).
    public mutating func deviceDisconnected(_ token: DeviceToken) {
        guard isKnown(token) else { return }
        tokens[Int(token.rawValue)].connected = false
    }

    /// A delivery found the device gone before it arrived: APNs keeps it as it
    /// would any notification for an offline device.
    /// - Complexity: O(1).
    public mutating func deliveryFailed(_ push: PushNotification, at now: SimTime,
                                        into effects: inout ContiguousArray<APNsEffect>) {
        guard isKnown(push.token), tokens[Int(push.token.rawValue)].unregisteredAt == nil else {
            effects.append(.discard(push, .expired))
            return
        }
        let index = Int(push.token.rawValue)
        if tokens[index].connected {
            effects.append(.deliver(push))
        } else if tokens[index].stored != nil, now < tokens[index].storedUntil, !hasExpired(push, at: now) {
            // The stored one reached APNs after the device went away, so after this
            // one was handed out: it is the latest, and APNs keeps the latest.
            effects.append(.discard(push, .replaced))
        } else {
            store(push, at: now, into: &effects)
        }
    }

    /// Whether `push` may no longer be stored at `now` by its own `apns-expiration`.
    private func hasExpired(_ push: PushNotification, at now: SimTime) -> Bool {
        switch push.expiration {
        case .absent: false
        case .immediately: true
        case .at(let instant): instant <= now
        }
    }

    /// Keeps `push` as the one notification for its token, replacing the older one.
    private mutating func store(_ push: PushNotification, at now: SimTime,
                                into effects: inout ContiguousArray<APNsEffect>) {
        let until: SimTime
        switch push.expiration {
        case .immediately:
            effects.append(.discard(push, .expired))
            return
        case .absent:
            until = now + Self.maximumStorage
        case .at(let instant):
            guard instant > now else {
                effects.append(.discard(push, .expired))
                return
            }
            until = min(instant, now + Self.maximumStorage)
        }
        let index = Int(push.token.rawValue)
        if let older = tokens[index].stored {
            // An expired one is not "replaced": it was already gone.
            effects.append(.discard(older, now >= tokens[index].storedUntil ? .expired : .replaced))
        }
        tokens[index].stored = push
        tokens[index].storedUntil = until
    }

    /// Ends the run for `token`: a stored notification past its expiry is
    /// discarded; one still valid stays stored (the ledger counts it pending).
    /// - Complexity: O(1).
    public mutating func expireStored(for token: DeviceToken, at now: SimTime,
                                      into effects: inout ContiguousArray<APNsEffect>) {
        guard isKnown(token), let stored = tokens[Int(token.rawValue)].stored,
              now >= tokens[Int(token.rawValue)].storedUntil else { return }
        tokens[Int(token.rawValue)].stored = nil
        effects.append(.discard(stored, .expired))
    }
}
