import Base
import Simulator

/// `report.html`: one self-contained page (inline SVG and CSS, no script, nothing fetched)
/// with the run's scenario, the command line that made it, and its charts and tables.
/// The same result always gives the same bytes.
package enum ReportPage {
    /// The page's file name in a report folder.
    package static let fileName = "report.html"

    /// A page's start, to its header's title: the document head (a CSP that forbids
    /// every fetch and script, the style), then `<body><header><h1>`. Shared with `sweep.html`.
    /// - Complexity: O(style).
    package static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(SVG.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header>
        <h1>\(SVG.escape(title))</h1>\n
        """
    }

    /// Each strategy's daily deliverability intervals at 95%, from the run's blocks of users.
    /// - Complexity: O(strategies × days × blocks).
    package static func dailyBands(_ result: SimulationResult) -> [[ClosedRange<Double>?]] {
        result.aggregates.indices.map { index in
            result.aggregates[index].daily.indices.map { day in
                result.dailyEstimate(.deliverability, strategy: index, day: day).interval(confidence: Reports.confidence)
            }
        }
    }

    /// The page for `result` of `scenario`; `commandLine` is shown when known.
    /// `deliverabilityBands`: see `ReportCharts.dailyDeliverability`; by default each
    /// day's 95% interval from the run's own standard errors. `traceDay`: a traced
    /// device's day, drawn last (`--trace`); without it the page is as it always was.
    /// - Complexity: O(strategies × (days + buckets)), plus the traced day's events.
    package static func render(scenario: Scenario, result: SimulationResult, commandLine: String?,
                       deliverabilityBands: [[ClosedRange<Double>?]]? = nil, traceDay: TraceDay? = nil) -> String {
        let e = SVG.escape
        let end = scenario.start.adding(days: max(0, scenario.dayCount - 1))
        var html = head(title: "PushSim report: " + scenario.name)
        html += description(scenario.description)
        html += "<dl class=\"facts\">\n"
        html += "<dt>seed</dt><dd>\(scenario.seed)</dd>\n"
        html += "<dt>devices</dt><dd>\(scenario.devices)</dd>\n"
        html += "<dt>days</dt><dd>\(scenario.dayCount) (\(scenario.start) to \(end))</dd>\n"
        html += "<dt>strategies</dt><dd>\(e(result.strategies.map(\.label).joined(separator: ", ")))</dd>\n"
        if let commandLine { html += "<dt>command</dt><dd><code>\(e(commandLine))</code></dd>\n" }
        html += "</dl>\n</header>\n"
        html += summaryTable(result: result)

        let daily = ReportCharts.dailyDeliverability(scenario: scenario, result: result,
                                                     bands: deliverabilityBands ?? dailyBands(result))
        html += section("daily", "Daily deliverability",
                        "Share of each day's mail whose own notification was shown (solid, filled markers, with its 95% "
                        + "interval shaded where the run has standard errors), and what the talk's logging would report for "
                        + "that day (dashed, hollow markers: measured received / measured sent). Each strategy has its colour "
                        + "and marker shape. Weekends are shaded. Strategies that lie on each other here are drawn apart "
                        + "in the next section.",
                        daily.svg(), notes: ReportCharts.dailyNotes(scenario: scenario, result: result, chart: daily))
        let differences = ReportCharts.dailyDifferences(scenario: scenario, result: result)
        if let baseline = result.strategies.first, !differences.isEmpty {
            html += section("daily-difference", "Each strategy against \(baseline.label), day by day",
                            "Each strategy's daily deliverability minus \(baseline.label)'s, in percentage points, one chart a "
                            + "strategy, on one scale. The shaded 95% interval is the paired one: every strategy sees the same "
                            + "users, so a day's difference is known far better than either day's figure. Where the band "
                            + "stays clear of the dashed zero line, the two differ that day. Weekends are shaded.",
                            differences.map { $0.svg() }.joined(), figureClass: differences.count > 1 ? "multiples" : nil)
        }
        html += section("outcomes", "Where messages go",
                        "Every message ends in one bucket: delivered, summarized, lost (by the reason of its first loss) or still pending.",
                        ReportCharts.outcomes(result: result).svg() + outcomesTable(result: result))
        html += section("funnel", "The funnel",
                        "How many messages reached each stage of the delivery chain, as a share of all messages.",
                        ReportCharts.funnel(result: result).svg() + funnelTable(result: result))
        let latency = ReportCharts.latencyPanels(result: result)
        html += section("latency", "Latency",
                        "Distribution of the time from a mail's arrival to its own notification being shown, over delivered "
                        + "messages (histogram buckets ≤ 3% wide; log time axis), one chart a strategy over the whole range. "
                        + "Where messages were recovered (first shown from a copy the provider re-sent), the dashed line is the "
                        + "first copies alone and the shaded gap above it the recovered ones."
                        + (result.strategies.count > 1 ? " Grey: \(result.strategies[0].label), to compare." : ""),
                        latency.isEmpty ? "<p class=\"empty\">No message was delivered.</p>\n" : latency.map { $0.svg() }.joined(),
                        notes: ReportCharts.latencyNote(result: result).map { [$0] } ?? [],
                        figureClass: latency.count > 1 ? "multiples" : nil)
        html += section("cost", "Cost",
                        "Requests sent to APNs (originals and re-sends) and re-requests made by the extensions, per message.",
                        ReportCharts.cost(result: result).svg() + costTable(result: result))
        if let traceDay {
            html += section("trace", "A traced device's day",
                            "What happened to one device traced with --trace, over one day, under each strategy: when it was "
                            + "online (offline shaded), when mail arrived, what APNs held for it (bars) and dropped (crosses), "
                            + "what reached the device, and what Notification Center showed. Hover a mark for the message. "
                            + "trace.jsonl and trace.json (Perfetto, chrome://tracing) tell every event of every traced device.",
                            traceDay.chart.svg(), notes: [traceDay.note])
        }
        html += "<footer>Written by pushsim; the same figures are in summary.csv, daily.csv, funnel.csv and apns.csv, "
            + "and result.json holds what <code>pushsim report</code> draws this page from.</footer>\n</body>\n</html>\n"
        return html
    }

    /// A titled section with its explanation and content, and notes under it.
    /// `figureClass`: the figure's class (`multiples`: small charts two abreast).
    private static func section(_ id: String, _ title: String, _ explanation: String, _ content: String,
                                notes: [String] = [], figureClass: String? = nil) -> String {
        "<section id=\"\(id)\">\n<h2>\(SVG.escape(title))</h2>\n<p>\(SVG.escape(explanation))</p>\n"
            + (figureClass.map { "<figure class=\"\($0)\">\n" } ?? "<figure>\n")
            + content + "</figure>\n" + notes.map { "<p class=\"note\">\(SVG.escape($0))</p>\n" }.joined() + "</section>\n"
    }

    /// Descriptions longer than this many characters are folded.
    package static let foldedDescription = 240

    /// The scenario's description for a page's header: as a paragraph when short, else
    /// folded (`<details>`) under a one-line summary, its first words, so a long text of
    /// assumptions and sources does not push the run's facts and charts off the screen.
    /// Empty for an empty description. Shared with `sweep.html`.
    /// - Complexity: O(n) in the description's length.
    package static func description(_ text: String) -> String {
        let e = SVG.escape
        guard !text.isEmpty else { return "" }
        guard text.count > foldedDescription else { return "<p class=\"description\">\(e(text))</p>\n" }
        // The first sentence when it is short, else the words that fit, then an ellipsis.
        let limit = 120
        var summary = String(text.prefix(limit))
        if let stop = summary.firstRange(of: ". ") {
            summary = String(summary[..<stop.lowerBound]) + "."
        } else {
            if let space = summary.lastIndex(of: " ") { summary = String(summary[..<space]) }
            summary += " …"
        }
        return "<details class=\"description\">\n<summary><span class=\"label\">Description</span> \(e(summary))</summary>\n"
            + "<p>\(e(text))</p>\n</details>\n"
    }

    /// An HTML table: a header row, then rows whose first cell is a row header.
    package static func table(_ header: [String], _ rows: [[String]], caption: String? = nil) -> String {
        var text = "<table>\n"
        if let caption { text += "<caption>\(SVG.escape(caption))</caption>\n" }
        text += "<thead><tr>" + header.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows {
            text += "<tr>" + row.enumerated().map { $0.offset == 0 ? "<th>\(SVG.escape($0.element))</th>" : "<td>\(SVG.escape($0.element))</td>" }.joined()
                + "</tr>\n"
        }
        return text + "</tbody>\n</table>\n"
    }

    /// A share in percent, 2 decimals; "–" without a denominator. By integer arithmetic
    /// that cannot overflow: a count read back from a file may be near 2^63 − 1.
    private static func percent(_ numerator: Int64, _ denominator: Int64) -> String {
        let text = FixedPoint.percent(numerator, denominator, places: 2)
        return text.isEmpty ? "–" : text + "%"
    }

    /// The summary table; where some strategy recovered messages, its first copies' p95
    /// beside the p95, so a long tail is not read as a slower delivery.
    private static func summaryTable(result: SimulationResult) -> String {
        let recovering = result.aggregates.contains { $0.recoveredLatency.total > 0 }
        func seconds(_ histogram: LatencyHistogram, _ quantile: Double) -> String {
            histogram.quantile(quantile).map { FixedPoint.seconds(microseconds: $0) + " s" } ?? "–"
        }
        let rows = result.strategies.indices.map { index in
            let aggregate = result.aggregates[index]
            func rate(_ metric: Metric) -> String {
                let text = percent(metric.numerator(of: aggregate), metric.denominator(of: aggregate))
                return text == "–" ? text : text + Reports.halfWidth(result.estimate(metric, strategy: index), percent: true)
            }
            return [result.strategies[index].label, String(aggregate[.messages]), rate(.deliverability),
                    rate(.measuredDeliverability), rate(.informedRate)]
                + [seconds(aggregate.latency, 0.5), seconds(aggregate.latency, 0.95)]
                + (recovering ? [seconds(aggregate.firstCopyLatency, 0.95)] : [])
        }
        return "<section id=\"summary\">\n<h2>Summary</h2>\n"
            + table(["strategy", "messages", "deliverability", "measured deliverability", "informed rate", "latency p50", "latency p95"]
                    + (recovering ? ["p95, first copies"] : []), rows,
                    caption: "Rates ± the half-width of their 95% interval, in percentage points")
            + "</section>\n"
    }

    private static func outcomesTable(result: SimulationResult) -> String {
        let chart = ReportCharts.outcomes(result: result)
        let rows = chart.categories.enumerated().map { index, category in
            [category.label] + chart.bars.map { bar in
                "\(bar.values[index]) (\(StackedBarChart.share(bar.values[index], of: bar.values.reduce(0, +))))"
            }
        }
        return table(["outcome"] + chart.bars.map(\.label), rows, caption: "Messages by outcome (share of the strategy's messages)")
    }

    private static func funnelTable(result: SimulationResult) -> String {
        let rows = Reports.funnelStages.map { stage, count in
            [stage.replacing(every: "_", with: " ")]
                + result.aggregates.map { "\(count.total(in: $0)) (\(percent(count.total(in: $0), $0[.messages])))" }
        }
        return table(["stage"] + result.strategies.map(\.label), rows, caption: "Messages reaching each stage (share of messages)")
    }

    private static func costTable(result: SimulationResult) -> String {
        let rows = zip(result.strategies, result.aggregates).map { strategy, aggregate in
            [strategy.label, String(aggregate[.pushesSent]), FixedPoint.ratio(aggregate[.pushesSent], aggregate[.messages], places: 3),
             String(aggregate.rerequests), FixedPoint.ratio(aggregate.rerequests, aggregate[.messages], places: 3)]
        }
        return table(["strategy", "pushes sent", "per message", "re-requests", "per message"], rows)
    }

    /// The page's style sheet: screen and print.
    package static let style = """

    :root { color-scheme: light; }
    body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
           color: #1a1a1a; background: #fff; max-width: 920px; margin: 0 auto; padding: 24px; }
    h1 { font-size: 24px; margin: 0 0 8px; }
    h2 { font-size: 18px; margin: 36px 0 6px; padding-bottom: 4px; border-bottom: 1px solid #ccc; }
    p { margin: 4px 0 12px; }
    .description { color: #444; font-size: 13px; max-width: 75ch; }
    details.description { margin: 4px 0 12px; max-width: none; }
    details.description summary { cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    details.description summary .label { color: #1a1a1a; font-weight: 600; }
    details.description p { margin: 6px 0 0; max-width: 75ch; }
    p.note { color: #444; font-size: 13px; max-width: 80ch; }
    p.empty { color: #444; font-style: italic; }
    .help { color: #555; font-size: 13px; }
    figcaption { font-weight: 600; margin-top: 12px; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
    dl.facts dt { color: #555; }
    dl.facts dd { margin: 0; }
    code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-all; }
    figure { margin: 0; }
    svg.chart { display: block; width: 100%; height: auto; margin: 8px 0; }
    figure.multiples { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 16px; }
    table { border-collapse: collapse; margin: 12px 0; font-size: 13px; font-variant-numeric: tabular-nums; }
    caption { text-align: left; color: #555; padding-bottom: 4px; }
    th, td { padding: 3px 10px; border-bottom: 1px solid #e2e2e2; text-align: right; }
    thead th { border-bottom: 1px solid #999; }
    #summary td, #summary tbody th { white-space: nowrap; }
    th:first-child { text-align: left; font-weight: normal; }
    thead th:first-child { font-weight: bold; }
    footer { margin-top: 36px; color: #555; font-size: 13px; }
    @media print {
      @page { margin: 14mm; }
      body { max-width: none; padding: 0; font-size: 10.5pt; }
      section { break-inside: avoid; page-break-inside: avoid; }
      h2 { break-after: avoid; margin-top: 18px; }
      * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    }

    """
}
