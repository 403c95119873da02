import Base
import FakeAPNs
import Simulator

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
    /// `compare.csv`: every strategy against the baseline, each rate's paired difference.
    public var compare: String
    /// `background.csv`: one row per strategy, what became of the background pushes; nil
    /// (no file) for a scenario without `background`.
    public var background: String?
    /// The side-by-side table printed on stdout.
    public var table: String

    /// The background pushes' file, written only for a scenario with `background`.
    public static let backgroundFileName = "background.csv"

    /// The background columns: the strategy, then one per `BackgroundCounter`.
    public static let backgroundColumns = ["strategy"] + BackgroundCounts.columnNames

    /// The report files' names, in the order `files` lists them.
    public static let fileNames = ["summary.csv", "daily.csv", "funnel.csv", "apns.csv", "compare.csv"]

    /// The files to write, by name.
    public var files: [(name: String, contents: String)] {
        Array(zip(Self.fileNames, [summary, daily, funnel, apns, compare]))
            + (background.map { [(Self.backgroundFileName, $0)] } ?? [])
    }

    /// The confidence of the intervals in the reports.
    public static let confidence = 0.95

    /// The funnel's stages, as (`funnel.csv` stage, count), in chain order; `shown` is `delivered`.
    /// - Complexity: O(1).
    public static var funnelStages: [(stage: String, count: RateCount)] {
        OutcomeCounter.funnelStages.map { ($0.stage, .outcome($0.count)) }
    }

    /// The summary columns, in order; docs/reports.md documents each.
    public static let summaryColumns = ["strategy"] + ([.messages, .delivered, .summarized] as [OutcomeCounter]).map(\.columnName)
                                        + ["lost", "pending", "deliverability", "measured_deliverability", "informed_rate",
                                           OutcomeCounter.pushesSent.columnName, "rerequests", "duplicates_shown", "collapsed",
                                           "latency_p50_s", "latency_p95_s", "latency_p99_s"]
                                        + LossReason.allCases.map { "lost_" + $0.columnName }
                                        + ["pushes_per_message"] + ChainCounts.columnNames
                                        + Metric.allCases.flatMap(estimateColumns) + recoveryColumns

    /// The recovered messages (first shown from a copy the provider re-sent) and their
    /// latency, apart from the first copies': after the estimates (a column added later
    /// goes last, so the earlier ones keep their places).
    public static let recoveryColumns = ["recovered", "recovered_latency_p50_s", "recovered_latency_p95_s",
                                         "first_copy_latency_p95_s"]

    /// The fault columns (`fault_<kind>_<measure>`, `APNsFaultCounts`), after every other
    /// column, in the summary of a scenario that names `apns.faults` only: the summary of any
    /// other scenario keeps its bytes.
    public static let faultColumns = APNsFaultCounts.columnNames

    /// The summary columns of `scenario`: `summaryColumns`, then `faultColumns` when it names faults.
    /// - Complexity: O(columns).
    public static func summaryColumns(for scenario: Scenario) -> [String] {
        summaryColumns + (scenario.chain.apns.faults != nil ? faultColumns : [])
    }

    /// A rate's columns after the counters: its value where no earlier column holds it
    /// (the `lost_*_share`s), then its standard error and 95% interval.
    private static func estimateColumns(_ metric: Metric) -> [String] {
        let value: [String]
        switch metric {
        case .deliverability, .informedRate, .measuredDeliverability, .pushesPerMessage: value = []
        case .lostShare: value = [metric.name]
        }
        return value + [metric.name + "_se", metric.name + "_low", metric.name + "_high"]
    }

    /// An estimate's columns (`estimateColumns`); empty where the rate's denominator is 0.
    private static func estimateFields(_ metric: Metric, _ estimate: Estimate, denominator: Int64) -> [String] {
        let value: [String]
        switch metric {
        case .deliverability, .informedRate, .measuredDeliverability, .pushesPerMessage: value = []
        case .lostShare: value = [denominator == 0 ? "" : FixedPoint.decimal(estimate.value, places: 6)]
        }
        let interval = estimate.interval(confidence: confidence)
        return value + [FixedPoint.decimal(estimate.standardError, places: 6),
                        interval.map { FixedPoint.decimal($0.lowerBound, places: 6) } ?? "",
                        interval.map { FixedPoint.decimal($0.upperBound, places: 6) } ?? ""]
    }

    /// The daily columns, in order.
    public static let dailyColumns = ["strategy", "date"]
        + ([.messages, .delivered, .summarized, .lost, .pending] as [DayCounter]).map(\.columnName) + ["deliverability"]
        + ([.measuredSent, .measuredReceived] as [DayCounter]).map(\.columnName) + ["measured_deliverability"]
        + ([.launches, .consoleReceived, .consoleDelivered] as [DayCounter]).map(\.columnName)
                                      + LossReason.allCases.map { "lost_" + $0.columnName }
                                      + Metric.daily.map { $0.name + "_se" }

    /// The comparison columns (long format: one row per strategy and rate).
    public static let compareColumns = ["strategy", "baseline", "rate", "value", "baseline_value", "difference",
                                        "se", "low", "high", "unpaired_se"]

    /// The funnel columns (long format: one row per stage).
    public static let funnelColumns = ["strategy", "stage", "messages", "share", "share_se", "share_low", "share_high"]

    /// The APNs columns: the strategy, then one per `APNsCounter`.
    public static let apnsColumns = ["strategy"] + APNsCounters.columnNames

    /// Renders the reports of `result` for `scenario`, comparing every strategy with
    /// strategy `baseline` (an index into `result.strategies`).
    /// - Complexity: O(strategies × (days + buckets) × blocks).
    public init(scenario: Scenario, result: SimulationResult, baseline: Int = 0) {
        var summary = CSV.row(Self.summaryColumns(for: scenario))
        let faultsNamed = scenario.chain.apns.faults != nil
        var daily = CSV.row(Self.dailyColumns)
        var funnel = CSV.row(Self.funnelColumns)
        var apns = CSV.row(Self.apnsColumns)
        let stages = Self.funnelStages
        for (index, (strategy, aggregate)) in zip(result.strategies, result.aggregates).enumerated() {
            func seconds(_ histogram: LatencyHistogram, _ quantile: Double) -> String {
                histogram.quantile(quantile).map { FixedPoint.seconds(microseconds: $0) } ?? ""
            }
            let recovered = aggregate.recoveredLatency
            let latency = [0.50, 0.95, 0.99].map { seconds(aggregate.latency, $0) }
            let recovery = [String(recovered.total), seconds(recovered, 0.5), seconds(recovered, 0.95),
                            seconds(aggregate.firstCopyLatency, 0.95)]
            summary += CSV.row([strategy.label, String(aggregate[.messages]), String(aggregate[.delivered]),
                                String(aggregate[.summarized]), String(aggregate.lost), String(aggregate.pending),
                                FixedPoint.ratio(aggregate[.delivered], aggregate[.messages]),
                                FixedPoint.ratio(aggregate[.measuredReceived], aggregate[.measuredSent]),
                                FixedPoint.ratio(aggregate[.delivered] + aggregate[.summarized], aggregate[.messages]),
                                String(aggregate[.pushesSent]), String(aggregate.rerequests),
                                String(aggregate.duplicatesShown), String(aggregate.collapsed)]
                               + latency + LossReason.allCases.map { String(aggregate.lost($0)) }
                               + [FixedPoint.ratio(aggregate[.pushesSent], aggregate[.messages], places: 4)]
                               + aggregate.chain.values.map { String($0) }
                               + Metric.allCases.flatMap { metric in
                                   Self.estimateFields(metric, result.estimate(metric, strategy: index),
                                                       denominator: metric.denominator(of: aggregate))
                               }
                               + recovery
                               + (faultsNamed ? aggregate.faults.values.map { String($0) } : []))
            for (day, counts) in aggregate.daily.enumerated() {
                daily += CSV.row([strategy.label, scenario.start.adding(days: day).description, String(counts[.messages]),
                                  String(counts[.delivered]), String(counts[.summarized]), String(counts[.lost]),
                                  String(counts[.pending]), FixedPoint.ratio(counts[.delivered], counts[.messages]),
                                  String(counts[.measuredSent]), String(counts[.measuredReceived]),
                                  FixedPoint.ratio(counts[.measuredReceived], counts[.measuredSent]),
                                  String(counts[.launches]), String(counts[.consoleReceived]), String(counts[.consoleDelivered])]
                                 + LossReason.allCases.map { String(aggregate.lost($0, day: day)) }
                                 + Metric.daily.map { metric in
                                     FixedPoint.decimal(result.dailyEstimate(metric, strategy: index, day: day).standardError,
                                                        places: 6)
                                 })
            }
            for (stage, stageCount) in stages {
                let count = stageCount.total(in: aggregate)
                let share = result.estimate([stageCount], over: .outcome(.messages), strategy: index)
                let interval = share.interval(confidence: Self.confidence)
                funnel += CSV.row([strategy.label, stage, String(count), FixedPoint.ratio(count, aggregate[.messages]),
                                   FixedPoint.decimal(share.standardError, places: 6),
                                   interval.map { FixedPoint.decimal($0.lowerBound, places: 6) } ?? "",
                                   interval.map { FixedPoint.decimal($0.upperBound, places: 6) } ?? ""])
            }
            apns += CSV.row([strategy.label] + aggregate.apns.values.map { String($0) })
        }
        self.summary = summary
        self.daily = daily
        self.funnel = funnel
        self.apns = apns
        background = scenario.chain.background.map { _ in
            CSV.row(Self.backgroundColumns) + zip(result.strategies, result.aggregates).map { strategy, aggregate in
                CSV.row([strategy.label] + aggregate.background.values.map { String($0) })
            }.joined()
        }
        compare = Self.compare(result: result, baseline: baseline)
        table = Self.table(scenario: scenario, result: result) + Self.comparisonTable(result: result, baseline: baseline)
    }

    /// `compare.csv`: for every strategy but the baseline and every rate, both values,
    /// the difference with its paired standard error and 95% interval, and the unpaired
    /// standard error two independent runs would have had.
    private static func compare(result: SimulationResult, baseline: Int) -> String {
        var text = CSV.row(compareColumns)
        for index in result.strategies.indices where index != baseline {
            for metric in Metric.allCases {
                let difference = result.difference(metric, strategy: index, minus: baseline)
                let interval = difference.interval(confidence: confidence)
                let value = result.estimate(metric, strategy: index), base = result.estimate(metric, strategy: baseline)
                func rate(_ estimate: Estimate, _ strategy: Int) -> String {
                    metric.denominator(of: result.aggregates[strategy]) == 0 ? "" : FixedPoint.decimal(estimate.value, places: 6)
                }
                text += CSV.row([result.strategies[index].label, result.strategies[baseline].label, metric.name,
                                 rate(value, index), rate(base, baseline),
                                 FixedPoint.decimal(difference.value, places: 6),
                                 FixedPoint.decimal(difference.standardError, places: 6),
                                 interval.map { FixedPoint.decimal($0.lowerBound, places: 6) } ?? "",
                                 interval.map { FixedPoint.decimal($0.upperBound, places: 6) } ?? "",
                                 FixedPoint.decimal(result.unpairedDifference(metric, strategy: index, minus: baseline)
                                                        .standardError, places: 6)])
            }
        }
        return text
    }

    /// The rates the stdout table shows with their intervals and compares.
    package static let tableRates: [(label: String, metric: Metric)] = [
        ("deliverability", .deliverability), ("measured deliverability", .measuredDeliverability),
        ("informed rate", .informedRate), ("pushes per message", .pushesPerMessage),
    ]

    /// "± 0.31" (percentage points, or the plain number for pushes per message): the
    /// half-width of the 95% interval; "" when the standard error is unknown.
    package static func halfWidth(_ estimate: Estimate, percent: Bool) -> String {
        guard let interval = estimate.interval(confidence: confidence) else { return "" }
        let half = (interval.upperBound - interval.lowerBound) / 2
        return " ± " + FixedPoint.decimal(percent ? half * 100 : half, places: percent ? 2 : 3)
    }

    /// The stdout table's comparison block: each strategy minus the baseline, paired.
    private static func comparisonTable(result: SimulationResult, baseline: Int) -> String {
        guard result.strategies.count > 1 else { return "" }
        var rows: [(String, [String])] = []
        for (label, metric) in tableRates {
            let percent = metric != .pushesPerMessage
            rows.append((label, result.strategies.indices.filter { $0 != baseline }.map { index in
                if [index, baseline].contains(where: { metric.denominator(of: result.aggregates[$0]) == 0 }) { return "–" }
                let difference = result.difference(metric, strategy: index, minus: baseline)
                let scaled = percent ? difference.value * 100 : difference.value
                let text = FixedPoint.decimal(scaled, places: percent ? 2 : 3)
                return (scaled >= 0 && !text.hasPrefix("-") ? "+" : "") + text + (percent ? " pp" : "")
                    + halfWidth(difference, percent: percent)
            }))
        }
        let labels = result.strategies.indices.filter { $0 != baseline }.map { result.strategies[$0].label }
        return "\n" + "minus \(result.strategies[baseline].label), paired (± = half-width of the 95% interval)\n"
            + layout(rows: rows, columns: labels)
    }

    /// "a, b and c": the files written, for messages on stderr.
    /// - Complexity: O(names).
    package static func listing(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    private static func table(scenario: Scenario, result: SimulationResult) -> String {
        func percent(_ numerator: Int64, _ denominator: Int64) -> String {
            let text = FixedPoint.percent(numerator, denominator, places: 2)
            return text.isEmpty ? "–" : text + "%"
        }
        let aggregates = result.aggregates
        func withInterval(_ metric: Metric) -> [String] {
            aggregates.indices.map { index in
                let aggregate = aggregates[index]
                let text = percent(metric.numerator(of: aggregate), metric.denominator(of: aggregate))
                return text == "–" ? text : text + halfWidth(result.estimate(metric, strategy: index), percent: true)
            }
        }
        var rows: [(String, [String])] = [
            (OutcomeCounter.messages.columnName, aggregates.map { String($0[.messages]) }),
            ("deliverability", withInterval(.deliverability)),
            ("measured deliverability", withInterval(.measuredDeliverability)),
            ("informed rate", withInterval(.informedRate)),
            (OutcomeCounter.delivered.columnName, aggregates.map { String($0[.delivered]) }),
            (OutcomeCounter.summarized.columnName, aggregates.map { String($0[.summarized]) }),
            ("lost", aggregates.map { String($0.lost) }),
        ]
        for reason in LossReason.allCases where aggregates.contains(where: { $0.lost(reason) > 0 }) {
            rows.append(("  " + reason.columnName, aggregates.map { String($0.lost(reason)) }))
        }
        rows += [
            ("pending", aggregates.map { String($0.pending) }),
            ("pushes per message", aggregates.indices.map { index in
                aggregates[index][.messages] == 0 ? "–"
                    : FixedPoint.ratio(aggregates[index][.pushesSent], aggregates[index][.messages], places: 3)
                      + halfWidth(result.estimate(.pushesPerMessage, strategy: index), percent: false)
            }),
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
            rows.append((counter.columnName.replacing(every: "_", with: " "), aggregates.map { String($0.chain[counter]) }))
        }
        // APNs's faults only where they happened: requests that met each, retries, given up.
        let faults = APNsFaultKind.allCases.filter { kind in
            aggregates.contains { aggregate in APNsFaultMeasure.allCases.contains { aggregate.faults[kind, $0] != 0 } }
        }
        if !faults.isEmpty { rows.append(("APNs faults: met / retried / given up", aggregates.map { _ in "" })) }
        for kind in faults {
            rows.append(("  " + kind.columnName.replacing(every: "_", with: " "), aggregates.map { aggregate in
                APNsFaultMeasure.allCases.map { String(aggregate.faults[kind, $0]) }.joined(separator: " / ")
            }))
        }
        // The background pushes' fates, where some were sent (`background.csv`).
        for counter in BackgroundCounter.allCases where aggregates.contains(where: { $0.background[counter] != 0 }) {
            rows.append(("background " + counter.columnName.replacing(every: "_", with: " "),
                         aggregates.map { String($0.background[counter]) }))
        }
        let title = "\(scenario.name): \(Counted.phrase(scenario.devices, "device")), \(Counted.phrase(scenario.dayCount, "day")) from \(scenario.start), "
            + "seed \(scenario.seed)\n"
        return title + layout(rows: rows, columns: result.strategies.map(\.label))
    }

    /// Rows under column headings, labels left-aligned, values right-aligned.
    private static func layout(rows: [(String, [String])], columns: [String]) -> String {
        let labelWidth = max(22, rows.map(\.0.count).max() ?? 0)
        let widths = columns.indices.map { column in
            max(columns[column].count, rows.map { $0.1[column].count }.max() ?? 0)
        }
        func pad(_ text: String, _ width: Int, left: Bool) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        var text = pad("", labelWidth, left: true)
        for (column, label) in columns.enumerated() { text += "  " + pad(label, widths[column], left: false) }
        text += "\n"
        for (label, values) in rows {
            text += pad(label, labelWidth, left: true)
            for (column, value) in values.enumerated() { text += "  " + pad(value, widths[column], left: false) }
            text += "\n"
        }
        return text
    }
}
