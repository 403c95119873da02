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

    /// The column's name in the header.
    package var name: String { rawValue }

    /// Whether every file must have it.
    package var isRequired: Bool {
        switch self {
        case .date, .timeZone: true
        case .mail, .sent, .logged: false
        }
    }

    /// Whether its cells are counts (non-negative whole numbers; empty: not measured that day).
    package var isCount: Bool {
        switch self {
        case .date, .timeZone: false
        case .mail, .sent, .logged: true
        }
    }

    /// The simulated count it corresponds to, for `pushsim measure` and the fit.
    package var simulatedCount: OutcomeCounter? {
        switch self {
        case .date, .timeZone: nil
        case .mail: .messages
        case .sent: .measuredSent
        case .logged: .measuredReceived
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
        }
    }

    /// The counts a count column must not exceed on the same row (a subset's), if present.
    package var atMost: MeasuredColumn? {
        switch self {
        case .date, .timeZone, .mail: nil
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

    /// Its name in files and on the page.
    package var name: String { rawValue }

    /// Its place in `allCases`.
    package var index: Int {
        switch self {
        case .measuredDeliverability: 0
        case .activeShare: 1
        }
    }

    package var numerator: MeasuredColumn {
        switch self {
        case .measuredDeliverability: .logged
        case .activeShare: .sent
        }
    }

    package var denominator: MeasuredColumn {
        switch self {
        case .measuredDeliverability: .sent
        case .activeShare: .mail
        }
    }

    /// What it says, for the page and docs.
    package var summary: String {
        switch self {
        case .measuredDeliverability: "logged / sent, the talk's measured deliverability"
        case .activeShare: "sent / mail, the share of mail to users who launched that day or the next"
        }
    }
}
