import Base
import Reports

extension FitReport {
    /// Every fitted figure's residual day by day with its level taken out, (measured − fitted −
    /// level) / √(both variances) (`FitPosterior.Level`: the level is the figure's error every day
    /// shares, said in the caption), against the band where 95% of a Gaussian day's residuals
    /// fall (±1.96); weekends shaded, outlier days named in the caption. nil when no figure was fitted.
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
            for (entry, residual) in zip(design.entries, posterior.residuals) where entry.statistic == statistic && residual.withinLevel.isFinite {
                points.append((Double(entry.day), residual.withinLevel))
                ys.append(residual.withinLevel)
            }
            series.append(LineChart.Series(label: statistic.name.replacing(every: "_", with: " "), colour: Palette.series(index + 1),
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
            + "deviations of both the simulation and the measurement, once the figure's level is taken out. "
            + "Under a right scenario about 95% of the points fall in "
            + "the band, and no figure's days differ by weekday more than their scatter (the weekday check)." + outliers) + "</p>\n"
            + "<p class=\"note\" id=\"levels\">" + SVG.escape(levelSentence) + "</p>\n</figure>\n"
    }

    /// Under a figure's measured-against-fitted chart: how far its days sit from the line on
    /// every day alike (its level), so an offset the fit allows is not read as a misfit.
    func levelNote(_ statistic: FitStatistic) -> String {
        guard let level = posterior.levels.first(where: { $0.statistic == statistic }), level.z.isFinite else { return "" }
        let shift = statistic.isShare ? FixedPoint.decimal(abs(level.shift) * 100, places: 2) + " points"
            : FixedPoint.decimal(abs(level.shift), places: 4)
        return " The measured days sit \(shift) \(level.shift < 0 ? "below" : "above") the line on average: the figure's level, "
            + "\(FixedPoint.decimal(abs(level.z), places: 1)) of its standard deviations (the residuals above leave it out)."
    }

    /// What each figure's level is, against what the fit allows for it: the one offset all its
    /// days share, which the residuals above leave out and the measured-against-fitted charts show.
    var levelSentence: String {
        let parts = posterior.levels.map { level -> String in
            let points = level.statistic.isShare
            let shift = points ? FixedPoint.decimal(level.shift * 100, places: 2) + " points" : FixedPoint.decimal(level.shift, places: 4)
            let allowed = points ? FixedPoint.decimal(level.allowed * 100, places: 2) : FixedPoint.decimal(level.allowed, places: 4)
            let z = level.z.isFinite ? FixedPoint.decimal(level.z, places: 1) : "–"
            return "\(level.statistic.name) \(level.shift >= 0 ? "+" : "")\(shift) (its level's standard deviation \(allowed), z \(z))"
        }
        return "Levels (the days' mean of measured − fitted, which the residuals above leave out; a figure's days share an "
            + "error of their level, from the same users in the simulation and in the team, which the fit integrates out): "
            + parts.joined(separator: "; ")
            + ". A level within about 2 of its standard deviations is what the simulation's and the team's sizes allow."
    }
}
