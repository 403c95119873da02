import Base
import Reports
import Simulator
import Studies

/// `describe-log`'s output: the table people read, or the JSON scripts read (docs/cli.md).
enum LogDescriptionText {
    /// A number as shown: 4 significant digits (`LogDescription.rounded`), empty when unknown.
    static func shown(_ value: Double) -> String { value.isFinite ? format(LogDescription.rounded(value)) : "" }

    /// The summary line, the estimates with their 95% intervals, the fields and the --set arguments.
    /// - Complexity: O(1).
    static func table(_ description: LogDescription, skipped: (background: Int, otherTopic: Int)) -> String {
        var text = "log: \(Counted.phrase(description.pushes, "alert push", plural: "alert pushes")) to "
            + "\(Counted.phrase(description.users, "user")), "
            + "\(Counted.phrase(description.weekdays + description.weekendDays, "day"))"
            + (description.firstDay.map { " from \($0)" } ?? "")
            + " (\(Counted.phrase(description.weekdays, "weekday")), \(Counted.phrase(description.weekendDays, "weekend day"))), "
            + "\(Counted.phrase(description.bursts, "burst")); left out: \(Counted.phrase(skipped.background, "background row")), "
            + "\(Counted.phrase(skipped.otherTopic, "row")) of another topic\n\n"
        var rows = [["field", "estimate", "95% interval"]]
        for (path, estimate) in description.estimates {
            let interval = estimate.interval().map { shown($0.lowerBound) + " … " + shown($0.upperBound) } ?? ""
            rows.append([path + (path == "mailBursts.gap.mean" ? " (s)" : ""), shown(estimate.value), interval])
        }
        let geometric = description.meanSize.value * (2 * description.meanSize.value - 1)
        rows.append(["burst size E[N²]", shown(description.meanSquareSize.value),
                     (description.meanSquareSize.interval().map { shown($0.lowerBound) + " … " + shown($0.upperBound) } ?? "")
                        + " (geometric of that mean: \(shown(geometric)))"])
        text += TextColumns.lines(rows)
        text += "\nscenario fields:\n" + description.fields + "\n\nas --set arguments:\n"
        text += description.setArguments.joined(separator: "\n") + "\n"
        return text
    }

    /// `{log, estimates, fields}`.
    /// - Complexity: O(1).
    static func json(_ description: LogDescription, skipped: (background: Int, otherTopic: Int)) -> String {
        let log = JSONText.object([
            ("pushes", String(description.pushes)), ("users", String(description.users)),
            ("firstDay", JSONText.optional(description.firstDay) { JSONText.string("\($0)") }),
            ("weekdays", String(description.weekdays)), ("weekendDays", String(description.weekendDays)),
            ("bursts", String(description.bursts)), ("backgroundRows", String(skipped.background)),
            ("otherTopicRows", String(skipped.otherTopic)),
        ])
        func estimate(_ estimate: Estimate) -> String {
            let interval = estimate.interval()
            return JSONText.object([("value", JSONText.number(estimate.value)), ("se", JSONText.number(estimate.standardError)),
                                    ("low", JSONText.optional(interval) { JSONText.number($0.lowerBound) }),
                                    ("high", JSONText.optional(interval) { JSONText.number($0.upperBound) })])
        }
        let estimates = description.estimates.map { ($0.path, estimate($0.estimate)) }
            + [("burstSizeMeanSquare", estimate(description.meanSquareSize))]
        return JSONText.object([("log", log), ("estimates", JSONText.object(estimates)), ("fields", description.fields)])
    }
}
