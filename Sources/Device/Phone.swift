import Base
import FakeAPNs

/// What iOS and the extension do in answer to a message, for the simulator to route.
/// An effect names a push by its message index, never by the whole request: the
/// effect stays a few words (24 bytes, not the 96 a `PushNotification` payload made
/// it), and the world copies one out for every effect it routes.
public enum DeviceEffect: Equatable, Sendable, BitwiseCopyable {
    /// The device opened its connection to APNs.
    case connected(DeviceToken)
    /// The device lost its connection to APNs.
    case disconnected(DeviceToken)
    /// The notification handed to `receive` reached a device that had just gone
    /// offline: it goes back to APNs (the effect names no push: it answers the one
    /// delivery that `receive` was).
    case deliveryFailed
    /// iOS received the notification (the device was online): the first effect of
    /// the delivery, before whatever iOS and the extension then do with it.
    /// `messageIndex` and `isResend` are the push's (its payload's message id, and
    /// whether the provider re-sent it). `logged`: the extension's step 2 wrote
    /// "received" for it in its local log (uploaded to analytics at the next
    /// launch). One effect for both keeps the delivery's common path at the effects
    /// it had before receipt was one.
    case received(messageIndex: Int32, isResend: Bool, logged: Bool)
    /// The app sent the extension's log to analytics: at a launch while online, or
    /// (`atReconnect`) at the first connection after a launch made offline, before
    /// the connection's other traffic.
    case logUploaded(atReconnect: Bool)
    /// The app's update (a rollout's new version) was installed: the extension runs
    /// `PhoneConfiguration.updatedExtension` from now on.
    case appUpdated
    /// The extension asks the provider for `gap` positions before `position`.
    case rerequest(position: Int32, gap: Int32, invocation: Int32)
    /// Wake this invocation after `after` if it has not finished (the ~30 s limit).
    case startDeadline(invocation: Int32, after: SimDuration)
    /// The push's own notification is in Notification Center (`messageIndex`: the
    /// push's message). `isResend`: the copy shown is one the provider re-sent (a
    /// re-request's answer), not the original. `replacedExisting`: it took the place of
    /// an entry with the same collapse id instead of adding one. `run`: how the extension took part.
    case presented(messageIndex: Int32, isResend: Bool, replacedExisting: Bool, run: ExtensionRun)
    /// The provider's successful answer to this re-request reached the device after
    /// it had lost the network: the extension's request fails, so it shows "you have
    /// missed messages" (a `summaryShown` follows) while the provider's re-sends still
    /// travel through APNs.
    case rerequestAnswerMissed(invocation: Int32)
    /// A "you have missed messages" notification stands for positions
    /// `fromPosition … toPosition` (the last is the push that triggered it, whose
    /// message is `messageIndex`).
    case summaryShown(messageIndex: Int32, fromPosition: Int32, toPosition: Int32, replacedExisting: Bool)
    /// The push of message `messageIndex` reached iOS but nothing was drawn, and
    /// the extension did not run.
    case notShown(messageIndex: Int32, NotShownReason)
    /// The app's APNs token changed (restore from backup, reinstall, OS reinstall).
    case tokenChanged(old: DeviceToken, new: DeviceToken)
    /// The app registered for remote notifications and told the provider its
    /// token and device-id hash.
    case registered(DeviceToken, deviceIDHash: UInt32)
    /// Folder subscriptions up to `generation` reached the provider.
    case subscriptionsSynced(generation: Int32)
    /// The extension's saved position changed, or was saved again for a new device
    /// id (nil: it was forgotten). Sent only under `PhoneConfiguration.reportsSavedPosition`.
    case positionSaved(Int32?)
    /// A background push (`apns-push-type: background`) of message `messageIndex` met
    /// its fate on the device (`BackgroundUpdates`): never drawn, never through the extension.
    case background(messageIndex: Int32, BackgroundFate)
}

/// Whether iOS will run the Notification Service Extension for this app at all.
public struct ExtensionEligibility: Sendable, Equatable {
    /// The user allows alerts for the app.
    public var alertsAllowed: Bool
    /// The app's notification display is on in Settings.
    public var displayEnabled: Bool
    /// iOS 10 or later (the extension point exists).
    public var supportsServiceExtension: Bool

    /// Eligibility; everything allowed by default.
    /// - Complexity: O(1).
    public init(alertsAllowed: Bool = true, displayEnabled: Bool = true, supportsServiceExtension: Bool = true) {
        self.alertsAllowed = alertsAllowed
        self.displayEnabled = displayEnabled
        self.supportsServiceExtension = supportsServiceExtension
    }
}

/// The longest a copy of a push can take, as the scenario's latencies, retries and
/// power deferral bound them (every draw is finite). The phone, told these like it
/// is told its extension's time limit, knows when no copy sent before some time
/// can still reach it, and so which collapse ids Notification Center may drop.
public struct CopyBounds: Sendable, Equatable {
    /// From the provider creating a copy (an original when the mail arrives, a
    /// re-send when it serves a re-request) to APNs having it or the provider giving
    /// up: every attempt's latency or timeout, plus the backoffs between them.
    public var toAPNs: SimDuration
    /// From APNs holding a copy for a connected device to its arrival: the power
    /// deferral, plus the APNs-to-device latency.
    public var toDevice: SimDuration
    /// From the extension's re-request to the provider serving it.
    public var rerequestToProvider: SimDuration

    /// Bounds; each must be at least the longest draw of what it covers.
    /// - Complexity: O(1).
    public init(toAPNs: SimDuration, toDevice: SimDuration, rerequestToProvider: SimDuration) {
        self.toAPNs = toAPNs
        self.toDevice = toDevice
        self.rerequestToProvider = rerequestToProvider
    }
}

/// What stays the same for one app on one phone through a run: the extension's
/// logic and limits, what iOS allows it and the app's policies.
public struct PhoneConfiguration: Sendable, Equatable {
    /// How long iOS waits for the extension's completion before showing the original.
    public static let defaultExtensionTimeLimit: SimDuration = 30 * TimeUnit.second

    /// The extension's logic.
    public var serviceExtension: ServiceExtension
    /// The extension of the app version an update installs (a rollout); nil: no update comes.
    public var updatedExtension: ServiceExtension?
    /// Whether iOS runs the extension.
    public var eligibility: ExtensionEligibility
    /// The extension's time limit.
    public var extensionTimeLimit: SimDuration
    /// When the app registers for remote notifications.
    public var registrationPolicy: RegistrationPolicy
    /// When a subscription change made offline reaches the provider.
    public var subscriptionSync: SubscriptionSync
    /// The extension's memory limit in KB; an invocation over it is killed.
    public var memoryLimitKB: Int64
    /// Tell every change of the extension's saved position (`.positionSaved`), as
    /// an app that logs it would. The phone's own behaviour does not depend on it:
    /// the observer of a long run folds what the extension can no longer reach from
    /// it, and only a long run asks, since it costs an effect per push that moves
    /// the position.
    public var reportsSavedPosition: Bool
    /// How long copies can take; given, Notification Center drops the collapse ids
    /// no later copy can match (`Phone`), so memory stays flat in a lane's volume.
    /// nil: it keeps every id (a short run, where they cost little).
    public var copyBounds: CopyBounds?
    /// How iOS hands the app its background pushes: the hourly budget and how often the
    /// app is force-quit.
    public var background: BackgroundBudget

    /// A configuration. No parameter has a default: the engine builds every phone's in one
    /// place (`StrategyPlan.phoneConfiguration`), which must name each field.
    /// - Complexity: O(1).
    public init(serviceExtension: ServiceExtension, updatedExtension: ServiceExtension?, eligibility: ExtensionEligibility,
                extensionTimeLimit: SimDuration, registrationPolicy: RegistrationPolicy, subscriptionSync: SubscriptionSync,
                memoryLimitKB: Int64, reportsSavedPosition: Bool, copyBounds: CopyBounds?, background: BackgroundBudget) {
        self.serviceExtension = serviceExtension
        self.updatedExtension = updatedExtension
        self.eligibility = eligibility
        self.extensionTimeLimit = extensionTimeLimit
        self.registrationPolicy = registrationPolicy
        self.subscriptionSync = subscriptionSync
        self.memoryLimitKB = memoryLimitKB
        self.reportsSavedPosition = reportsSavedPosition
        self.copyBounds = copyBounds
        self.background = background
    }
}

/// One iPhone with the mail app: connectivity, the Notification Service
/// Extension with its saved position, Notification Center, and the app's
/// registration, subscription and analytics state.
///
/// A copy shares Notification Center's table with the original until one calls
/// `ownStorage()` (the hot path writes it without a uniqueness check).
public struct Phone: Sendable {
    /// What showing a push's notification later needs of the push: a waiting invocation keeps
    /// this (24 bytes), not the whole request (56), and a delivery reads no more of its slot.
    private struct Shown: Sendable {
        var messageIndex: Int32
        /// The push's position (0: not numbered).
        var position: Int32
        /// The collapse id's key, when `hasCollapseID`.
        var collapseKey: UInt64
        var hasCollapseID: Bool
        var isResend: Bool

        @inline(__always)
        init(_ push: PushNotification) {
            messageIndex = push.payload.messageIndex
            position = push.payload.position
            collapseKey = push.collapseID?.key ?? 0
            hasCollapseID = push.hasCollapseID
            isResend = push.isResend
        }
    }

    private struct Invocation: Sendable {
        var id: Int32
        /// The push whose invocation waits.
        var shown: Shown
        var position: Int32
        var gap: Int32
    }

    /// The app's current APNs token.
    public private(set) var token: DeviceToken
    /// The device id the app reports (numbering is per device id + app).
    public private(set) var deviceID: UInt64
    /// The hash of `deviceID`, as the app reports it when it registers.
    public private(set) var deviceIDHash: UInt32
    /// The app's logic, limits and policies; `reset` changes it (tests may set it).
    public internal(set) var configuration: PhoneConfiguration
    /// The extension's UserDefaults.
    public private(set) var storage = ExtensionStorage()
    /// Connected to APNs.
    public private(set) var isOnline = false
    /// The permission prompt will be shown at the next launch (after a reinstall).
    public private(set) var promptPending = false
    /// The app asked to register while offline; the provider hears of it at the next connection.
    public private(set) var registrationPending = false
    /// The latest subscription generation changed offline and not yet synced.
    public private(set) var pendingSubscriptionGeneration: Int32?
    /// The app was launched offline: its log goes up at the next connection.
    public private(set) var uploadPending = false
    /// The app runs the updated version (`configuration.updatedExtension`).
    public private(set) var appUpdated = false
    /// The app's background pushes: its budget's hour, what it spent, the one held.
    public private(set) var backgroundUpdates = BackgroundUpdates()

    private var notificationCenter = ShownNotifications()
    private var invocations: ContiguousArray<Invocation> = []
    private var nextInvocation: Int32 = 0

    // Under `configuration.copyBounds`: what the phone knows of the copies that may still come.
    /// When the device last came online.
    private var onlineSince: SimTime = 0
    /// Every copy the provider created before this has reached the phone or is gone.
    private var copiesSettledBefore: SimTime = .min
    /// Re-requests whose re-sends may still be created, oldest first from `rerequestsStart`:
    /// when each was made and the first position it asked for.
    private var recentRerequests: ContiguousArray<(madeAt: SimTime, first: Int32)> = []
    private var rerequestsStart = 0

    /// A phone that is offline until told otherwise, with the app installed and registered.
    /// - Complexity: O(1).
    public init(configuration: PhoneConfiguration, token: DeviceToken, deviceID: UInt64, deviceIDHash: UInt32) {
        self.configuration = configuration
        self.token = token
        self.deviceID = deviceID
        self.deviceIDHash = deviceIDHash
        notificationCenter.removeAll(remembersOrder: configuration.copyBounds != nil)
    }

    /// Back to a fresh install under `configuration` that has already registered
    /// its first token (the world tells the provider itself), keeping buffers' capacity.
    /// - Complexity: O(n) in what it held.
    public mutating func reset(configuration: PhoneConfiguration, token: DeviceToken, deviceID: UInt64,
                               deviceIDHash: UInt32) {
        self.configuration = configuration
        self.token = token
        self.deviceID = deviceID
        self.deviceIDHash = deviceIDHash
        storage = ExtensionStorage()
        isOnline = false
        promptPending = false
        registrationPending = false
        pendingSubscriptionGeneration = nil
        uploadPending = false
        appUpdated = false
        backgroundUpdates = BackgroundUpdates()
        notificationCenter.removeAll(remembersOrder: configuration.copyBounds != nil)
        invocations.removeAll(keepingCapacity: true)
        nextInvocation = 0
        onlineSince = 0
        copiesSettledBefore = .min
        recentRerequests.removeAll(keepingCapacity: true)
        rerequestsStart = 0
    }

    /// Makes Notification Center's table this value's own. It is written without a
    /// uniqueness check (`CollapseKeySet`), so **a copy shares it** until one of the two calls
    /// this: a copy kept to resume from must, before either is written again.
    /// - Complexity: O(n) in the table's size, when shared.
    public mutating func ownStorage() { notificationCenter.ownStorage() }

    /// Goes on under `configuration`, keeping everything it holds: for a world resumed
    /// under a strategy whose app behaved the same until now (a rollout before its update).
    /// - Complexity: O(1).
    public mutating func reconfigure(_ configuration: PhoneConfiguration) {
        precondition((configuration.copyBounds == nil) == (self.configuration.copyBounds == nil),
                     "Notification Center remembers its order only under copy bounds, from the reset")
        self.configuration = configuration
    }

    /// Collapse ids in Notification Center.
    public var notificationCenterCount: Int { notificationCenter.count }

    /// Under `configuration.copyBounds`, drops the collapse ids no later copy can
    /// match, from what the phone knows itself; it changes no answer, only memory.
    ///
    /// A copy the provider created before `copiesSettledBefore` has arrived or is
    /// gone: it was at APNs within `toAPNs`, and the phone has since been online
    /// longer than `toDevice` without a break, so APNs handed it out (what it stored
    /// at the reconnect, what it held for power within the deferral) and it arrived.
    /// An id was entered when a copy of its push arrived, after the push's original
    /// was created, so past that time only re-sends can match it. The provider
    /// re-sends only what this extension re-requests: positions above the one it
    /// had saved, up to a push it received. A re-request made long enough ago
    /// (`rerequestToProvider`) created its re-sends before the fence too; a newer one
    /// holds back the ids from its first position up. Every later re-request asks
    /// above the saved position, which only a reinstall or a new device id clears;
    /// the position saved next is then that of a copy still to arrive, above every
    /// dropped one of that numbering (another numbering has other collapse ids).
    /// So ids entered before the fence, at or below both the saved position and
    /// every newer re-request's first, can never match again.
    /// - Complexity: O(k + r) in the ids dropped and the recent re-requests, amortized.
    private mutating func forgetUnmatchable(bounds: CopyBounds, at now: SimTime) {
        if isOnline, now - onlineSince > bounds.toDevice {
            copiesSettledBefore = max(copiesSettledBefore, now - bounds.toDevice - bounds.toAPNs)
        }
        while rerequestsStart < recentRerequests.count,
              recentRerequests[rerequestsStart].madeAt + bounds.rerequestToProvider < copiesSettledBefore {
            rerequestsStart += 1
        }
        if rerequestsStart > 0, rerequestsStart * 2 >= recentRerequests.count {
            recentRerequests.removeFirst(rerequestsStart)
            rerequestsStart = 0
        }
        var floor = storage.lastNotificationPosition ?? .max
        for index in rerequestsStart..<recentRerequests.count { floor = min(floor, recentRerequests[index].first - 1) }
        notificationCenter.forget(enteredBefore: copiesSettledBefore, atOrBelow: floor)
    }

    /// Moves the app's background budget to `now`: a push held from an earlier hour
    /// reaches the app (`.background(…, .deliveredAfterDeferral)`).
    /// - Complexity: O(1).
    public mutating func settleBackground(at now: SimTime, into effects: inout OwnedBuffer<DeviceEffect>) {
        backgroundUpdates.settle(at: now, into: &effects)
    }

    /// Extension invocations waiting for the provider's answer.
    public var waitingInvocations: Int { invocations.count }

    /// The radio came up or went down. Coming up, the log of a launch made offline
    /// goes to analytics first (`.logUploaded`), then the connection serves the
    /// token, then a registration and (under `.reconnect`) a subscription sync that
    /// were waiting for the network go out.
    /// Inlined into the world's handling, like `launch` and `receive`: a call per event saved (docs/performance.md).
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func setOnline(_ online: Bool, at now: SimTime, into effects: inout OwnedBuffer<DeviceEffect>) {
        guard online != isOnline else { return }
        isOnline = online
        guard online else {
            effects.append(.disconnected(token))
            return
        }
        onlineSince = now
        if uploadPending {
            uploadPending = false
            effects.append(.logUploaded(atReconnect: true))
        }
        effects.append(.connected(token))
        if registrationPending { register(into: &effects) }
        if configuration.subscriptionSync == .reconnect { syncPendingSubscriptions(into: &effects) }
    }

    /// The user opened the app (or tapped a notification). It sends the extension's
    /// log to analytics (offline: at the next connection) and registers for remote
    /// notifications on every launch, or under `.onceAtPrompt` only when the
    /// permission prompt is shown; online, it also syncs a pending subscription change.
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func launch(into effects: inout OwnedBuffer<DeviceEffect>) {
        if configuration.registrationPolicy == .everyLaunch || promptPending {
            promptPending = false
            registrationPending = true
        }
        guard isOnline else {
            uploadPending = true
            return
        }
        effects.append(.logUploaded(atReconnect: false))
        if registrationPending { register(into: &effects) }
        syncPendingSubscriptions(into: &effects)
    }

    /// The app got a new APNs token (restore from backup, reinstall, OS reinstall).
    /// Nothing is registered until the next launch; a registration still waiting
    /// for the network is dropped with the app process that asked for it.
    /// `promptShown` (a reinstall): the extension's storage starts empty and the
    /// next launch shows the prompt, so it registers under either policy.
    /// - Complexity: O(1).
    public mutating func rotateToken(to new: DeviceToken, promptShown: Bool,
                                     into effects: inout OwnedBuffer<DeviceEffect>) {
        let old = token
        token = new
        registrationPending = false
        if promptShown {
            if configuration.reportsSavedPosition, storage.lastNotificationPosition != nil {
                effects.append(.positionSaved(nil))
            }
            storage = ExtensionStorage()
            promptPending = true
        }
        effects.append(.tokenChanged(old: old, new: new))
        // The device's one APNs connection now serves the new token.
        if isOnline { effects.append(.connected(new)) }
    }

    /// The app's update (a rollout's new version) is installed: from now on the
    /// extension runs `configuration.updatedExtension`, with the storage it finds
    /// (`.appUpdated`; nothing without an update, or a second time).
    /// - Complexity: O(1).
    public mutating func updateApp(into effects: inout OwnedBuffer<DeviceEffect>) {
        guard !appUpdated, configuration.updatedExtension != nil else { return }
        appUpdated = true
        effects.append(.appUpdated)
    }

    /// The device id changed (rare). The extension forgets its position by its
    /// step 3 at the next push; the provider learns `hash` at the next registration,
    /// and until then numbers pushes with the old hash, which fail the check.
    /// - Complexity: O(1).
    public mutating func changeDeviceID(to id: UInt64, hash: UInt32) {
        deviceID = id
        deviceIDHash = hash
    }

    /// The user subscribed to a folder in the app; `generation` numbers the
    /// subscription set. Online it reaches the provider at once; offline only the
    /// latest generation waits for `subscriptionSync`.
    /// - Complexity: O(1).
    public mutating func subscriptionChanged(generation: Int32, into effects: inout OwnedBuffer<DeviceEffect>) {
        pendingSubscriptionGeneration = generation
        if isOnline { syncPendingSubscriptions(into: &effects) }
    }

    /// APNs delivers a notification; `footprintKB` is the memory this extension
    /// invocation would need (drawn by the world). Online, iOS receives it
    /// (`.received` first, with whether the extension logged it); a push that found the device gone goes back to APNs
    /// (`.deliveryFailed`). `now` matters only under `configuration.copyBounds`.
    /// A background push (`apns-push-type: background`) goes to the app, within its
    /// budget, never to Notification Center (`.background`); `appForceQuit` says whether
    /// it finds the app force-quit.
    /// Inlined into the world's handling (docs/performance.md).
    /// - Complexity: O(1) amortized.
    @inline(__always)
    public mutating func receive(_ push: PushNotification, footprintKB: Int64 = 0, appForceQuit: Bool = false, at now: SimTime,
                                 into effects: inout OwnedBuffer<DeviceEffect>) {
        guard isOnline else {
            effects.append(.deliveryFailed)
            return
        }
        if push.pushType == .background {
            backgroundUpdates.arrive(messageIndex: push.payload.messageIndex, appForceQuit: appForceQuit,
                                     budget: configuration.background, at: now, into: &effects)
            return
        }
        show(push, footprintKB: footprintKB, at: now, into: &effects)
        // After the push's own id went in: a copy arriving this instant may match an older id.
        if let bounds = configuration.copyBounds { forgetUnmatchable(bounds: bounds, at: now) }
    }

    /// What iOS and the extension do with a push received online. Every way to a showing of
    /// the push's own notification ends at the one `present` below: Notification Center's
    /// insert is written out once on the delivery's path.
    @inline(__always)
    private mutating func show(_ push: PushNotification, footprintKB: Int64, at now: SimTime,
                               into effects: inout OwnedBuffer<DeviceEffect>) {
        let eligibility = configuration.eligibility
        let message = push.payload.messageIndex
        // The talk: without alerts, or with display off, the extension is not called and nothing is drawn.
        guard eligibility.alertsAllowed else {
            effects.append(.received(messageIndex: message, isResend: push.isResend, logged: false))
            effects.append(.notShown(messageIndex: message, .alertsNotAllowed))
            return
        }
        guard eligibility.displayEnabled else {
            effects.append(.received(messageIndex: message, isResend: push.isResend, logged: false))
            effects.append(.notShown(messageIndex: message, .displayOff))
            return
        }
        let run: ExtensionRun
        if !(eligibility.supportsServiceExtension && push.payload.mutableContent && push.payload.hasAlert) {
            effects.append(.received(messageIndex: message, isResend: push.isResend, logged: false))
            run = .notRun
        } else if footprintKB > configuration.memoryLimitKB {
            // Killed before it could log or save: iOS shows the original.
            effects.append(.received(messageIndex: message, isResend: push.isResend, logged: false))
            run = .killed
        } else {
            // Step 1 comes before the log: a payload that is not the provider's is not logged.
            effects.append(.received(messageIndex: message, isResend: push.isResend, logged: push.payload.fromProvider))
            let serviceExtension = appUpdated ? configuration.updatedExtension ?? configuration.serviceExtension
                                              : configuration.serviceExtension
            let decision: ExtensionDecision
            if configuration.reportsSavedPosition {
                // The same position saved again for a new device id is news too: the
                // numbering it belongs to changed.
                let saved = storage
                decision = serviceExtension.process(push.payload, deviceID: deviceID, deviceIDHash: deviceIDHash,
                                                    storage: &storage)
                if storage != saved { effects.append(.positionSaved(storage.lastNotificationPosition)) }
            } else {
                decision = serviceExtension.process(push.payload, deviceID: deviceID, deviceIDHash: deviceIDHash,
                                                    storage: &storage)
            }
            switch decision {
            case .showAsIs(.deviceIDHashMismatch):
                run = .hashMismatch
            case .showAsIs:
                run = .ran
            case .summary(let missed):
                let position = push.payload.xiva?.position ?? 0
                presentSummary(Shown(push), fromPosition: position - missed, toPosition: position, at: now, into: &effects)
                return
            case .rerequest(let position, let gap):
                let id = nextInvocation
                nextInvocation &+= 1
                invocations.append(Invocation(id: id, shown: Shown(push), position: position, gap: gap))
                if configuration.copyBounds != nil { recentRerequests.append((now, position - gap)) }
                effects.append(.rerequest(position: position, gap: gap, invocation: id))
                effects.append(.startDeadline(invocation: id, after: configuration.extensionTimeLimit))
                return
            }
        }
        // Notification Center's insert inlined here, the path of nearly every showing.
        var replaced = false
        if let collapseID = push.collapseID {
            replaced = notificationCenter.enter(key: collapseID.key, position: push.payload.position, at: now)
        }
        effects.append(.presented(messageIndex: message, isResend: push.isResend, replacedExisting: replaced, run: run))
    }

    /// The provider answered a re-request. Success shows the push (the re-sent
    /// ones follow through APNs); an error, or a network that went away meanwhile,
    /// shows "you have missed messages". Too late (after the deadline): ignored.
    /// - Complexity: O(k) in the number of waiting invocations.
    public mutating func receiveRerequestAnswer(invocation: Int32, ok: Bool, at now: SimTime,
                                                into effects: inout OwnedBuffer<DeviceEffect>) {
        guard let waiting = takeInvocation(invocation) else { return }
        if ok && isOnline {
            present(waiting.shown, run: .ran, at: now, into: &effects)
        } else {
            if ok { effects.append(.rerequestAnswerMissed(invocation: invocation)) }
            presentSummary(waiting.shown, fromPosition: waiting.position - waiting.gap,
                           toPosition: waiting.position, at: now, into: &effects)
        }
    }

    /// The extension's time is up: iOS shows the original as is.
    /// - Complexity: O(k) in the number of waiting invocations.
    public mutating func extensionDeadline(invocation: Int32, at now: SimTime,
                                           into effects: inout OwnedBuffer<DeviceEffect>) {
        guard let waiting = takeInvocation(invocation) else { return }
        present(waiting.shown, run: .timedOut, at: now, into: &effects)
    }

    private mutating func takeInvocation(_ id: Int32) -> Invocation? {
        guard let index = invocations.firstIndex(where: { $0.id == id }) else { return nil }
        return invocations.remove(at: index)
    }

    /// Tells the provider the current token and hash; needs the network.
    private mutating func register(into effects: inout OwnedBuffer<DeviceEffect>) {
        registrationPending = false
        effects.append(.registered(token, deviceIDHash: deviceIDHash))
    }

    /// Sends the latest offline subscription change, if any; needs the network.
    private mutating func syncPendingSubscriptions(into effects: inout OwnedBuffer<DeviceEffect>) {
        guard let generation = pendingSubscriptionGeneration else { return }
        pendingSubscriptionGeneration = nil
        effects.append(.subscriptionsSynced(generation: generation))
    }

    /// Adds to Notification Center; an entry with the same collapse id is replaced.
    /// A push without one (4 in 10 on mail) is answered inline, without the call.
    @inline(__always)
    private mutating func enterNotificationCenter(_ shown: Shown, at now: SimTime) -> Bool {
        guard shown.hasCollapseID else { return false }
        return enterNotificationCenterCollapsing(key: shown.collapseKey, position: shown.position, at: now)
    }

    /// `enterNotificationCenter` for a push with a collapse id: out of line, as the set's insert is long.
    /// Given the id and the position, not the push: a push passed by address is a copy of it
    /// in memory at the caller.
    @inline(never)
    private mutating func enterNotificationCenterCollapsing(key: UInt64, position: Int32, at now: SimTime) -> Bool {
        notificationCenter.enter(key: key, position: position, at: now)
    }

    private mutating func present(_ shown: Shown, run: ExtensionRun, at now: SimTime,
                                  into effects: inout OwnedBuffer<DeviceEffect>) {
        effects.append(.presented(messageIndex: shown.messageIndex, isResend: shown.isResend,
                                  replacedExisting: enterNotificationCenter(shown, at: now), run: run))
    }

    private mutating func presentSummary(_ shown: Shown, fromPosition: Int32, toPosition: Int32, at now: SimTime,
                                         into effects: inout OwnedBuffer<DeviceEffect>) {
        effects.append(.summaryShown(messageIndex: shown.messageIndex, fromPosition: fromPosition,
                                     toPosition: toPosition,
                                     replacedExisting: enterNotificationCenter(shown, at: now)))
    }
}
