import Base

/// The random streams one device app's routing draws from, derived from (seed, user, app)
/// alike wherever the app is played: in a simulated world, in serve's population and in
/// `pushsim provider`. One stream per purpose, so turning one effect on leaves the others'
/// draws alone.
package struct LaneStreams {
    /// Provider → APNs latencies.
    package var providerLatency: SplitMix64
    /// APNs → device latencies.
    package var apnsLatency: SplitMix64
    /// Re-request round trips.
    package var rerequest: SplitMix64
    /// Whether a provider → APNs request is lost on the network.
    package var network: SplitMix64
    /// How long APNs defers a low-priority push for the device's power.
    package var power: SplitMix64
    /// The extension's memory footprint, per invocation.
    package var memory: SplitMix64
    /// Whether, and when, the user taps what was shown.
    package var tap: SplitMix64
    /// The base of the draws of which background pushes find the app force-quit
    /// (`BackgroundBudget.isForceQuit`: a draw per push, from this and its serial).
    package let backgroundForceQuit: UInt64

    /// The streams of app `app` on user `user`'s device under `seed`.
    /// - Complexity: O(1).
    @inlinable
    package init(seed: UInt64, user: Int, app: Int) {
        let user = UInt64(user)
        func stream(_ purpose: RandomStream) -> SplitMix64 { purpose.generator(seed: seed, user: user, lane: app) }
        providerLatency = stream(.providerLatency)
        apnsLatency = stream(.apnsLatency)
        rerequest = stream(.rerequestLatency)
        network = stream(.providerNetwork)
        power = stream(.powerDeferral)
        memory = stream(.extensionMemory)
        tap = stream(.taps)
        var forceQuit = stream(.backgroundForceQuit)
        backgroundForceQuit = forceQuit.next()
    }
}
