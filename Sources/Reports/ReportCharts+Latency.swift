import Base
import Simulator

/// Latency, one small chart a strategy: strategies with the same distribution would
/// hide each other on one chart. Each panel draws its strategy's delivered messages
/// over the whole range of every strategy's latencies (from 0 to 100%, none starting
/// or stopping mid-air), its first copies apart from its recovered messages (shown from
/// a copy the provider re-sent), and the first strategy's curve in grey to compare.
extension ReportCharts {
    /// Pixel height of one latency panel.
    package static let latencyPanelHeight = 260.0

    /// The shortest latency the panels' axis shows apart, in seconds: anything shorter is
    /// at its left edge (a scenario without latency shows most messages at 0 µs, which a
    /// log axis would stretch over decades of nothing).
    package static let latencyFloor = 0.001

    /// The x values every latency curve is drawn at: the upper end of each bucket any
    /// strategy's latency fell in, after the lower end of the lowest (where every curve is
    /// at 0), in seconds, ascending; those under `latencyFloor` as one value there. Empty
    /// when nothing was delivered.
    /// - Complexity: O(strategies × buckets).
    package static func latencyGrid(result: SimulationResult) -> [Double] {
        var buckets = Set<Int>()
        for aggregate in result.aggregates { buckets.formUnion(aggregate.latency.nonEmptyBuckets.map(\.0)) }
        guard let lowest = buckets.min() else { return [] }
        func upper(_ bucket: Int) -> Double {
            Double(bucket + 1 < LatencyHistogram.bucketCount ? LatencyHistogram.lowerBound(of: bucket + 1) : Int64.max) / 1_000_000
        }
        // A latency of 0 µs has no place on a log axis: its bucket's curve starts at its upper end.
        let start = LatencyHistogram.lowerBound(of: lowest) > 0 ? [Double(LatencyHistogram.lowerBound(of: lowest)) / 1_000_000] : []
        let grid = start + buckets.sorted().map(upper)
        guard let first = grid.first, first < latencyFloor else { return grid }
        return [latencyFloor] + grid.filter { $0 > latencyFloor }
    }

    /// The share (0…1) of `of` messages that `histogram` holds at or below each of
    /// `grid`'s values (bucket upper ends, as `latencyGrid` gives them).
    /// - Complexity: O(buckets + grid).
    package static func cumulative(_ histogram: LatencyHistogram, of total: UInt64, at grid: [Double]) -> [Double] {
        guard total > 0 else { return grid.map { _ in 0 } }
        let buckets = histogram.nonEmptyBuckets
        var next = 0, seen: UInt64 = 0
        return grid.map { seconds in
            while next < buckets.count {
                let upper = buckets[next].0 + 1 < LatencyHistogram.bucketCount
                    ? Double(LatencyHistogram.lowerBound(of: buckets[next].0 + 1)) / 1_000_000 : .infinity
                guard upper <= seconds else { break }
                seen += buckets[next].1
                next += 1
            }
            return Double(seen) / Double(total)
        }
    }

    /// One chart per strategy: the share of its delivered messages shown within a time
    /// (solid), of which its first copies (dashed, when some messages were recovered; the
    /// shaded gap between them is the recovered messages), the first strategy's delivered
    /// in grey on the others' panels; a log time axis, the same on every panel.
    /// - Complexity: O(strategies × buckets).
    package static func latencyPanels(result: SimulationResult) -> [LineChart] {
        var grid = latencyGrid(result: result)
        guard let first = grid.first, let last = grid.last else { return [] }
        let floored = first == latencyFloor ? "; under 1 ms: at the left end" : ""
        let xAxis = Axis.logarithmic("time to shown (s, log scale\(floored))", covering: first...max(last, first * 10))
        // Every curve runs on, from its share at the axis's left end, to its right end at its last value.
        if xAxis.domain.lowerBound < first { grid.insert(xAxis.domain.lowerBound, at: 0) }
        if xAxis.domain.upperBound > last { grid.append(xAxis.domain.upperBound) }
        // "1 day" is labelled only where its label fits right of its line, clear of "1 h"'s.
        let day = Tick(value: 86400, label: xAxis.domain.upperBound >= 5 * 86400 ? "1 day" : "")
        let yAxis = Axis.linear("delivered shown (%)", covering: 0...100)
        let baseline = result.aggregates[0]
        let baselineCurve = LineChart.Series(label: result.strategies[0].label, colour: "#9A9A9A",
                                             points: zip(grid, cumulative(baseline.latency, of: baseline.latency.total, at: grid))
                                                 .map { ($0, 100 * $1) })
        return LineChart.levelled(zip(result.strategies, result.aggregates).enumerated().map { index, pair in
            let (strategy, aggregate) = pair
            let colour = Palette.series(index), total = aggregate.latency.total
            let all = cumulative(aggregate.latency, of: total, at: grid)
            var delivered = LineChart.Series(label: strategy.label, colour: colour,
                                             points: zip(grid, all).map { ($0, 100 * $1) })
            var series = index == 0 ? [] : [baselineCurve]
            var legend: [Legend.Entry] = [.init(label: delivered.label, swatch: .line(colour: colour, dashed: false))]
            if aggregate.recoveredLatency.total > 0 {
                let firstCopies = cumulative(aggregate.firstCopyLatency, of: total, at: grid)
                delivered.band = zip(grid, zip(firstCopies, all)).map { ($0, 100 * $1.0, 100 * $1.1) }
                series.append(LineChart.Series(label: "first copies", colour: colour,
                                               points: zip(grid, firstCopies).map { ($0, 100 * $1) }, dashed: true))
                legend += [.init(label: "first copies", swatch: .line(colour: colour, dashed: true)),
                           .init(label: "recovered", swatch: .band(colour: colour))]
            }
            series.append(delivered)
            if index > 0 { legend.append(.init(label: baselineCurve.label, swatch: .line(colour: "#9A9A9A", dashed: false))) }
            var chart = LineChart(id: "latency-\(index + 1)", title: "Latency of \(strategy.label): share of delivered messages shown within a time",
                                  xAxis: xAxis, yAxis: yAxis, series: series,
                                  references: [Tick(value: 60, label: "1 min"), Tick(value: 3600, label: "1 h"), day],
                                  width: panelWidth(count: result.strategies.count), height: latencyPanelHeight)
            chart.drawsOverlaps = false
            chart.legendEntries = legend
            return chart
        })
    }

    /// What the latency panels mean, in words under them: each strategy with recovered
    /// messages, how many and how late, its first copies' 95th percentile against the
    /// first strategy's, and what a long tail is. nil when no message was recovered.
    /// - Complexity: O(strategies × buckets).
    package static func latencyNote(result: SimulationResult) -> String? {
        func seconds(_ histogram: LatencyHistogram, _ quantile: Double) -> String {
            histogram.quantile(quantile).map { readableSeconds(microseconds: $0) + " s" } ?? "–"
        }
        let baseline = result.strategies[0].label, basePercentile = seconds(result.aggregates[0].latency, 0.95)
        var slower: [String] = []
        let parts = zip(result.strategies, result.aggregates).compactMap { strategy, aggregate -> String? in
            let recovered = aggregate.recoveredLatency
            guard recovered.total > 0 else { return nil }
            // First copies more than a tenth slower than the baseline's messages: not the recovered ones alone.
            if let first = aggregate.firstCopyLatency.quantile(0.95), let base = result.aggregates[0].latency.quantile(0.95),
               Double(first) > 1.1 * Double(base) {
                slower.append(strategy.label)
            }
            let share = FixedPoint.percent(Int64(recovered.total), Int64(aggregate.latency.total), places: 1)
            return "\(strategy.label)'s p95 is \(seconds(aggregate.latency, 0.95)), its first copies' \(seconds(aggregate.firstCopyLatency, 0.95)); "
                + "its \(grouped(Int64(recovered.total))) recovered messages (\(share)% of those delivered) were shown after a "
                + "median \(seconds(recovered, 0.5))"
        }
        guard !parts.isEmpty else { return nil }
        let verdict = slower.isEmpty ? "the recovered messages arriving late, not a regression."
            : "the recovered messages arriving late; but " + Coincidence.list(slower) + (slower.count == 1 ? "'s" : "'")
              + " first copies are slower too."
        return "A long tail is late delivery, not slow delivery. A recovered message is one whose original push never showed "
            + "(for instance APNs kept only a newer one while the device was offline): the provider re-sends it when a later "
            + "push reaches the device and the extension asks for the gap, often hours later. Without that re-send it would "
            + "not be late but lost, and out of the latency figures. Here " + parts.joined(separator: ". ") + ". Against "
            + "\(baseline)'s p95 of \(basePercentile), that is " + verdict
    }

    /// A count with thousands separated: 63,580.
    /// - Complexity: O(digits).
    package static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// Seconds for a sentence: whole and grouped from 100 s (3,691), else to the millisecond.
    /// - Complexity: O(digits).
    package static func readableSeconds(microseconds: Int64) -> String {
        microseconds >= 100_000_000 ? grouped((microseconds + 500_000) / 1_000_000) : FixedPoint.seconds(microseconds: microseconds)
    }
}
