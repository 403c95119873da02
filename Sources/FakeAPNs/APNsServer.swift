import Base

/// Why APNs dropped a notification it had accepted.
public enum APNsDiscardReason: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    /// A newer notification for the same offline device + app replaced it
    /// (APNs keeps one per app): the talk's big loss, `apns_coalesced`.
    /// Under `APNsStoragePolicy.nondeterministic` the newer one may be the one dropped.
    case replaced
    /// Its `apns-expiration` passed while it waited for the device, or it was
    /// sent with `apns-expiration: 0` to an offline device: `apns_expired`.
    case expired
    /// The token stopped being valid while APNs still held it, or it bounced
    /// back for a token that is no longer valid.
    case unregistered
    /// The user disabled notifications for the app: APNs answers 200 and drops it.
    case disabled
}

/// What FakeAPNs does in answer to a message, for the simulator to route.
public enum APNsEffect: Equatable, Sendable, BitwiseCopyable {
    /// Hand this notification to the device now (the wiring adds the delivery latency).
    case deliver(PushNotification)
    /// An accepted notification is gone for good.
    case discard(PushNotification, APNsDiscardReason)
    /// The token's power batch was empty and now holds a low-priority notification:
    /// the world draws how long the device's power considerations last and then
    /// calls `APNsServer.powerWindowOpens(_:at:into:)`. One per batch.
    case deferForPower(DeviceToken)
    /// This notification now waits where `APNsHold` says. Sent only under
    /// `APNsConfiguration.reportsHolding`. One case for both places, and no larger
    /// payload than the others: the world copies every effect as it routes it, and
    /// switches over every one.
    case held(PushNotification, APNsHold)
}

/// Where APNs holds an accepted notification it has not handed out.
public enum APNsHold: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    /// The token's one offline slot (the device is offline), until
    /// `APNsServer.storageDeadline(of:at:)` at the latest; a `.discard(_, .replaced)`
    /// of the one it took the slot from comes first.
    case offlineSlot
    /// The token's power batch, until the device's power window opens.
    case powerBatch
}

/// The lossy APNs of one simulated world: validates requests the way Apple
/// documents, delivers to connected devices, and for a disconnected device
/// keeps only one notification per app (one slot per device token).
///
/// A plain value with no clock of its own: it reacts to the messages the
/// kernel hands it, at the instant the kernel says. Its only randomness (which
/// notification survives under `APNsStoragePolicy.nondeterministic`) comes from
/// its own seeded generator, so a run is reproducible.
public struct APNsServer: Sendable {
    /// The longest APNs stores a notification, whatever `apns-expiration` says.
    public static let maximumStorage: SimDuration = 30 * TimeUnit.day
    /// The longest `apns-collapse-id` APNs accepts, in UTF-8 bytes.
    public static let maximumCollapseIDBytes: Int32 = 64

    private struct TokenState: Sendable {
        var known = false
        var connected = false
        var notificationsEnabled = true
        /// The offline slot holds a notification (`storedPushes[token]`).
        var hasStored = false
        var unregisteredAt: SimTime?
        /// When the stored notification expires.
        var storedUntil: SimTime = 0
        /// GCRA's theoretical arrival time for the rate limit; 0 lets the first request through.
        /// The token that asked last keeps it in `rateArrival` instead (`rateToken`).
        var theoreticalArrival: SimTime = 0
    }

    /// How this APNs behaves.
    public private(set) var configuration: APNsConfiguration
    /// What the Push Notifications Console would show since the last reset.
    public private(set) var counters = APNsCounters()
    /// Notifications APNs holds over all tokens: offline slots plus power batches
    /// (still in flight, for the world's end-of-run accounting). Kept as a running count.
    public private(set) var heldNotifications = 0

    /// Memory one token APNs knows takes in a world: its state and its (empty) power
    /// batch. Tokens are numbered densely and a world keeps every one it handed out, so a
    /// lane whose token rotates n times holds n + 1 of each; the cost estimate counts them.
    public static let bytesPerToken = MemoryLayout<TokenState>.stride + MemoryLayout<PushNotification>.stride
        + MemoryLayout<ContiguousArray<PushNotification>>.stride

    private var tokens: ContiguousArray<TokenState> = []
    /// The token whose GCRA arrival time is `rateArrival`, not its `theoreticalArrival` (-1:
    /// none). A world's requests go to one token at a time: each request then writes this
    /// field, not `tokens`, whose every write is a check that its storage is not shared.
    private var rateToken = -1
    private var rateArrival: SimTime = 0
    /// The one notification kept for each token's offline device, where `hasStored`
    /// says so: apart from `tokens`, so reading a token's state copies no push.
    /// Never shrunk, like `powerBatches`.
    private var storedPushes: ContiguousArray<PushNotification> = []
    /// Low-priority notifications held for each token's power window, in arrival
    /// order. Kept apart from `tokens` and never shrunk, so each token's buffer
    /// keeps its capacity across worlds: no allocation in steady state.
    private var powerBatches: ContiguousArray<ContiguousArray<PushNotification>> = []
    /// What an empty slot of `storedPushes` holds (never read).
    private static let emptySlot = PushNotification(token: DeviceToken(-1), payload: PushPayload(messageIndex: -1, byteCount: 0))

    /// Used only for the nondeterministic storage choice.
    private var random = SplitMix64(seed: 0)

    /// The generator behind the nondeterministic storage choice, where it got to. A world
    /// plays one device app, seeded by `reset`; serve's one APNs for a whole population
    /// sets each app's own here around a call for that app's token, so every app tosses
    /// from its own stream as in a world.
    public var storageCoin: SplitMix64 {
        get { random }
        set { random = newValue }
    }

    /// An APNs that knows no token yet.
    /// - Complexity: O(1).
    public init(configuration: APNsConfiguration = APNsConfiguration()) {
        self.configuration = configuration
    }

    /// Forgets every token and held notification and zeroes the counters, keeping
    /// the storage's capacity, so one value serves many worlds without allocating.
    /// - Parameters:
    ///   - configuration: how the next world's APNs behaves.
    ///   - seed: seeds the generator behind the nondeterministic storage choice.
    /// - Complexity: O(n) in the number of tokens it knew.
    public mutating func reset(configuration: APNsConfiguration, seed: UInt64) {
        self.configuration = configuration
        counters.reset()
        heldNotifications = 0
        random = SplitMix64(seed: seed)
        var index = 0
        while index < tokens.count && index < powerBatches.count {
            powerBatches[index].removeAll(keepingCapacity: true)
            index += 1
        }
        tokens.removeAll(keepingCapacity: true)
        rateToken = -1
    }

    /// `reset(configuration:seed:)` with the same configuration and seed 0.
    /// - Complexity: O(n) in the number of tokens it knew.
    public mutating func reset() { reset(configuration: configuration, seed: 0) }

    /// A device registered for remote notifications and got `token` (again, or a
    /// new one after rotation). Does not change whether its notifications are enabled.
    /// - Complexity: amortized O(1) when token numbers are handed out densely.
    public mutating func register(_ token: DeviceToken) {
        let index = Int(token.rawValue)
        guard index >= 0 else { return }
        if index >= tokens.count { tokens.append(contentsOf: repeatElement(TokenState(), count: index - tokens.count + 1)) }
        if index >= powerBatches.count {
            powerBatches.append(contentsOf: repeatElement([], count: index - powerBatches.count + 1))
        }
        if index >= storedPushes.count {
            storedPushes.append(contentsOf: repeatElement(Self.emptySlot, count: index - storedPushes.count + 1))
        }
        tokens[index].known = true
        tokens[index].unregisteredAt = nil
    }

    /// The app behind `token` is gone (uninstall, restore, new phone): from now on
    /// APNs answers 410 `Unregistered` with this timestamp, and what it held for
    /// the token (the stored notification, then the power batch in arrival order)
    /// is discarded as `.unregistered`.
    /// - Complexity: O(k) in the notifications held for the token.
    public mutating func invalidate(_ token: DeviceToken, at now: SimTime,
                                    into effects: inout OwnedBuffer<APNsEffect>) {
        guard isKnown(token) else { return }
        let index = Int(token.rawValue)
        tokens[index].unregisteredAt = now
        if tokens[index].hasStored {
            clearSlot(index)
            discard(storedPushes[index], .unregistered, into: &effects)
        }
        var held = 0
        while held < powerBatches[index].count {
            discard(powerBatches[index][held], .unregistered, into: &effects)
            held += 1
        }
        heldNotifications -= powerBatches[index].count
        powerBatches[index].removeAll(keepingCapacity: true)
    }

    /// The app behind `old` got the new token `new` (restore, reinstall): `old` is
    /// invalidated (`invalidate`) and `new` registered with the same notification
    /// setting, which belongs to the app on the device, not to the token.
    /// - Complexity: O(k) in the notifications held for `old`.
    public mutating func tokenChanged(from old: DeviceToken, to new: DeviceToken, at now: SimTime,
                                      into effects: inout OwnedBuffer<APNsEffect>) {
        let enabled = isKnown(old) ? tokens[Int(old.rawValue)].notificationsEnabled : true
        invalidate(old, at: now, into: &effects)
        register(new)
        setNotificationsEnabled(new, enabled)
    }

    /// The user switched notifications for the app behind `token` on or off. While
    /// off, APNs still answers 200 (it does not tell the provider) and drops each
    /// new request as `.disabled`; notifications accepted before go their way.
    /// Default on; an unknown token is ignored.
    /// - Complexity: O(1).
    public mutating func setNotificationsEnabled(_ token: DeviceToken, _ enabled: Bool) {
        guard isKnown(token) else { return }
        tokens[Int(token.rawValue)].notificationsEnabled = enabled
    }

    /// The notification in `token`'s offline slot, if any (for tests and end-of-run accounting).
    /// - Complexity: O(1).
    public func storedNotification(for token: DeviceToken) -> PushNotification? {
        isKnown(token) && tokens[Int(token.rawValue)].hasStored ? storedPushes[Int(token.rawValue)] : nil
    }

    /// The push type of the notification in `token`'s offline slot, if any: what a discard by
    /// replacement asks of the slot, without a copy of the notification.
    /// - Complexity: O(1).
    public func storedPushType(for token: DeviceToken) -> PushType? {
        isKnown(token) && tokens[Int(token.rawValue)].hasStored ? storedPushes[Int(token.rawValue)].pushType : nil
    }

    /// The low-priority notifications held for `token`'s power window, in arrival order
    /// (for inspection: a live population shows what APNs holds for a device).
    /// - Complexity: O(k) in the notifications held for the token.
    public func powerBatch(for token: DeviceToken) -> [PushNotification] {
        isKnown(token) && Int(token.rawValue) < powerBatches.count ? Array(powerBatches[Int(token.rawValue)]) : []
    }

    /// When `token` stopped being valid (APNs answers 410 with it); nil while valid or unknown.
    /// - Complexity: O(1).
    public func unregisteredAt(_ token: DeviceToken) -> SimTime? {
        isKnown(token) ? tokens[Int(token.rawValue)].unregisteredAt : nil
    }

    /// Whether the device behind `token` is connected, as APNs knows it.
    /// - Complexity: O(1).
    public func isConnected(_ token: DeviceToken) -> Bool {
        isKnown(token) && tokens[Int(token.rawValue)].connected
    }

    private func isKnown(_ token: DeviceToken) -> Bool {
        token.rawValue >= 0 && Int(token.rawValue) < tokens.count && tokens[Int(token.rawValue)].known
    }

    /// Answers a request like APNs' HTTP/2 API and, when it is accepted, delivers,
    /// holds or stores it. Checks in order: `validate` (400 / 413), 410
    /// `Unregistered`, 429 `TooManyRequests` (a refused request uses no credit),
    /// then 200; a 200 for a token whose notifications are disabled is discarded at once.
    /// Inlined into the world's play loop, a call per request saved (docs/performance.md).
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func receive(_ push: PushNotification, at now: SimTime,
                                 into effects: inout OwnedBuffer<APNsEffect>) -> APNsResponse {
        let index = Int(push.token.rawValue)
        // `validate`'s checks, in its order, with the token's state read once.
        guard index >= 0, index < tokens.count, tokens[index].known else { return rejected(.badDeviceToken) }
        let state = tokens[index]
        if let rejection = Self.validateFields(push) {
            counters[.rejected] += 1
            return rejection
        }
        if let since = state.unregisteredAt {
            counters[.rejected] += 1
            return .failure(.unregistered, timestamp: since)
        }
        if let limit = configuration.rateLimit, !takeRateCredit(index, limit, at: now) {
            counters[.tooManyRequests] += 1
            return .failure(.tooManyRequests)
        }
        counters[.accepted] += 1
        var push = push
        push.acceptedAt = now
        if !state.notificationsEnabled {
            discard(push, .disabled, into: &effects)
        } else if !state.connected {
            store(push, at: now, into: &effects)
        } else if configuration.defersLowPriority && push.priority != 10 {
            holdForPower(push, into: &effects)
        } else {
            deliver(push, into: &effects)
        }
        return .ok
    }

    /// Counts a request refused before anything else was read and answers it.
    @inline(never)
    private mutating func rejected(_ reason: APNsReason) -> APNsResponse {
        counters[.rejected] += 1
        return .failure(reason)
    }

    /// The generic cell rate algorithm for one token: interval = window / burst
    /// (at least 1 µs), tolerance = window − interval. A request conforms when the
    /// theoretical arrival time is at most `tolerance` ahead of `now`; only a
    /// conforming one moves it on by one interval. Integers only.
    @inline(__always)
    private mutating func takeRateCredit(_ index: Int, _ limit: APNsRateLimit, at now: SimTime) -> Bool {
        if index != rateToken { moveRateArrival(to: index) }
        let arrival = rateArrival
        guard arrival - now <= limit.tolerance else { return false }
        rateArrival = max(arrival, now) + limit.interval
        return true
    }

    /// Puts `rateToken`'s arrival time back into its state and takes token `index`'s out.
    @inline(never)
    private mutating func moveRateArrival(to index: Int) {
        if rateToken >= 0 { tokens[rateToken].theoreticalArrival = rateArrival }
        rateToken = index
        rateArrival = tokens[index].theoreticalArrival
    }

    /// The checks APNs makes before it accepts a request, in a fixed order.
    /// - Complexity: O(1).
    public func validate(_ push: PushNotification) -> APNsResponse? {
        guard isKnown(push.token) else { return .failure(.badDeviceToken) }
        return Self.validateFields(push)
    }

    /// `validate`'s checks after the token's, in its order.
    @inline(__always)
    private static func validateFields(_ push: PushNotification) -> APNsResponse? {
        if push.priority != 10 && push.priority != 5 && push.priority != 1 { return .failure(.badPriority) }
        if !push.pushType.allows(priority: push.priority) { return .failure(.badPriority) }
        if push.hasCollapseID, push.collapseID!.byteCount > maximumCollapseIDBytes { return .failure(.badCollapseId) }
        if push.payload.byteCount > push.pushType.maximumPayloadBytes { return .failure(.payloadTooLarge) }
        return nil
    }

    /// The device behind `token` opened its connection to APNs: the stored
    /// notification, if any and not expired, goes out. The power batch is
    /// untouched: it waits for its window.
    /// Inlined into the world's handling (docs/performance.md).
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func deviceConnected(_ token: DeviceToken, at now: SimTime,
                                         into effects: inout OwnedBuffer<APNsEffect>) {
        guard isKnown(token) else { return }
        let index = Int(token.rawValue)
        tokens[index].connected = true
        guard tokens[index].hasStored else { return }
        let stored = storedPushes[index]
        clearSlot(index)
        if now >= tokens[index].storedUntil {
            discard(stored, .expired, into: &effects)
        } else {
            counters[.deliveredFromStorage] += 1
            effects.append(.deliver(stored))
        }
    }

    /// The device behind `token` lost its connection: new notifications are stored.
    /// Inlined into the world's handling (docs/performance.md).
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func deviceDisconnected(_ token: DeviceToken) {
        guard isKnown(token) else { return }
        tokens[Int(token.rawValue)].connected = false
    }

    /// The power window of `token` opened (the world drew its length after
    /// `.deferForPower`): every held notification goes out in arrival order. One
    /// whose `apns-expiration` instant passed is discarded `.expired`; otherwise a
    /// connected device gets it (`delivered`), and for an offline device it is
    /// stored like any notification for an offline device, so several collapse to
    /// one. One sent with `apns-expiration: 0` gets its single attempt now.
    /// A window for an empty batch does nothing.
    /// - Complexity: O(k) in the notifications held for the token.
    public mutating func powerWindowOpens(_ token: DeviceToken, at now: SimTime,
                                          into effects: inout OwnedBuffer<APNsEffect>) {
        guard isKnown(token) else { return }
        let index = Int(token.rawValue)
        let count = powerBatches[index].count
        heldNotifications -= count
        var held = 0
        while held < count {
            let push = powerBatches[index][held]
            held += 1
            if case .at(let instant) = push.expiration, instant <= now {
                discard(push, .expired, into: &effects)
            } else if tokens[index].connected {
                deliver(push, into: &effects)
            } else {
                store(push, at: now, into: &effects)
            }
        }
        powerBatches[index].removeAll(keepingCapacity: true)
    }

    /// A delivery found the device gone before it arrived (counted `bounced`). It is
    /// not a new request (no 200 is counted again): a connected device gets it again (`delivered`);
    /// otherwise APNs stores it as it would any notification for an offline device,
    /// by when it was accepted: a stored one accepted later (sent after the device
    /// went away) stays, an older stored one (an earlier bounce) is replaced. A
    /// bounce for an unknown or unregistered token is discarded `.unregistered`.
    /// - Complexity: O(1).
    public mutating func deliveryFailed(_ push: PushNotification, at now: SimTime,
                                        into effects: inout OwnedBuffer<APNsEffect>) {
        counters[.bounced] += 1
        guard isKnown(push.token), tokens[Int(push.token.rawValue)].unregisteredAt == nil else {
            discard(push, .unregistered, into: &effects)
            return
        }
        if tokens[Int(push.token.rawValue)].connected {
            deliver(push, into: &effects)
        } else {
            store(push, at: now, into: &effects)
        }
    }

    /// When `push` was accepted; a copy that never went through `receive` (a test's
    /// hand-built bounce) counts as accepted `now`.
    private func acceptance(_ push: PushNotification, at now: SimTime) -> SimTime {
        push.acceptedAt >= 0 ? push.acceptedAt : now
    }

    /// Whether `arriving` takes the offline slot from `stored` (valid, not expired).
    /// Under `.latest` the one accepted later wins (at the same instant, the one
    /// arriving). Under `.nondeterministic`, two accepted less than `closeTogether`
    /// apart are decided by an even coin; further apart, the later wins.
    private mutating func arrivingWins(_ arriving: PushNotification, over stored: PushNotification,
                                       at now: SimTime) -> Bool {
        let arrivingAt = acceptance(arriving, at: now), storedAt = acceptance(stored, at: now)
        let arrivingIsNewer = arrivingAt >= storedAt
        if case .nondeterministic(let closeTogether) = configuration.storage,
           abs(arrivingAt - storedAt) < closeTogether, coinKeepsOlder() {
            return !arrivingIsNewer
        }
        return arrivingIsNewer
    }

    /// One even draw: true keeps the one accepted first of two close together.
    private mutating func coinKeepsOlder() -> Bool { random.next() >> 63 == 1 }

    /// Puts `push` into the offline slot of its token; what was there (or `push`
    /// itself) is discarded by the storage policy (`arrivingWins`). APNs keeps a
    /// notification at most `maximumStorage` after it accepted it.
    private mutating func store(_ push: PushNotification, at now: SimTime,
                                into effects: inout OwnedBuffer<APNsEffect>) {
        guard let until = Self.storageDeadline(of: push, at: now), until > now else {
            discard(push, .expired, into: &effects)
            return
        }
        let index = Int(push.token.rawValue)
        if tokens[index].hasStored {
            let stored = storedPushes[index]
            if now >= tokens[index].storedUntil {
                // An expired one is not "replaced": it was already gone.
                discard(stored, .expired, into: &effects)
            } else if arrivingWins(push, over: stored, at: now) {
                discard(stored, .replaced, into: &effects)
            } else {
                discard(push, .replaced, into: &effects)
                return
            }
        } else {
            heldNotifications += 1
        }
        counters[.storedOffline] += 1
        storedPushes[index] = push
        tokens[index].hasStored = true
        tokens[index].storedUntil = until
        if configuration.reportsHolding { effects.append(.held(push, .offlineSlot)) }
    }

    /// The instant a notification stored `now` is dropped unless its device comes back
    /// first: its `apns-expiration`, and never more than `maximumStorage` after APNs
    /// accepted it; nil for `apns-expiration: 0`, which is never stored.
    /// - Complexity: O(1).
    public static func storageDeadline(of push: PushNotification, at now: SimTime) -> SimTime? {
        let longest = (push.acceptedAt >= 0 ? push.acceptedAt : now) + maximumStorage
        switch push.expiration {
        case .immediately: return nil
        case .absent: return longest
        case .at(let instant): return min(instant, longest)
        }
    }

    /// Empties the offline slot of token `index` (it held a notification).
    private mutating func clearSlot(_ index: Int) {
        tokens[index].hasStored = false
        heldNotifications -= 1
    }

    /// Adds `push` to its token's power batch; the first one of a batch asks the
    /// world for a power window.
    private mutating func holdForPower(_ push: PushNotification, into effects: inout OwnedBuffer<APNsEffect>) {
        let index = Int(push.token.rawValue)
        if powerBatches[index].isEmpty { effects.append(.deferForPower(push.token)) }
        powerBatches[index].append(push)
        heldNotifications += 1
        counters[.storedPower] += 1
        if configuration.reportsHolding { effects.append(.held(push, .powerBatch)) }
    }

    /// Hands `push` to its connected device. Inlined: a call per delivery cost more than it does.
    @inline(__always)
    private mutating func deliver(_ push: PushNotification, into effects: inout OwnedBuffer<APNsEffect>) {
        counters[.delivered] += 1
        effects.append(.deliver(push))
    }

    /// Drops `push` for good and counts why.
    private mutating func discard(_ push: PushNotification, _ reason: APNsDiscardReason,
                                  into effects: inout OwnedBuffer<APNsEffect>) {
        switch reason {
        case .replaced: counters[.discardedReplaced] += 1
        case .expired: counters[.discardedExpired] += 1
        case .unregistered: counters[.discardedUnregistered] += 1
        case .disabled: counters[.discardedDisabled] += 1
        }
        effects.append(.discard(push, reason))
    }

    /// Ends the run for `token`: a stored notification past its expiry is
    /// discarded; one still valid stays stored (the ledger counts it pending).
    /// - Complexity: O(1).
    public mutating func expireStored(for token: DeviceToken, at now: SimTime,
                                      into effects: inout OwnedBuffer<APNsEffect>) {
        guard isKnown(token), tokens[Int(token.rawValue)].hasStored,
              now >= tokens[Int(token.rawValue)].storedUntil else { return }
        let stored = storedPushes[Int(token.rawValue)]
        clearSlot(Int(token.rawValue))
        discard(stored, .expired, into: &effects)
    }

    /// Ends the run: `expireStored(for:at:into:)` for every token, in token order, and
    /// power-held notifications past their `apns-expiration` are discarded too; the
    /// valid ones stay held (still in flight).
    /// - Complexity: O(n) in the number of tokens.
    public mutating func expireAll(at now: SimTime, into effects: inout OwnedBuffer<APNsEffect>) {
        var index = 0
        while index < tokens.count {
            expireStored(for: DeviceToken(Int32(index)), at: now, into: &effects)
            if index < powerBatches.count { expirePowerHeld(index, at: now, into: &effects) }
            index += 1
        }
    }

    /// Power-held notifications whose `apns-expiration` has passed are gone too;
    /// the others stay held (still in flight). Keeps the rest in arrival order.
    private mutating func expirePowerHeld(_ index: Int, at now: SimTime, into effects: inout OwnedBuffer<APNsEffect>) {
        var kept = 0
        var held = 0
        while held < powerBatches[index].count {
            let push = powerBatches[index][held]
            held += 1
            if case .at(let instant) = push.expiration, instant <= now {
                discard(push, .expired, into: &effects)
                heldNotifications -= 1
            } else {
                powerBatches[index][kept] = push
                kept += 1
            }
        }
        powerBatches[index].removeLast(powerBatches[index].count - kept)
    }
}
