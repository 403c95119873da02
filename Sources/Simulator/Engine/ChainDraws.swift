import Base

/// What the router draws from, built once from a scenario: its latencies, APNs's power
/// deferral, the extension's memory footprint and the user's taps, as tabulated samplers.
/// Shared by every place that routes effects, so a delay is drawn one way everywhere.
package struct ChainDraws {
    /// Provider → APNs.
    package let providerToAPNs: Sampler
    /// APNs → device.
    package let apnsToDevice: Sampler
    /// The extension's re-request and its answer, there and back.
    package let rerequestRoundTrip: Sampler
    /// APNs's wait for the device's power window (nil: it hands out low priority at once).
    package let powerDeferral: Sampler?
    /// The extension's memory footprint in KB (nil: the scenario models no memory).
    package let footprint: Sampler?
    /// The share of shown notifications the user taps (nil: no taps).
    package let tapProbability: Double?
    /// How soon after it is shown a notification is tapped.
    package let tapDelay: Sampler?
    /// The provider's network: the share of requests lost and the timeout that notices (nil: none lost).
    package let network: ProviderNetworkModel?

    /// - Complexity: O(the samplers' tables).
    package init(_ scenario: Scenario) {
        providerToAPNs = Sampler(scenario.latency.providerToAPNs)
        apnsToDevice = Sampler(scenario.latency.apnsToDevice)
        rerequestRoundTrip = Sampler(scenario.latency.rerequestRoundTrip)
        powerDeferral = scenario.chain.apns.lowPriorityDeferral.map(Sampler.init)
        footprint = scenario.chain.device.memory.map { Sampler($0.footprintKB) }
        tapProbability = scenario.chain.device.taps?.probability
        tapDelay = scenario.chain.device.taps.map { Sampler($0.delay) }
        network = scenario.chain.provider.network
    }

    /// How long APNs waits for the power window, from the device app's `random`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func powerDelay(_ random: inout SplitMix64) -> SimDuration { powerDeferral?.sample(&random) ?? 0 }

    /// The extension's footprint for one invocation, from the device app's `random` (0: not modelled).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func footprintKB(_ random: inout SplitMix64) -> Int64 { footprint?.sample(&random) ?? 0 }

    /// Whether the user taps a notification just shown and how long after (nil: no tap).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func tap(_ random: inout SplitMix64) -> SimDuration? {
        guard let probability = tapProbability, random.nextUnitInterval() <= probability else { return nil }
        return tapDelay?.sample(&random) ?? 0
    }
}
