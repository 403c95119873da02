import Foundation

/// The closed form of iOS's hourly background budget (`BackgroundBudget`) under Poisson
/// arrivals, per hour in the long run. Arrivals at rate λ an hour; each finds the app
/// force-quit with probability q (discarded, spending nothing), so those that meet the
/// budget are Poisson with μ = λ(1 − q) an hour (thinning). With H ∈ {0, 1} the push held
/// at an hour's start (it takes one of the K slots), the hour's N arrivals deliver
/// min(N, K − H) at once and defer max(0, N − (K − H)), of which all but the newest are
/// throttled, and H' = 1 exactly when N > K − H: a two-state Markov chain with
/// p_h = P(N > K − h) and stationary π₁ = p₀ / (1 − p₁ + p₀). docs/model.md states it.
package struct BackgroundClosedForm {
    /// Expected per hour: handed to the app at once, after a deferral, deferred, throttled, discarded (force-quit).
    package var deliveredToApp = 0.0, deliveredAfterDeferral = 0.0, deferred = 0.0, throttled = 0.0, discardedForceQuit = 0.0

    /// The long-run hourly means for `lambda` arrivals an hour, a budget of `budget`, force-quit share `forceQuit`.
    package init(perHour lambda: Double, budget: Int, forceQuit q: Double) {
        let mu = lambda * (1 - q)
        let top = 200
        var pmf = [Double](repeating: 0, count: top)
        pmf[0] = exp(-mu)
        for n in 1..<top { pmf[n] = pmf[n - 1] * mu / Double(n) }
        func tail(above k: Int) -> Double { pmf.indices.filter { $0 > k }.reduce(0) { $0 + pmf[$1] } }
        let p0 = tail(above: budget), p1 = tail(above: budget - 1)
        let held = p0 / (1 - p1 + p0)
        for (h, weight) in [(0, 1 - held), (1, held)] {
            let room = budget - h
            for n in pmf.indices {
                deliveredToApp += weight * pmf[n] * Double(min(n, room))
                deferred += weight * pmf[n] * Double(max(0, n - room))
                throttled += weight * pmf[n] * Double(max(0, n - room - 1))
            }
        }
        deliveredAfterDeferral = held
        discardedForceQuit = lambda * q
    }
}
