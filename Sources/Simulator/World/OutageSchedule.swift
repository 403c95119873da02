import Base

/// Provider outages of one run: the scheduled windows plus random ones, drawn once
/// from the seed before any user is simulated. Every user, thread and shard sees
/// the same schedule, so users stay independent and shards merge exactly.
package enum OutageSchedule {
    /// The windows inside `0..<horizon`, sorted, overlapping ones merged.
    /// - Complexity: O(w log w) in the number of windows.
    package static func draw(_ model: OutageModel?, seed: UInt64, horizon: SimDuration) -> [OutageWindow] {
        guard let model else { return [] }
        var windows = model.scheduled
        if let between = model.between.map(Sampler.init), let duration = model.duration.map(Sampler.init) {
            var rng = RandomStream.outages.generator(seed: seed, user: .max)
            var time = between.sample(&rng)
            while time < horizon {
                let length = max(1, duration.sample(&rng))
                windows.append(OutageWindow(start: time, duration: length))
                time += length + max(1, between.sample(&rng))
            }
        }
        windows.sort { $0.start < $1.start }
        var merged: [OutageWindow] = []
        for window in windows where window.start < horizon && window.duration > 0 {
            let end = min(horizon, window.start + window.duration)
            if let last = merged.last, window.start <= last.start + last.duration {
                merged[merged.count - 1].duration = max(last.duration, end - last.start)
            } else {
                merged.append(OutageWindow(start: window.start, duration: end - window.start))
            }
        }
        return merged
    }
}
