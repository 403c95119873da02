import FakeAPNs

/// The independent random streams of one user's world. Each purpose has its own
/// stream so that strategies see the same mail and the same connectivity
/// (common random numbers) even though they draw different numbers of latencies.
public enum RandomStream: UInt64, Sendable {
    case mail = 1, connectivity, providerLatency, apnsLatency, rerequestLatency, deviceTraits

    /// The generator for this stream of user `user` under `seed`.
    /// - Complexity: O(1).
    @inlinable
    public func generator(seed: UInt64, user: UInt64) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.mix(SplitMix64.mix(seed ^ 0x5053_494d) &+ user) ^ (rawValue &* 0x9e37_79b9_7f4a_7c15))
    }
}
