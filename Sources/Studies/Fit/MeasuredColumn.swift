import Simulator

/// A column of a measured-figures file (`pushsim fit`'s second argument; docs/fit.md):
/// declared once, here. The parser, `pushsim measure`'s writer, the table schema
/// (`pushsim schema measured`) and the documentation table follow from these cases.
package enum MeasuredColumn: String, CaseIterable, Sendable {
    /// The day, `YYYY-MM-DD`, in the zone of `time_zone`.
    case date
    /// The zone the days are cut in: `UTC`, `UTC+03:00`, or an IANA name; one per file.
    case timeZone = "time_zone"
    /// Mails the provider sent pushes for that day, to every user.
    case mail
    /// Of that day's mails, those sent to users who launched the app that day or the next:
    /// the talk's denominator.
    case sent
    /// Of `sent`, those the extension logged "received" and a launch uploaded by the end
    /// of the next day: the talk's numerator.
    case logged
    /// App launches that day, every user's (the team's analytics).
    case launches
    /// Notifications APNs accepted that day (Apple's Push Notifications Console: "received").
    case consoleReceived = "console_received"
    /// Notifications APNs handed to a device that day (the Console: "delivered").
    case consoleDelivered = "console_delivered"

    /// The column's name in the header.
    package var name: String { rawValue }

    /// Whether every file must have it.
    package var isRequired: Bool {
        switch self {
        case .date, .timeZone: true
        case .mail, .sent, .logged, .launches, .consoleReceived, .consoleDelivered: false
        }
    }

    /// Whether its cells are counts (non-negative whole numbers; empty: not measured that day).
    package var isCount: Bool {
        switch self {
        case .date, .timeZone: false
        case .mail, .sent, .logged, .launches, .consoleReceived, .consoleDelivered: true
        }
    }

    /// The simulated count it corresponds to, for `pushsim measure` and the fit.
    package var simulatedCount: OutcomeCounter? {
        switch self {
        case .date, .timeZone: nil
        case .mail: .messages
        case .sent: .measuredSent
        case .logged: .measuredReceived
        case .launches: .launches
        case .consoleReceived: .consoleReceived
        case .consoleDelivered: .consoleDelivered
        }
    }

    /// What it holds, for help, the schema and docs/fit.md.
    package var summary: String {
        switch self {
        case .date: "the day, YYYY-MM-DD, in the zone of time_zone; one row a day, in increasing order (days may be missing)"
        case .timeZone: "the zone the days are cut in: UTC, UTC+HH:MM, UTC-HH:MM or an IANA name (Europe/Berlin); the same on every row"
        case .mail: "mails of that day the provider sent a push for, to every user (the provider's log)"
        case .sent: "of those, the ones sent to users who launched the app that day or the next (the talk's denominator)"
        case .logged: "of those, the ones the extension logged \"received\" and a launch uploaded by the end of the next day (the talk's numerator)"
        case .launches: "app launches that day, by every user (the team's analytics: opens and taps alike)"
        case .consoleReceived: "notifications APNs accepted that day, re-sends included (Apple's Push Notifications Console)"
        case .consoleDelivered: "notifications APNs delivered to a device that day, straight away or from storage (the Console)"
        }
    }

    /// The counts a count column must not exceed on the same row (a subset's), if present.
    package var atMost: MeasuredColumn? {
        switch self {
        case .date, .timeZone, .mail, .launches, .consoleReceived, .consoleDelivered: nil
        case .sent: .mail
        case .logged: .sent
        }
    }
}

/// A ratio of two measured columns the fit matches, day by day, with its simulated
/// counterpart: declared once, here (the days' table, the page's charts and the
/// likelihood follow).
package enum FitStatistic: String, CaseIterable, Sendable {
    /// logged / sent: the talk's measured deliverability.
    case measuredDeliverability = "measured_deliverability"
    /// sent / mail: the share of mail going to users the talk's method counts (who launch).
    case activeShare = "active_share"
    /// launches / mail: how often users open the app, per mail (not a share: it can pass 1).
    case launchesPerMail = "launches_per_mail"
    /// console_delivered / console_received: the share of what APNs took in that it handed out,
    /// which its one-per-app storage for an offline device lowers.
    case consoleDeliveredShare = "console_delivered_share"

    /// Its name in files and on the page.
    package var name: String { rawValue }

    /// Its place in `allCases`.
    package var index: Int {
        switch self {
        case .measuredDeliverability: 0
        case .activeShare: 1
        case .launchesPerMail: 2
        case .consoleDeliveredShare: 3
        }
    }

    package var numerator: MeasuredColumn {
        switch self {
        case .measuredDeliverability: .logged
        case .activeShare: .sent
        case .launchesPerMail: .launches
        case .consoleDeliveredShare: .consoleDelivered
        }
    }

    package var denominator: MeasuredColumn {
        switch self {
        case .measuredDeliverability: .sent
        case .activeShare, .launchesPerMail: .mail
        case .consoleDeliveredShare: .consoleReceived
        }
    }

    /// What it says, for the page and docs.
    package var summary: String {
        switch self {
        case .measuredDeliverability: "logged / sent, the talk's measured deliverability"
        case .activeShare: "sent / mail, the share of mail to users who launched that day or the next"
        case .launchesPerMail: "launches / mail, the app's launches per mail that day"
        case .consoleDeliveredShare: "console_delivered / console_received, the share of what APNs took in that it delivered that day"
        }
    }

    /// The scenario's fields that move it most, for a refusal or a poor fit to name: where to
    /// look when the varied fields cannot match it.
    package var movedBy: [String] {
        switch self {
        case .measuredDeliverability:
            ["connectivity.offline.mean", "device.launches.perDay", "apns.storage", "device.extensionTimeLimit",
             "device.extensionMemory", "provider.outages"]
        case .activeShare: ["device.launches.perDay", "device.launches.weekendFactor", "mail.weekendFactor"]
        case .launchesPerMail: ["device.launches.perDay", "device.launches.weekendFactor", "device.taps.probability", "mail.perDay"]
        case .consoleDeliveredShare: ["connectivity.offline.mean", "connectivity.online.mean", "apns.storage", "apns.expiration"]
        }
    }

    /// Every figure's two columns, numerator/denominator: "logged/sent, sent/mail, … or
    /// console_delivered/console_received", for help, the schema and messages.
    package static var columnPairs: String {
        let pairs = allCases.map { "\($0.numerator.name)/\($0.denominator.name)" }
        return pairs.dropLast().joined(separator: ", ") + " or " + pairs[pairs.count - 1]
    }

    /// Whether it is a share (numerator counted among the denominator's, 0…1): its sampling
    /// variance is then binomial, else Poisson (a rate per mail, 0…∞).
    package var isShare: Bool {
        switch self {
        // Delivered counts a day's hand-outs, some of the day before's storage among them, so a
        // day can pass 1 by a little; over days it is a share, and its variance binomial.
        case .measuredDeliverability, .activeShare, .consoleDeliveredShare: true
        case .launchesPerMail: false
        }
    }

    /// The values it can take: a day's Console share can pass 1 a little (see `isShare`).
    package var range: ClosedRange<Double> {
        switch self {
        case .measuredDeliverability, .activeShare: 0...1
        case .launchesPerMail, .consoleDeliveredShare: 0...Double.greatestFiniteMagnitude
        }
    }

    /// Whether `value` is an end of `range` (0, or 1 for a share that cannot pass it), where a
    /// figure can sit for every point alike and so tell none apart.
    package func isAtEnd(_ value: Double) -> Bool { value == 0 || (range.upperBound == 1 && value == 1) }

    /// The variance of one day's ratio at `value` over `count` of the denominator, by its
    /// sampling alone: binomial p(1 − p)/n for a share, Poisson r/n for a rate; `value` held
    /// half a count inside the range, so a ratio of exactly 0 (or 1) still has a spread.
    /// - Complexity: O(1).
    package func samplingVariance(_ value: Double, count: Double) -> Double {
        let low = 0.5 / count
        if isShare {
            let p = min(max(value, low), 1 - low)
            return p * (1 - p) / count
        }
        return max(value, low) / count
    }
}
