import Base

/// Who does what a trace event tells: the Chrome trace's category, and the column
/// docs/trace.md groups the kinds by.
package enum TraceActor: UInt8, CaseIterable, Sendable {
    /// The user, the device or the provider's schedule, on their own (the timeline).
    case user
    /// The XIVA-like provider.
    case provider
    /// APNs.
    case apns
    /// iOS and the Notification Service Extension.
    case device
    /// What Notification Center shows.
    case notificationCenter
    /// The app: its registration, subscription sync and log uploads.
    case app
    /// The ledger's verdict on a message.
    case ledger

    /// The name in files (`notification_center`).
    /// - Complexity: O(1).
    package var name: String { SnakeCase.of(case: self) }
}

/// What one trace event tells, declared once: its name in `trace.jsonl` and `trace.json`
/// is the case's name in snake_case, its `details` are `fields` in order, and
/// docs/trace.md lists every kind with them (a test holds the page to this list).
package enum TraceKind: UInt8, CaseIterable, Sendable {
    // The timeline: what happens whatever the strategy does.
    case mailArrived, connectivityChanged, launched, tapped, tokenRotated, deviceIDChanged, subscriptionChanged
    case providerOutage, appUpdated, steered
    // The provider.
    case dropped, requestSent, requestLost, retryScheduled, providerGaveUp, rerequestReceived, rerequestServed
    case positionsExpired
    // APNs.
    case apnsAnswered, apnsStored, apnsHeldForPower, apnsDiscarded, apnsDelivered
    // iOS and the extension.
    case deviceReceived, bounced, notShown, gapDetected, rerequestSent, rerequestAnswerReceived, rerequestFailed
    case positionSaved
    // Notification Center.
    case shown, summaryShown
    // The app.
    case registered, subscriptionsSynced, logUploaded
    // The books.
    case outcome

    /// The name in both trace files (`request_sent`).
    /// - Complexity: O(n) in the name's length.
    package var name: String { SnakeCase.of(case: self) }

    /// The kind named `name`, if any.
    /// - Complexity: O(kinds).
    package init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// Whose doing it is.
    /// - Complexity: O(1).
    package var actor: TraceActor {
        switch self {
        case .mailArrived, .connectivityChanged, .launched, .tapped, .tokenRotated, .deviceIDChanged, .subscriptionChanged,
             .providerOutage, .appUpdated, .steered:
            .user
        case .dropped, .requestSent, .requestLost, .retryScheduled, .providerGaveUp, .rerequestReceived, .rerequestServed,
             .positionsExpired:
            .provider
        case .apnsAnswered, .apnsStored, .apnsHeldForPower, .apnsDiscarded, .apnsDelivered:
            .apns
        case .deviceReceived, .bounced, .notShown, .gapDetected, .rerequestSent, .rerequestAnswerReceived, .rerequestFailed,
             .positionSaved:
            .device
        case .shown, .summaryShown:
            .notificationCenter
        case .registered, .subscriptionsSynced, .logUploaded:
            .app
        case .outcome:
            .ledger
        }
    }

    /// The details the event carries, in order (`TraceEvent.values`).
    /// - Complexity: O(1).
    package var fields: [TraceField] {
        switch self {
        case .mailArrived: [.folder]
        case .connectivityChanged: [.online]
        case .launched: [.byTap]
        case .tapped: []
        case .tokenRotated: [.oldToken, .newToken, .reinstall]
        case .deviceIDChanged: []
        case .subscriptionChanged: []
        case .providerOutage: [.down]
        case .appUpdated: []
        case .steered: [.steering]
        case .dropped: [.dropReason]
        case .requestSent: [.position, .attempt, .resend, .collapseID, .priority]
        case .requestLost: [.attempt]
        case .retryScheduled: [.attempt, .after]
        case .providerGaveUp: [.failure, .status]
        case .rerequestReceived: [.position, .gap, .invocation]
        case .rerequestServed: [.invocation, .ok]
        case .positionsExpired: [.count]
        case .registered: [.token]
        case .subscriptionsSynced: [.generation]
        case .apnsAnswered: [.status, .apnsReason]
        case .apnsStored: [.until]
        case .apnsHeldForPower: []
        case .apnsDiscarded: [.discardReason]
        case .apnsDelivered: [.via]
        case .deviceReceived: [.resend, .logged]
        case .bounced: []
        case .notShown: [.notShownReason]
        case .gapDetected: [.position, .gap, .action]
        case .rerequestSent: [.position, .gap, .invocation]
        case .rerequestAnswerReceived: [.invocation, .ok, .ignored]
        case .rerequestFailed: [.invocation, .why]
        case .positionSaved: [.position]
        case .shown: [.replaced, .run]
        case .summaryShown: [.fromPosition, .toPosition, .replaced]
        case .logUploaded: [.atReconnect]
        case .outcome: [.outcome, .lossReason]
        }
    }

    /// What it means, as docs/trace.md says it.
    /// - Complexity: O(1).
    package var meaning: String {
        switch self {
        case .mailArrived: "A mail reached the provider from the backend and became message `message`."
        case .connectivityChanged: "The device went online or offline (its connection to APNs)."
        case .launched: "The user opened the app (by tapping a notification, or on their own)."
        case .tapped: "The user tapped the notification of `message`."
        case .tokenRotated: "The app got a new APNs token (a restore, or a reinstall that shows the permission prompt again)."
        case .deviceIDChanged: "The device id changed: the extension forgets its saved position at the next push."
        case .subscriptionChanged: "The user subscribed to another folder in the app."
        case .providerOutage: "The provider went down or came back."
        case .appUpdated: "A rollout's app update was installed: the updated extension runs from now on."
        case .steered: "A scenario's dated event (`events`) made the device app do `steering`; what follows tells its effects."
        case .dropped: "The provider never sent the mail."
        case .requestSent: "The provider sent a request to APNs (numbered under the queue strategies; a re-send when `resend`)."
        case .requestLost: "The network lost the request: the provider's timeout fired."
        case .retryScheduled: "The provider will try the request again after `after` µs."
        case .providerGaveUp: "The provider gave up on the request."
        case .rerequestReceived: "The extension's re-request reached the provider."
        case .rerequestServed: "The provider answered the re-request (ok: it re-sent at least one position)."
        case .positionsExpired: "This many re-requested positions were past the payload TTL."
        case .registered: "The app registered its token (and device id) with the provider."
        case .subscriptionsSynced: "Folder subscriptions up to `generation` reached the provider."
        case .apnsAnswered: "APNs answered the request: 200, or an error status with its reason."
        case .apnsStored: "APNs stored the notification for the offline device (one per app), until `until` at the latest."
        case .apnsHeldForPower: "APNs held the low-priority notification for the device's power window."
        case .apnsDiscarded: "APNs dropped a notification it had accepted (`replaced`: a newer one took the one slot)."
        case .apnsDelivered: "APNs handed the notification to the device."
        case .deviceReceived: "iOS received the notification (`logged`: the extension wrote \"received\" in its log)."
        case .bounced: "The notification found the device gone: it goes back to APNs."
        case .notShown: "The notification reached the device, but nothing was drawn."
        case .gapDetected: "The extension found `gap` positions missing before `position`."
        case .rerequestSent: "The extension asked the provider for the missing positions, and waits."
        case .rerequestAnswerReceived: "The provider's answer reached the extension (`ignored`: its time was already up)."
        case .rerequestFailed: "The extension's re-request failed: an error, the network gone before the answer, or its time up."
        case .positionSaved: "The extension saved this position (null: it forgot it)."
        case .shown: "The push's own notification is in Notification Center (`replaced`: it took the place of the entry with its collapse id)."
        case .summaryShown: "A \"you have missed messages\" notification stands for positions `from_position` … `to_position`."
        case .logUploaded: "The app sent the extension's log to analytics."
        case .outcome: "The message's one bucket at the end of the run, as the reports count it."
        }
    }
}
