import Base
import FoundationEssentials
import Glibc
import Simulator

/// What `pushsim describe-log` estimates from a send log's alert pushes: the rhythm
/// (`mail.perDay`, `mail.weekendFactor`, `mail.diurnal`) and the burstiness (`mailBursts`),
/// each with its standard error over blocks of users, and the scenario fields that
/// reproduce them (docs/cli.md, "describe-log").
package struct LogDescription: Sendable {
    /// Alert pushes read, distinct users, the first local day, and the days the log spans.
    package var pushes: Int
    package var users: Int
    package var firstDay: CivilDate?
    package var weekdays: Int
    package var weekendDays: Int
    /// Bursts: threads, and threadless pushes alone or joined by `--burst-gap`.
    package var bursts: Int
    /// Mean alert pushes a weekday per user of the log (`mail.perDay`).
    package var perDay: Estimate
    /// The weekend's daily rate over the weekdays' (`mail.weekendFactor`); NaN without a weekend day.
    package var weekendFactor: Estimate
    /// The 24 local hours' rates relative to the mean hour (`mail.diurnal`, mean 1).
    package var diurnal: [Estimate]
    /// Mean pushes a burst (`mailBursts.meanSize`).
    package var meanSize: Estimate
    /// Mean squared pushes a burst: a geometric size of mean m has m(2m − 1).
    package var meanSquareSize: Estimate
    /// Mean time from one push of a burst to the next, in seconds (`mailBursts.gap`'s mean).
    package var gapSeconds: Estimate

    /// The estimates by scenario field path, in the order shown.
    /// - Complexity: O(1).
    package var estimates: [(path: String, estimate: Estimate)] {
        [("mail.perDay", perDay), ("mail.weekendFactor", weekendFactor), ("mailBursts.meanSize", meanSize),
         ("mailBursts.gap.mean", gapSeconds)]
            + diurnal.enumerated().map { ("mail.diurnal[\($0.offset)]", $0.element) }
    }

    /// Whether the bursts say anything: some burst has two pushes or more (else `mailBursts` is left out: Poisson).
    package var hasBursts: Bool { gapSeconds.value.isFinite && meanSize.value > 1 }

    /// `mail` as a scenario writes it: perDay, diurnal (when the log's hours are not all
    /// empty), weekendFactor (when it has a weekend day); rounded to 4 significant decimals.
    /// - Complexity: O(1).
    package var mailField: String {
        var members: [(String, String)] = [("perDay", JSONText.number(Self.rounded(perDay.value.isFinite ? perDay.value : 0)))]
        if diurnal.allSatisfy({ $0.value.isFinite }), diurnal.contains(where: { $0.value > 0 }) {
            members.append(("diurnal", JSONText.array(diurnal.map { JSONText.number(Self.rounded($0.value)) })))
        }
        if weekendFactor.value.isFinite {
            members.append(("weekendFactor", JSONText.number(Self.rounded(min(weekendFactor.value, ScenarioLimits.weekendFactor)))))
        }
        return JSONText.object(members)
    }

    /// `mailBursts` as a scenario writes it (an exponential gap of the estimated mean), or nil without bursts.
    /// - Complexity: O(1).
    package var mailBurstsField: String? {
        guard hasBursts else { return nil }
        let size = min(max(1, Self.rounded(meanSize.value)), ScenarioLimits.burstMeanSize)
        let gapText = format(max(0.001, (gapSeconds.value * 1000).rounded() / 1000)) + "s"
        return JSONText.object([("meanSize", JSONText.number(size)),
                                ("gap", JSONText.object([("distribution", JSONText.string("exponential")),
                                                         ("mean", JSONText.string(gapText))]))])
    }

    /// The scenario fields that reproduce the log, as one JSON object (`mail`, `mailBursts`).
    /// - Complexity: O(1).
    package var fields: String {
        var members = [("mail", mailField)]
        if let bursts = mailBurstsField { members.append(("mailBursts", bursts)) }
        return JSONText.object(members)
    }

    /// The same as `--set` arguments, one a line, quoted for a POSIX shell.
    /// - Complexity: O(1).
    package var setArguments: [String] {
        var lines = ["--set 'mail=\(mailField)'"]
        if let bursts = mailBurstsField { lines.append("--set 'mailBursts=\(bursts)'") }
        return lines
    }

    /// `value` to 4 significant digits (3 decimals at least for a weight), enough for a rate with a standard error.
    package static func rounded(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value.isFinite ? 0 : value }
        let digits = max(3, 3 - Int(floor(log10(abs(value)))))
        let scale = pow(10, Double(min(digits, 12)))
        return (value * scale).rounded() / scale
    }
}
