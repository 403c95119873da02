import Base

/// Provider outages: the scheduled windows plus random ones. The random part is a
/// draw every user would share if it were drawn once per run, and then no count of
/// users could show its spread: a run's error bars would cover only the users. So
/// it is drawn once per block of users (`UserBlocks`, 64): each block is an
/// independent replication of the provider's outage history, the blocks' spread
/// carries the outages' variance into every standard error, and the run's rates
/// average 64 histories instead of resting on one. A user's block is fixed by its
/// index, so threads and shards see the same schedule and merge exactly.
package enum OutageSchedule {
    /// The schedules of a run, one per block of users (a single one when nothing
    /// random is drawn: every block then has the same).
    /// - Complexity: O(K × w log w) for K blocks and w windows each.
    package static func draw(_ model: OutageModel?, seed: UInt64, horizon: SimDuration) -> [[OutageWindow]] {
        guard let model else { return [[]] }
        // Samplers tabulate their distribution: built once, not once per block.
        guard let between = model.between.map(Sampler.init), let duration = model.duration.map(Sampler.init) else {
            return [tidy(model.scheduled, horizon: horizon)]
        }
        return (0..<UserBlocks.count).map { block in
            tidy(model.scheduled + random(between: between, duration: duration, seed: seed, horizon: horizon, block: block),
                 horizon: horizon)
        }
    }

    /// The windows inside `0..<horizon` of block `block`'s users, sorted, overlapping
    /// ones merged.
    /// - Complexity: O(w log w) in the number of windows.
    package static func draw(_ model: OutageModel, seed: UInt64, horizon: SimDuration, block: Int) -> [OutageWindow] {
        guard let between = model.between.map(Sampler.init), let duration = model.duration.map(Sampler.init) else {
            return tidy(model.scheduled, horizon: horizon)
        }
        return tidy(model.scheduled + random(between: between, duration: duration, seed: seed, horizon: horizon, block: block),
                    horizon: horizon)
    }

    /// Block `block`'s random windows: alternating up and down times from the outages'
    /// own stream, keyed by the block where other streams take a user.
    /// - Complexity: O(w) in the number of windows.
    private static func random(between: Sampler, duration: Sampler, seed: UInt64, horizon: SimDuration,
                               block: Int) -> [OutageWindow] {
        var rng = RandomStream.outages.generator(seed: seed, user: UInt64(block))
        var windows: [OutageWindow] = []
        var time = between.sample(&rng)
        while time < horizon {
            let length = max(1, duration.sample(&rng))
            windows.append(OutageWindow(start: time, duration: length))
            time += length + max(1, between.sample(&rng))
        }
        return windows
    }

    /// `windows` inside `0..<horizon`, sorted, overlapping and touching ones merged.
    /// - Complexity: O(w log w) in the number of windows.
    private static func tidy(_ windows: [OutageWindow], horizon: SimDuration) -> [OutageWindow] {
        var windows = windows
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
