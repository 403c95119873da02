import Base
import Reports

extension FitReport {
    /// `fit --format json`: the table's answer as one JSON object, keys in a fixed order
    /// (docs/fit.md, "JSON output"). Durations in seconds; a value not computed is `null`.
    /// - Complexity: O(entries + strategies).
    package func json() -> String {
        let series = study.series
        let measured = JSONText.object([
            ("file", JSONText.string(series.file)),
            ("days", String(series.days.count)),
            ("first", JSONText.string(series.days[0].date.description)),
            ("last", JSONText.string(series.days[series.days.count - 1].date.description)),
            ("timeZone", JSONText.string(series.timeZone)),
            ("statistics", JSONText.array(fittedStatistics.map { JSONText.string($0.name) })),
        ])
        return JSONText.object([
            ("scenario", JSONText.string(scenario.name)),
            ("scenarioFile", JSONText.string(study.file)),
            ("measured", measured),
            ("measuredStrategy", JSONText.string(labels[design.measured])),
            ("fields", JSONText.array(study.ranges.indices.map(fieldJSON))),
            ("goodness", goodnessJSON()),
            ("dayErrors", dayErrorsJSON()),
            ("strategies", JSONText.array(labels.indices.map(strategyJSON))),
            ("guesses", JSONText.array(guesses.map(guessJSON))),
        ]) + "\n"
    }

    private func fieldJSON(_ axis: Int) -> String {
        let range = study.ranges[axis], marginal = posterior.marginals[axis]
        return JSONText.object([
            ("path", JSONText.string(range.path)),
            ("unit", JSONText.string(range.isDuration ? "s" : "")),
            ("rangeLow", JSONText.number(range.low)), ("rangeHigh", JSONText.number(range.high)),
            ("estimate", JSONText.number(range.value(at: marginal.median))),
            ("low", JSONText.number(range.value(at: marginal.low))), ("high", JSONText.number(range.value(at: marginal.high))),
            ("best", JSONText.number(range.value(at: marginal.mode))),
        ])
    }

    private func goodnessJSON() -> String {
        let g = goodness
        let patterns = g.patterns.map { pattern in
            JSONText.object([
                ("statistic", JSONText.string(pattern.statistic.name)), ("f", JSONText.number(pattern.f)),
                ("d1", String(pattern.d1)), ("d2", String(pattern.d2)), ("pValue", JSONText.number(pattern.pValue)),
            ])
        }
        return JSONText.object([
            ("good", g.isGood ? "true" : "false"),
            ("reasons", JSONText.array(g.reasons.map(JSONText.string))),
            ("chiSquare", JSONText.number(g.chiSquare)), ("degreesOfFreedom", String(g.degreesOfFreedom)),
            ("pValue", JSONText.number(g.pValue)),
            ("weekendShift", JSONText.number(g.weekendShift)), ("weekendZ", JSONText.number(g.weekendZ)),
            ("weekdayPatterns", JSONText.array(patterns)), ("weekdayPatternP", JSONText.number(g.patternP)),
            ("levels", JSONText.array(posterior.levels.map { level in
                JSONText.object([("statistic", JSONText.string(level.statistic.name)), ("shift", JSONText.number(level.shift)),
                                 ("allowed", JSONText.number(level.allowed)), ("z", JSONText.number(level.z))])
            })),
            ("sentence", JSONText.string(goodnessLine)),
        ])
    }

    private func dayErrorsJSON() -> String {
        let robustness = posterior.robustness
        let outliers = robustness.outliers.map { outlier in
            let first = design.entries[outlier.entries[0]]
            return JSONText.object([
                ("date", JSONText.string(study.series.days[first.row].date.description)),
                ("weekday", JSONText.string(Self.weekdays[first.weekday])),
                ("weight", JSONText.number(outlier.weight)), ("distance", JSONText.number(outlier.distance)),
                ("tail", JSONText.number(outlier.tail)),
                ("residuals", JSONText.object(outlier.entries.map { (design.entries[$0].statistic.name, JSONText.number(posterior.residuals[$0].z)) })),
            ])
        }
        return JSONText.object([
            ("degreesOfFreedom", robustness.degreesOfFreedom.isFinite ? JSONText.number(robustness.degreesOfFreedom) : "null"),
            ("outliers", JSONText.array(outliers)),
        ])
    }

    private func strategyJSON(_ index: Int) -> String {
        func prediction(_ p: FitPosterior.Prediction, bounds: ClosedRange<Double>) -> String {
            let interval = p.interval(within: bounds)
            return JSONText.object([
                ("value", JSONText.number(p.value)), ("se", JSONText.number(p.standardError)),
                ("low", JSONText.number(interval.lowerBound)), ("high", JSONText.number(interval.upperBound)),
                ("parameterSE", JSONText.number(p.parameterError)), ("simulationSE", JSONText.number(p.simulationError)),
                ("guessSE", JSONText.number(p.guessError)),
            ])
        }
        let own = index == design.measured
        return JSONText.object([
            ("label", JSONText.string(labels[index])),
            ("measured", own ? "true" : "false"),
            ("deliverability", prediction(posterior.deliverability[index], bounds: 0...1)),
            ("gain", own ? "null" : prediction(posterior.gain[index], bounds: -1...1)),
        ])
    }

    private func guessJSON(_ guess: FitGuess) -> String {
        let strategies = labels.indices.map { index in
            JSONText.object([
                ("label", JSONText.string(labels[index])),
                ("deliverabilityAtLow", JSONText.number(guess.deliverabilityAtLow[index])),
                ("deliverabilityAtHigh", JSONText.number(guess.deliverabilityAtHigh[index])),
                ("deliverabilityEffect", JSONText.number(guess.deliverabilityEffect[index])),
                ("gainEffect", index == design.measured ? "null" : JSONText.number(guess.gainEffect[index])),
            ])
        }
        return JSONText.object([
            ("path", JSONText.string(guess.range.path)),
            ("unit", JSONText.string(guess.range.isDuration ? "s" : "")),
            ("rangeLow", JSONText.number(guess.range.low)), ("rangeHigh", JSONText.number(guess.range.high)),
            ("effect", JSONText.number(guess.effect)),
            ("strategies", JSONText.array(strategies)),
        ])
    }
}
