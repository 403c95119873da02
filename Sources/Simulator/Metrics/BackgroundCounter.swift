import Base
import Device

/// What became of the background pushes (`background`): one case per `background.csv`
/// column, in column order (the column is the case's name in snake_case; the stdout
/// table shows the nonzero ones). Declared once: the world counts them
/// (`ledger.background[.case] += 1`); the aggregate, its merge, the reports and the
/// partial format follow. A scenario without `background` counts none and writes no
/// `background.csv`.
///
/// They add up: `sent` = `rejected` + accepted; accepted = `apns_discarded` +
/// `received` + what was still at APNs or on its way at the end; `received` =
/// `delivered_to_app` + `deferred` + `discarded_force_quit`; `deferred` =
/// `delivered_after_deferral` + `throttled` + `held_at_end`.
public enum BackgroundCounter: Int, Counter {
    /// Background pushes the backend sent to APNs.
    case sent
    /// APNs refused them (400, 410, 429).
    case rejected
    /// APNs accepted, then discarded them: a newer push took the device's one offline
    /// slot, they expired, or notifications are disabled.
    case apnsDiscarded
    /// They reached iOS on an online device.
    case received
    /// They reached the app at once, within the hour's budget (`BackgroundBudget`).
    case deliveredToApp
    /// The hour's budget was spent: held for the next hour (the newest only).
    case deferred
    /// Held past a spent budget, they reached the app when the next hour began.
    case deliveredAfterDeferral
    /// Held, they were dropped for a newer one: iOS holds only the newest.
    case throttled
    /// The app was force-quit: iOS did not launch it (`background.forceQuit`).
    case discardedForceQuit
    /// Deferred and still held on the device when the run ended.
    case heldAtEnd
    /// Mail alerts APNs discarded from the device's one offline slot for a background
    /// push (counted in `lost_apns_coalesced` too, when the mail had no other copy): what
    /// the background stream cost the mail.
    case mailReplaced
}

/// The background counters of one world (or summed over many).
public typealias BackgroundCounts = CounterSet<BackgroundCounter, 12>

extension BackgroundFate {
    /// The counter of a push that met this fate on the device.
    /// - Complexity: O(1).
    package var counter: BackgroundCounter {
        switch self {
        case .deliveredToApp: .deliveredToApp
        case .deferred: .deferred
        case .deliveredAfterDeferral: .deliveredAfterDeferral
        case .throttled: .throttled
        case .discardedForceQuit: .discardedForceQuit
        }
    }
}
