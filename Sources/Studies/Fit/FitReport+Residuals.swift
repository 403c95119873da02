import Base
import Reports

extension FitReport {
    /// Every fitted figure's residual day by day, (measured − fitted) / √(both variances), against
    /// the band where 95% of a Gaussian day's residuals fall (±1.96); weekends shaded, outlier
    /// days named in the caption. nil when no figure was fitted.
    /// - Complexity: O(entries).
    func residualChart() -> LineChart? {
        let days = study.series.span + 1
        let statistics = fittedStatistics
        guard !statistics.isEmpty else { return nil }
        let markers: [Marker] = [.circle, .square, .triangle, .diamond]
        var series: [LineChart.Series] = []
        var ys: [Double] = [-2.5, 2.5]
        for (index, statistic) in statistics.enumerated() {
            var points: [(x: Double, y: Double?)] = []
            for (entry, residual) in zip(design.entries, posterior.residuals) where entry.statistic == statistic && residual.z.isFinite {
                points.append((Double(entry.day), residual.z))
                ys.append(residual.z)
            }
            series.append(LineChart.Series(label: statistic.name.replacingOccurrences(of: "_", with: " "), colour: Palette.series(index + 1),
                                           points: points, markers: true, marker: markers[index % markers.count]))
        }
        let band = LineChart.Series(label: "95% of a day's residuals (±1.96)", colour: Palette.series(0),
                                    points: [(0, 0), (Double(days - 1), 0)], dashed: true,
                                    band: [(0, -1.959964, 1.959964), (Double(days - 1), -1.959964, 1.959964)])
        var yAxis = Axis.linear("residual (SD)", covering: (ys.min() ?? -3)...(ys.max() ?? 3))
        yAxis.ticks.removeAll { !yAxis.domain.contains($0.value) }
        var axis = ReportCharts.dayAxis(start: study.series.days[0].date, days: days)
        axis.label = "day (" + study.series.timeZone + "; weekends shaded)"
        return LineChart(id: "fit-residuals", title: "each day's residual against its 95% band", xAxis: axis, yAxis: yAxis,
                         series: [band] + series, shaded: weekendRanges(days: days), shadedLabel: "weekend", height: 340)
    }

    /// The measured period's weekends as x-ranges (day ± ½), for shading.
    func weekendRanges(days: Int) -> [ClosedRange<Double>] {
        var weekends: [ClosedRange<Double>] = []
        let first = study.series.days[0].date
        for day in 0..<days where first.adding(days: day).weekday >= 5 {
            if let last = weekends.last, last.upperBound == Double(day) - 0.5 {
                weekends[weekends.count - 1] = last.lowerBound...Double(day) + 0.5
            } else {
                weekends.append(Double(day) - 0.5...Double(day) + 0.5)
            }
        }
        return weekends
    }

    /// The residual chart's figure, with what it shows.
    func residualFigure() -> String {
        guard let chart = residualChart() else { return "" }
        let outliers = outlierLines.isEmpty ? "" : " Outlier days, discounted in the fit: " + outlierLines.joined(separator: "; ") + "."
        return "<figure>\n<figcaption>Residuals, day by day</figcaption>\n" + chart.svg()
            + "<p class=\"note\">" + SVG.escape("A day's residual is how far its measured figure sits from the fit, in standard "
            + "deviations of both the simulation and the measurement. Under a right scenario about 95% of the points fall in "
            + "the band, and no figure's days differ by weekday more than their scatter (the weekday check)." + outliers) + "</p>\n</figure>\n"
    }
}
