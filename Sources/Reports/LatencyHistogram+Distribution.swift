import Simulator

extension StrategyAggregate {
    /// Mail → first presentation of the delivered messages first shown from their
    /// original push: `latency` less `recoveredLatency`.
    /// - Complexity: O(buckets).
    package var firstCopyLatency: LatencyHistogram {
        var histogram = LatencyHistogram()
        for (bucket, count) in latency.nonEmptyBuckets {
            let first = count - min(count, recoveredLatency.counts[bucket])
            if first > 0 { histogram.add(bucket: bucket, count: first) }
        }
        return histogram
    }
}

extension LatencyHistogram {
    /// The empirical distribution function at each non-empty bucket's upper end:
    /// (seconds, share of values at or below it), increasing to 1; empty when nothing was recorded.
    /// Within a bucket the values are unknown (≤ 3% apart), so its upper end is where all of them are in.
    /// - Complexity: O(buckets).
    package func cumulativeShares() -> [(seconds: Double, share: Double)] {
        guard total > 0 else { return [] }
        var seen: UInt64 = 0
        return nonEmptyBuckets.map { bucket, count in
            seen += count
            let upper = bucket + 1 < Self.bucketCount ? Self.lowerBound(of: bucket + 1) : Int64.max
            return (Double(upper) / 1_000_000, Double(seen) / Double(total))
        }
    }
}
