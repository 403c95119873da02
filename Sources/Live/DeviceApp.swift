import Base
import Device
import FakeAPNs
import Simulator

/// One entry of a phone's Notification Center, as the inspection API shows it.
package struct ShownEntry: Sendable {
    package var shownAt: SimTime
    /// The push's record (nil: its words are no longer kept).
    package var record: PushRecord?
    /// The push's message index.
    package var messageIndex: Int32
    /// A "you have missed messages" summary standing for positions `missed`.
    package var summary: ClosedRange<Int32>?
    /// It replaced an entry with the same collapse id.
    package var replacedExisting: Bool
}

/// A background push's fate on the phone, as the inspection API shows what the app received.
package struct BackgroundEntry: Sendable {
    package var time: SimTime
    /// The push's record (nil: its words are no longer kept).
    package var record: PushRecord?
    package var messageIndex: Int32
    package var fate: BackgroundFate
}

/// One step of an extension or iOS, as the inspection API shows the device's log.
package struct LogEntry: Sendable {
    package var time: SimTime
    package var messageIndex: Int32?
    /// What happened, as values (`LogStep.text` when the API reads it).
    package var step: LogStep
}

/// One app on one phone in the live population, and what the population remembers of
/// it for the API and the reports. The phone is the simulation's `Phone` actor; the rest
/// is the wiring's record of what the phone answered, as the simulation's ledger is.
package struct DeviceApp {
    /// Entries kept for the API, newest last.
    package static let entriesKept = 32

    package let device: Int32
    package let app: Int32
    package var phone: Phone
    /// Token changes so far (the next token is the `rotations + 1`-th).
    package var rotations: Int32 = 0
    /// Every token issued to the app, oldest first (the last is the phone's current one):
    /// what APNs holds for the app is found through these, not by scanning every token.
    package var tokens: [DeviceToken] = []
    package var folderGeneration: Int32 = 0
    package var counts = DeviceAppCounts()
    /// Requests APNs refused, by reason (`APNsReason.allCases` order).
    package var rejections = [Int64](repeating: 0, count: APNsReason.allCases.count)
    /// What Notification Center shows, newest last, at most `entriesKept`.
    package var notificationCenter = RecentEntries<ShownEntry>(capacity: entriesKept)
    /// iOS's and the extension's steps, newest last, at most `entriesKept`.
    package var log = RecentEntries<LogEntry>(capacity: entriesKept)
    /// What became of the app's background pushes (`BackgroundCounter`, as `run` counts them).
    package var background = BackgroundCounts()
    /// The background pushes handed to the app (or deferred, throttled, discarded), newest last.
    package var backgroundUpdates = RecentEntries<BackgroundEntry>(capacity: entriesKept)

    /// The mail ids whose own push was drawn (with a provider link: `DeviceAppCount.mailsShown`).
    package var mailsShown = Set<Int32>()

    /// The device app's own streams, as the simulation derives them.
    package var streams: LaneStreams
    /// APNs's coin for this app's tokens (`APNsServer.storageCoin`), seeded as a world seeds its APNs.
    package var apnsCoin: SplitMix64

    /// Logs `step` (of push `message`, if any) at `now`, over the oldest when full.
    /// - Complexity: O(1).
    package mutating func note(_ step: LogStep, message: Int32?, at now: SimTime) {
        log.append(LogEntry(time: now, messageIndex: message, step: step))
    }

    /// A background push of message `message` met `fate` on the phone: counted, logged and
    /// kept for the inspection API; never drawn. One that reached the phone counts as delivered.
    /// - Complexity: O(1).
    package mutating func receivedInBackground(message: Int32, _ fate: BackgroundFate, record: PushRecord?, at now: SimTime) {
        background[fate.counter] += 1
        switch fate {
        case .deliveredToApp, .deferred, .discardedForceQuit:
            background[.received] += 1
            counts[.delivered] += 1
        case .deliveredAfterDeferral, .throttled:
            break
        }
        note(.background(fate), message: message, at: now)
        backgroundUpdates.append(BackgroundEntry(time: now, record: record, messageIndex: message, fate: fate))
    }

    /// `background` as the API shows it: one key per `BackgroundCounter`, its column name.
    /// - Complexity: O(counters).
    package var backgroundCountsJSON: String {
        JSONText.object(BackgroundCounter.allCases.map { ($0.columnName, String(background[$0])) })
    }

    /// Puts `entry` in Notification Center, over the oldest when full; one that replaced an
    /// existing entry takes the place of the newest with its record's collapse id. The
    /// record is taken from the entry, not passed beside it: each copy of a record retains
    /// its four strings.
    /// - Complexity: O(1), O(`entriesKept`) when it replaced one.
    package mutating func show(_ entry: ShownEntry) {
        if entry.replacedExisting, let collapseID = entry.record?.collapseID,
           let index = notificationCenter.lastIndex(where: { $0.record?.collapseID == collapseID }) {
            notificationCenter.remove(at: index)
        }
        notificationCenter.append(entry)
    }
}
