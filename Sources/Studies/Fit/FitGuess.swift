import Base
import ScenarioFormat
import Simulator

/// A scenario field the team is unsure of but does not fit (`fit --guess PATH=LOW..HIGH`,
/// docs/fit.md "Guessed fields"): the prediction run at the fitted estimate with the field at
/// LOW and at HIGH (the same seed: common random numbers), and what that moves.
package struct FitGuess: Sendable, Equatable {
    package var range: FitRange
    /// Per strategy, true deliverability with the field at LOW and at HIGH.
    package var deliverabilityAtLow: [Double]
    package var deliverabilityAtHigh: [Double]
    /// Per strategy, the gain over the measured strategy at LOW and at HIGH.
    package var gainAtLow: [Double]
    package var gainAtHigh: [Double]
    /// The measured strategy's index.
    package var measured: Int

    /// Per strategy, the ± effect on deliverability: half the spread from LOW to HIGH.
    package var deliverabilityEffect: [Double] { zip(deliverabilityAtLow, deliverabilityAtHigh).map { abs($1 - $0) / 2 } }
    /// Per strategy, the ± effect on the gain (0 on the measured strategy).
    package var gainEffect: [Double] { zip(gainAtLow, gainAtHigh).map { abs($1 - $0) / 2 } }
    /// The largest ± effect on any strategy's deliverability or gain: the ranking key.
    package var effect: Double { (deliverabilityEffect + gainEffect).max() ?? 0 }

    /// The variance a guess adds: its range read as a ~95% range (±2 SD), so the effect's SD is
    /// the ± effect / 2 = |value at HIGH − value at LOW| / 4, its variance that squared.
    /// - Complexity: O(1).
    package static func variance(effect: Double) -> Double { (effect / 2) * (effect / 2) }

    /// The guesses' two scenarios each (LOW, then HIGH; guess by guess): the fit's period,
    /// the `--set` overrides, the varied fields at `estimates` and the guessed field at an end.
    /// - Complexity: O(guesses × scenario size).
    package static func scenarios(_ study: FitStudy, period: [ScenarioOverride], estimates: [ScenarioOverride])
        throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for guess in study.guesses {
            for end in [guess.low, guess.high] {
                let text = guess.text(end)
                let value = try ScenarioOverride(path: guess.path, value: text, argument: guess.path + "=" + text)
                var scenario: Scenario
                do {
                    scenario = try ScenarioDecoder.decode(study.scenarioBytes, file: study.file, overrides: period + study.sets + estimates + [value])
                } catch {
                    var error = error
                    error.file = "--guess " + guess.argument
                    error.location = nil
                    throw error
                }
                if let seed = study.seed { scenario.seed = seed }
                scenarios.append(scenario)
            }
        }
        return scenarios
    }

    /// The guesses from the results of `scenarios(…)`'s runs, the largest effect first.
    /// - Complexity: O(guesses × strategies × blocks).
    package static func effects(_ ranges: [FitRange], results: [SimulationResult], measured: Int) -> [FitGuess] {
        func read(_ result: SimulationResult) -> (deliverability: [Double], gain: [Double]) {
            let indices = result.strategies.indices
            return (indices.map { result.estimate(.deliverability, strategy: $0).value },
                    indices.map { $0 == measured ? 0 : result.difference(.deliverability, strategy: $0, minus: measured).value })
        }
        let guesses = ranges.enumerated().map { index, range in
            let low = read(results[2 * index]), high = read(results[2 * index + 1])
            return FitGuess(range: range, deliverabilityAtLow: low.deliverability, deliverabilityAtHigh: high.deliverability,
                            gainAtLow: low.gain, gainAtHigh: high.gain, measured: measured)
        }
        // Stable: equal effects keep the command line's order.
        return guesses.enumerated().sorted { ($0.element.effect, -$0.offset) > ($1.element.effect, -$1.offset) }.map(\.element)
    }
}

extension FitPosterior {
    /// Adds each guess's effect variance to every prediction's: SE² = parameter SE² +
    /// simulation SE² + Σ guesses (|at HIGH − at LOW| / 4)² (docs/fit.md "Guessed fields").
    /// - Complexity: O(guesses × strategies).
    package mutating func widen(by guesses: [FitGuess]) {
        func widened(_ prediction: Prediction, _ variance: Double) -> Prediction {
            // No effect leaves the interval as it was, to the bit.
            guard variance > 0 else { return prediction }
            var wider = prediction
            wider.guessError = variance.squareRoot()
            wider.standardError = (prediction.standardError * prediction.standardError + variance).squareRoot()
            return wider
        }
        for index in deliverability.indices {
            let d = guesses.reduce(0) { $0 + FitGuess.variance(effect: $1.deliverabilityEffect[index]) }
            let g = guesses.reduce(0) { $0 + FitGuess.variance(effect: $1.gainEffect[index]) }
            deliverability[index] = widened(deliverability[index], d)
            gain[index] = widened(gain[index], g)
        }
    }
}

extension FitStudy {
    /// Refuses a guess named twice, also varied, or also `--set` (exit 65 naming both).
    /// - Complexity: O(guesses × (guesses + ranges + sets)).
    func checkGuesses() throws(ScenarioError) {
        for (index, guess) in guesses.enumerated() {
            func refuse(_ message: String) -> ScenarioError {
                ScenarioError(.invalidValue(message), file: "--guess " + guess.argument, path: "", location: nil)
            }
            if guesses[..<index].contains(where: { $0.path == guess.path }) { throw refuse("\(guess.path) is guessed twice") }
            if ranges.contains(where: { $0.path == guess.path }) {
                throw refuse("\(guess.path) is both varied and guessed: drop one (a varied field's doubt is already in the intervals)")
            }
            if let set = sets.first(where: { $0.path == guess.path }) {
                throw refuse("\(guess.path) is guessed and also set (--set \(set.path)=\(set.valueText)): drop one")
            }
        }
    }
}
