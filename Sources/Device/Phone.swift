import FakeAPNs

/// What iOS and the extension do in answer to a message, for the simulator to route.
public enum DeviceEffect: Equatable, Sendable {
    /// The device opened its connection to APNs.
    case connected(DeviceToken)
    /// The device lost its connection to APNs.
    case disconnected(DeviceToken)
    /// A notification reached a device that had just gone offline: back to APNs.
    case deliveryFailed(PushNotification)
    /// The extension asks the provider for `gap` positions before `position`.
    case rerequest(position: Int32, gap: Int32, invocation: Int32)
    /// Wake this invocation after `after` if it has not finished (the ~30 s limit).
    case startDeadline(invocation: Int32, after: SimDuration)
    /// The push's own notification is in Notification Center. `replacedExisting`:
    /// it took the place of an entry with the same collapse id instead of adding one.
    case presented(PushNotification, replacedExisting: Bool)
    /// A "you have missed messages" notification stands for positions
    /// `fromPosition … toPosition` (the last is the push that triggered it).
    case summaryShown(PushNotification, fromPosition: Int32, toPosition: Int32, replacedExisting: Bool)
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

    /// All three hold.
    public var extensionRuns: Bool { alertsAllowed && displayEnabled && supportsServiceExtension }
}

/// One iPhone with the mail app: connectivity, the Notification Service
/// Extension with its saved position, and Notification Center.
public struct Phone: Sendable {
    /// How long iOS waits for the extension's completion before showing the original.
    public static let defaultExtensionTimeLimit: SimDuration = 30 * TimeUnit.second

    private struct Invocation: Sendable {
        var id: Int32
        var push: PushNotification
        var position: Int32
        var gap: Int32
    }

    /// The app's current APNs token.
    public private(set) var token: DeviceToken
    /// The device id the app reports (numbering is per device id + app).
    public private(set) var deviceID: UInt64
    /// The hash the provider puts in payloads for this device id.
    public private(set) var deviceIDHash: UInt32
    /// The extension's logic.
    public var serviceExtension: ServiceExtension
    /// Whether iOS runs the extension.
    public var eligibility: ExtensionEligibility
    /// The extension's time limit.
    public var extensionTimeLimit: SimDuration
    /// The extension's UserDefaults.
    public private(set) var storage = ExtensionStorage()
    /// Connected to APNs.
    public private(set) var isOnline = false

    private var shownCollapseKeys: Set<UInt64> = []
    private var invocations: ContiguousArray<Invocation> = []
    private var nextInvocation: Int32 = 0

    /// A phone that is offline until told otherwise.
    /// - Complexity: O(1).
    public init(token: DeviceToken, deviceID: UInt64, deviceIDHash: UInt32, serviceExtension: ServiceExtension,
                eligibility: ExtensionEligibility = ExtensionEligibility(),
                extensionTimeLimit: SimDuration = Phone.defaultExtensionTimeLimit) {
        self.token = token
        self.deviceID = deviceID
        self.deviceIDHash = deviceIDHash
        self.serviceExtension = serviceExtension
        self.eligibility = eligibility
        self.extensionTimeLimit = extensionTimeLimit
    }

    /// Back to a fresh install, keeping buffers' capacity.
    /// - Complexity: O(n) in what it held.
    public mutating func reset(token: DeviceToken, deviceID: UInt64, deviceIDHash: UInt32) {
        self.token = token
        self.deviceID = deviceID
        self.deviceIDHash = deviceIDHash
        storage = ExtensionStorage()
        isOnline = false
        shownCollapseKeys.removeAll(keepingCapacity: true)
        invocations.removeAll(keepingCapacity: true)
        nextInvocation = 0
    }

    /// Extension invocations waiting for the provider's answer.
    public var waitingInvocations: Int { invocations.count }

    /// The radio came up or went down.
    /// - Complexity: O(1).
    public mutating func setOnline(_ online: Bool, into effects: inout ContiguousArray<DeviceEffect>) {
        guard online != isOnline else { return }
        isOnline = online
        effects.append(online ? .connected(token) : .disconnected(token))
    }

    /// APNs delivers a notification.
    /// - Complexity: O(1) amortized.
    public mutating func receive(_ push: PushNotification, into effects: inout ContiguousArray<DeviceEffect>) {
        guard isOnline else {
            effects.append(.deliveryFailed(push))
            return
        }
        guard push.payload.mutableContent, push.payload.hasAlert, eligibility.extensionRuns else {
            present(push, into: &effects)
            return
        }
        switch serviceExtension.process(push.payload, deviceID: deviceID, deviceIDHash: deviceIDHash,
                                        storage: &storage) {
        case .showAsIs:
            present(push, into: &effects)
        case .summary(let missed):
            let position = push.payload.xiva?.position ?? 0
            presentSummary(push, fromPosition: position - missed, toPosition: position, into: &effects)
        case .rerequest(let position, let gap):
            let id = nextInvocation
            nextInvocation &+= 1
            invocations.append(Invocation(id: id, push: push, position: position, gap: gap))
            effects.append(.rerequest(position: position, gap: gap, invocation: id))
            effects.append(.startDeadline(invocation: id, after: extensionTimeLimit))
        }
    }

    /// The provider answered a re-request. Success shows the push (the re-sent
    /// ones follow through APNs); an error, or a network that went away meanwhile,
    /// shows "you have missed messages". Too late (after the deadline): ignored.
    /// - Complexity: O(k) in the number of waiting invocations.
    public mutating func receiveRerequestAnswer(invocation: Int32, ok: Bool,
                                                into effects: inout ContiguousArray<DeviceEffect>) {
        guard let waiting = takeInvocation(invocation) else { return }
        if ok && isOnline {
            present(waiting.push, into: &effects)
        } else {
            presentSummary(waiting.push, fromPosition: waiting.position - waiting.gap,
                           toPosition: waiting.position, into: &effects)
        }
    }

    /// The extension's time is up: iOS shows the original as is.
    /// - Complexity: O(k) in the number of waiting invocations.
    public mutating func extensionDeadline(invocation: Int32, into effects: inout ContiguousArray<DeviceEffect>) {
        guard let waiting = takeInvocation(invocation) else { return }
        present(waiting.push, into: &effects)
    }

    private mutating func takeInvocation(_ id: Int32) -> Invocation? {
        guard let index = invocations.firstIndex(where: { $0.id == id }) else { return nil }
        return invocations.remove(at: index)
    }

    /// Adds to Notification Center; an entry with the same collapse id is replaced.
    private mutating func enterNotificationCenter(_ push: PushNotification) -> Bool {
        guard let collapseID = push.collapseID else { return false }
        return !shownCollapseKeys.insert(collapseID.key).inserted
    }

    private mutating func present(_ push: PushNotification, into effects: inout ContiguousArray<DeviceEffect>) {
        effects.append(.presented(push, replacedExisting: enterNotificationCenter(push)))
    }

    private mutating func presentSummary(_ push: PushNotification, fromPosition: Int32, toPosition: Int32,
                                         into effects: inout ContiguousArray<DeviceEffect>) {
        effects.append(.summaryShown(push, fromPosition: fromPosition, toPosition: toPosition,
                                     replacedExisting: enterNotificationCenter(push)))
    }
}
