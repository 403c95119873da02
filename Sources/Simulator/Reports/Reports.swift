import FakeAPNs

/// The report files of a run, rendered whole in memory before anything is written.
public struct Reports: Sendable {
    /// `summary.csv`: one row per strategy.
    public var summary: String
    /// `daily.csv`: one row per strategy and day.
    public var daily: String
    /// `funnel.csv`: one row per strategy and stage of the delivery chain.
    public var funnel: String
    /// `apns.csv`: one row per strategy, what the Push Notifications Console shows.
    public var apns: String
    /// The side-by-side table printed on stdout.
    public var table: String

    /// The report files' names, in the order `files` lists them.
    public static let fileNames = ["summary.csv", "daily.csv", "funnel.csv", "apns.csv"]

    /// The files to write, by name.
    public var files: [(name: String, contents: String)] {
        Array(zip(Self.fileNames, [summary, daily, funnel, apns]))
    }

    /// The funnel's stages, as (`funnel.csv` stage, field), in chain order; `shown` is `delivered`.
    /// - Complexity: O(1).
    public static var funnelStages: [(stage: String, field: KeyPath<StrategyAggregate, Int64>)] {
        [("messages", \.messages), ("provider_sent", \.providerSent), ("apns_accepted", \.apnsAccepted),
         ("reached_device", \.reachedDevice), ("shown", \.delivered), ("logged", \.logged),
         ("uploaded", \.uploaded), ("opened", \.opened)]
    }

    /// The summary columns, in order; README documents each.
    public static let summaryColumns = ["strategy", "messages", "delivered", "summarized", "lost", "pending",
                                        "deliverability", "measured_deliverability", "informed_rate", "pushes_sent",
                                        "rerequests", "duplicates_shown", "collapsed", "latency_p50_s", "latency_p95_s",
                                        "latency_p99_s"] + LossReason.allCases.map { "lost_" + $0.columnName }
                                        + ["pushes_per_message"] + ChainCounts.columnNames

    /// The daily columns, in order.
    public static let dailyColumns = ["strategy", "date", "messages", "delivered", "summarized", "lost", "pending",
                                      "deliverability", "measured_sent", "measured_received", "measured_deliverability"]
                                      + LossReason.allCases.map { "lost_" + $0.columnName }

    /// The funnel columns (long format: one row per stage).
    public static let funnelColumns = ["strategy", "stage", "messages", "share"]

    /// The APNs columns: the strategy, then one per `APNsCounter`.
    public static let apnsColumns = ["strategy"] + APNsCounters.columnNames

    /// Renders the reports of `result` for `scenario`.
    /// - Complexity: O(strategies × (days + buckets)).
    public init(scenario: Scenario, result: SimulationResult) {
        var summary = CSV.row(Self.summaryColumns)
        var daily = CSV.row(Self.dailyColumns)
        var funnel = CSV.row(Self.funnelColumns)
        var apns = CSV.row(Self.apnsColumns)
        let stages = Self.funnelStages
        for (strategy, aggregate) in zip(result.strategies, result.aggregates) {
            let latency = [0.50, 0.95, 0.99].map { aggregate.latency.quantile($0).map { FixedPoint.seconds(microseconds: $0) } ?? "" }
            summary += CSV.row([strategy.label, String(aggregate.messages), String(aggregate.delivered),
                                String(aggregate.summarized), String(aggregate.lost), String(aggregate.pending),
                                FixedPoint.ratio(aggregate.delivered, aggregate.messages),
                                FixedPoint.ratio(aggregate.measuredReceived, aggregate.measuredSent),
                                FixedPoint.ratio(aggregate.delivered + aggregate.summarized, aggregate.messages),
                                String(aggregate.pushesSent), String(aggregate.rerequests),
                                String(aggregate.duplicatesShown), String(aggregate.collapsed)]
                               + latency + LossReason.allCases.map { String(aggregate.lost($0)) }
                               + [FixedPoint.ratio(aggregate.pushesSent, aggregate.messages, places: 4)]
                               + aggregate.chain.values.map { String($0) })
            for (day, counts) in aggregate.daily.enumerated() {
                daily += CSV.row([strategy.label, scenario.start.adding(days: day).description, String(counts.messages),
                                  String(counts.delivered), String(counts.summarized), String(counts.lost),
                                  String(counts.pending), FixedPoint.ratio(counts.delivered, counts.messages),
                                  String(counts.measuredSent), String(counts.measuredReceived),
                                  FixedPoint.ratio(counts.measuredReceived, counts.measuredSent)]
                                 + LossReason.allCases.map { String(aggregate.lost($0, day: day)) })
            }
            for (stage, field) in stages {
                let count = aggregate[keyPath: field]
                funnel += CSV.row([strategy.label, stage, String(count), FixedPoint.ratio(count, aggregate.messages)])
            }
            apns += CSV.row([strategy.label] + aggregate.apns.values.map { String($0) })
        }
        self.summary = summary
        self.daily = daily
        self.funnel = funnel
        self.apns = apns
        table = Self.table(scenario: scenario, result: result)
    }

    /// "a, b and c": the files written, for messages on stderr.
    /// - Complexity: O(names).
    static func listing(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    private static func table(scenario: Scenario, result: SimulationResult) -> String {
        func percent(_ numerator: Int64, _ denominator: Int64) -> String {
            let text = FixedPoint.percent(numerator, denominator, places: 2)
            return text.isEmpty ? "–" : text + "%"
        }
        let aggregates = result.aggregates
        var rows: [(String, [String])] = [
            ("messages", aggregates.map { String($0.messages) }),
            ("deliverability", aggregates.map { percent($0.delivered, $0.messages) }),
            ("measured deliverability", aggregates.map { percent($0.measuredReceived, $0.measuredSent) }),
            ("informed rate", aggregates.map { percent($0.delivered + $0.summarized, $0.messages) }),
            ("delivered", aggregates.map { String($0.delivered) }),
            ("summarized", aggregates.map { String($0.summarized) }),
            ("lost", aggregates.map { String($0.lost) }),
        ]
        for reason in LossReason.allCases where aggregates.contains(where: { $0.lost(reason) > 0 }) {
            rows.append(("  " + reason.columnName, aggregates.map { String($0.lost(reason)) }))
        }
        rows += [
            ("pending", aggregates.map { String($0.pending) }),
            ("pushes per message", aggregates.map { $0.messages == 0 ? "–" : FixedPoint.ratio($0.pushesSent, $0.messages, places: 3) }),
            ("re-requests", aggregates.map { String($0.rerequests) }),
            ("duplicates shown", aggregates.map { String($0.duplicatesShown) }),
            ("collapsed", aggregates.map { String($0.collapsed) }),
            ("latency p50 / p95 (s)", aggregates.map { aggregate in
                let values = [0.5, 0.95].map { aggregate.latency.quantile($0).map { FixedPoint.seconds(microseconds: $0) } ?? "–" }
                return values.joined(separator: " / ")
            }),
        ]
        // Chain counters only where they happened, like the loss reasons: most runs have few.
        for counter in ChainCounter.allCases where aggregates.contains(where: { $0.chain[counter] != 0 }) {
            rows.append((counter.columnName.replacingOccurrences(of: "_", with: " "), aggregates.map { String($0.chain[counter]) }))
        }
        let labelWidth = max(22, rows.map(\.0.count).max() ?? 0)
        let widths = result.strategies.indices.map { column in
            max(result.strategies[column].label.count, rows.map { $0.1[column].count }.max() ?? 0)
        }
        func pad(_ text: String, _ width: Int, left: Bool) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        var text = "\(scenario.name): \(scenario.devices) devices, \(scenario.dayCount) days from \(scenario.start), seed \(scenario.seed)\n"
        text += pad("", labelWidth, left: true)
        for (column, strategy) in result.strategies.enumerated() { text += "  " + pad(strategy.label, widths[column], left: false) }
        text += "\n"
        for (label, values) in rows {
            text += pad(label, labelWidth, left: true)
            for (column, value) in values.enumerated() { text += "  " + pad(value, widths[column], left: false) }
            text += "\n"
        }
        return text
    }
}
