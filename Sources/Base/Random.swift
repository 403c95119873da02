/// The independent random streams of one user's world. Each purpose has its own
/// stream so that strategies see the same mail and the same connectivity
/// (common random numbers) even though they draw different numbers of latencies.
public enum RandomStream: UInt64, Sendable {
    case mail = 1, connectivity, providerLatency, apnsLatency, rerequestLatency, deviceTraits
    /// The delivery chain's families: one stream per purpose, so turning one effect on leaves the others' draws alone.
    case laneTraits, providerNetwork, powerDeferral, extensionMemory, tokenRotation, deviceIDChange,
         subscriptionChanges, launches, taps, apnsChoice
    /// Provider outages: drawn per block of users (the block in place of the user), from the seed alone.
    case outages
    /// When a device app installs a rollout's update (new purposes go last: the others keep their streams).
    case appUpdate
    /// A live population's device tokens and the apns-ids it makes for requests without one.
    case deviceToken, apnsID
    /// APNs's random faults (per block of users and kind, as outages), and the latencies its
    /// slow answers and reconnections add (per user and app).
    case apnsFaults, apnsFaultLatency
    /// The backend's background pushes (`background`), and whether each finds the app force-quit.
    case backgroundPushes, backgroundForceQuit
    /// How long each mail burst goes on and its mails' gaps (`mailBursts`; the bursts' starts are the mail stream's).
    case mailBursts

    /// The generator for this stream of user `user` under `seed`.
    /// - Complexity: O(1).
    @inlinable
    public func generator(seed: UInt64, user: UInt64) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.mix(SplitMix64.mix(seed ^ 0x5053_494d) &+ user) ^ (rawValue &* 0x9e37_79b9_7f4a_7c15))
    }

    /// The generator for this stream of app `lane` on user `user`'s device. Lane 0
    /// (the first app) is the user's own stream, so a one-app scenario draws as before.
    /// - Complexity: O(1).
    @inlinable
    public func generator(seed: UInt64, user: UInt64, lane: Int) -> SplitMix64 {
        var base = generator(seed: seed, user: user)
        guard lane > 0 else { return base }
        return SplitMix64(seed: SplitMix64.mix(base.next() ^ (UInt64(lane) &* 0xd6e8_feb8_6659_fd93)))
    }
}
