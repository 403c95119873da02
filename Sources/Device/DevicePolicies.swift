/// When the app registers for remote notifications (and so tells the provider its token).
public enum RegistrationPolicy: Sendable, Equatable {
    /// On every launch: Apple's advice; a rotated token reaches the provider at the next launch.
    case everyLaunch
    /// Only when the permission prompt is shown (first launch after install or reinstall).
    case onceAtPrompt
}

/// When folder subscriptions changed while offline reach the provider.
public enum SubscriptionSync: Sendable, Equatable {
    /// As soon as the device is online again (the app syncs in the background).
    case reconnect
    /// At the next app launch while online.
    case launch
}

/// How the Notification Service Extension took part in showing a push.
public enum ExtensionRun: UInt8, Sendable, Equatable, BitwiseCopyable, CaseIterable {
    /// It ran its logic and called its completion in time.
    case ran
    /// iOS did not run it (iOS < 10, no `mutable-content`, no alert): shown as is, nothing logged.
    case notRun
    /// It went over its memory limit and was killed: shown as is, nothing logged or saved.
    case killed
    /// Its ~30 s were up before the re-request answered: the original was shown as is.
    case timedOut
    /// It ran, but the payload was numbered for another device id: shown as is.
    case hashMismatch
}

/// Why a push that reached the device was never shown.
public enum NotShownReason: UInt8, Sendable, Equatable, BitwiseCopyable, CaseIterable {
    /// The user does not allow alerts for the app.
    case alertsNotAllowed
    /// The app's notification display is switched off in Settings.
    case displayOff
}
