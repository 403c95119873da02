import FakeAPNs

/// Where the extension keeps its numbering between invocations (UserDefaults in the app).
public struct ExtensionStorage: Equatable, Sendable {
    /// The last position the extension saved; nil before the first numbered push.
    public var lastNotificationPosition: Int32?
    /// The device id that position belongs to.
    public var lastPositionDeviceID: UInt64?

    /// Storage as it is on a fresh install.
    /// - Complexity: O(1).
    public init(lastNotificationPosition: Int32? = nil, lastPositionDeviceID: UInt64? = nil) {
        self.lastNotificationPosition = lastNotificationPosition
        self.lastPositionDeviceID = lastPositionDeviceID
    }
}

/// When the extension saves a newer position.
public enum PositionSaving: Sendable, Equatable {
    /// Every push newer than the saved one moves the saved position (`queue`).
    case everyNewerPosition
    /// The talk's code as printed: the position moves only when a gap is found
    /// (`queue-as-published`), so in-order pushes leave it behind.
    case onlyWhenGapFound
}

/// Why the extension showed a push unchanged (one case per early return in the talk's code).
public enum ShowAsIsReason: Sendable, Equatable {
    /// Step 1: the payload is not the provider's.
    case notFromProvider
    /// Step 4: no xiva info (pushes of the `no-queue` strategy).
    case noXivaInfo
    /// The app's version predates the queue (a rollout's old app): it reads no
    /// numbering and shows every push as it comes.
    case appIgnoresNumbering
    /// Step 4: the device-id hash in the payload is not this device's.
    case deviceIDHashMismatch
    /// Step 5: nothing saved yet; this position is saved.
    case firstPosition
    /// Step 6: `missed ≤ 0`: in order, a duplicate, or a re-sent older push.
    case nothingMissed
}

/// What one invocation of the extension decides for one push.
public enum ExtensionDecision: Sendable, Equatable {
    /// Call the completion with the push unchanged.
    case showAsIs(ShowAsIsReason)
    /// Step 7: more than `repeatMaxCount` missed: show "you have N missed messages" instead.
    case summary(missed: Int32)
    /// Step 8: ask the provider for `gap` positions before `position`, then show the
    /// push on success or a "you have missed messages" notification on error.
    case rerequest(position: Int32, gap: Int32)
}

/// The Notification Service Extension's queue logic, in the talk's order
/// (docs/model.md steps 1–8). Pure: the storage it may change is passed in.
public struct ServiceExtension: Sendable, Equatable {
    /// When a newer position is saved.
    public var positionSaving: PositionSaving
    /// Gaps larger than this become a summary instead of a re-request.
    public var repeatMaxCount: Int32
    /// The app has the queue's code; false: an app version from before it, which
    /// shows every push as it comes.
    public var readsNumbering: Bool

    /// An extension.
    /// - Complexity: O(1).
    public init(positionSaving: PositionSaving, repeatMaxCount: Int32, readsNumbering: Bool = true) {
        self.positionSaving = positionSaving
        self.repeatMaxCount = repeatMaxCount
        self.readsNumbering = readsNumbering
    }

    /// Whether it decides as `other` on every push, with the same storage: the same
    /// logic, or neither reads the numbering (then nothing else is looked at).
    /// - Complexity: O(1).
    public func decidesLike(_ other: ServiceExtension) -> Bool {
        self == other || (!readsNumbering && !other.readsNumbering)
    }

    /// Runs the logic on one push for the device `deviceID`.
    /// - Complexity: O(1).
    public func process(_ payload: PushPayload, deviceID: UInt64, deviceIDHash: UInt32,
                        storage: inout ExtensionStorage) -> ExtensionDecision {
        // 1. Parse; not the provider's → as is. (2. "received" is logged by the caller.)
        guard payload.fromProvider else { return .showAsIs(.notFromProvider) }
        guard readsNumbering else { return .showAsIs(.appIgnoresNumbering) }
        // 3. A new device id makes the saved numbering meaningless.
        if storage.lastPositionDeviceID != deviceID {
            storage.lastNotificationPosition = nil
            storage.lastPositionDeviceID = deviceID
        }
        // 4. No numbering, or numbering for another device → as is.
        guard let xiva = payload.xiva else { return .showAsIs(.noXivaInfo) }
        guard xiva.deviceIDHash == deviceIDHash else { return .showAsIs(.deviceIDHashMismatch) }
        // 5. Nothing to compare with: remember this one.
        guard let lastPosition = storage.lastNotificationPosition else {
            storage.lastNotificationPosition = xiva.position
            return .showAsIs(.firstPosition)
        }
        // 6. Duplicate, re-sent or in order.
        let missed = xiva.position - lastPosition - 1
        guard missed > 0 else {
            if positionSaving == .everyNewerPosition, xiva.position > lastPosition {
                storage.lastNotificationPosition = xiva.position
            }
            return .showAsIs(.nothingMissed)
        }
        // 7. A gap: save, and summarise a big one.
        storage.lastNotificationPosition = xiva.position
        guard missed <= repeatMaxCount else { return .summary(missed: missed) }
        // 8. Re-request the gap.
        return .rerequest(position: xiva.position, gap: missed)
    }
}
