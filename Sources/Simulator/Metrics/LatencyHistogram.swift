/// A fixed-bucket histogram of non-negative microsecond values: exact below 64 µs,
/// then 32 buckets per power of two (relative error under 1/32 ≈ 3%). Fixed
/// buckets make it mergeable by addition, so threads and shards agree byte for byte.
public struct LatencyHistogram: Sendable, Equatable {
    /// Number of buckets: covers up to 2^63 µs.
    package static let bucketCount = 64 + 58 * 32
    /// Buckets a recorded value can fall in (values are Int64: the top exponent is never reached).
    package static let reachableBucketCount = bucket(of: .max) + 1
    package private(set) var counts = ContiguousArray<UInt64>(repeating: 0, count: bucketCount)

    /// Total number of values recorded.
    public private(set) var total: UInt64 = 0

    /// An empty histogram.
    /// - Complexity: O(buckets).
    public init() {}

    /// The bucket that holds `value`.
    /// - Complexity: O(1).
    package static func bucket(of value: Int64) -> Int {
        let v = UInt64(max(0, value))
        if v < 64 { return Int(v) }
        let exponent = 63 - v.leadingZeroBitCount          // ≥ 6
        let subBucket = Int((v >> UInt64(exponent - 5)) & 31)
        return 64 + (exponent - 6) * 32 + subBucket
    }

    /// The smallest value of a bucket.
    package static func lowerBound(of bucket: Int) -> Int64 {
        if bucket < 64 { return Int64(bucket) }
        let exponent = (bucket - 64) / 32 + 6
        let subBucket = Int64((bucket - 64) % 32)
        return (Int64(1) << Int64(exponent)) + subBucket << Int64(exponent - 5)
    }

    /// Records one value.
    /// - Complexity: O(1).
    public mutating func record(_ value: Int64) {
        counts[Self.bucket(of: value)] &+= 1
        total &+= 1
    }

    /// Adds another histogram's counts.
    /// - Complexity: O(buckets).
    public mutating func merge(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] &+= other.counts[index] }
        total &+= other.total
    }

    /// The value at quantile `q` (0…1): the lower bound of the bucket holding the
    /// ⌈q·n⌉-th smallest value (exact below 64 µs). nil when empty.
    /// - Complexity: O(buckets).
    public func quantile(_ q: Double) -> Int64? {
        guard total > 0 else { return nil }
        let rank = max(1, UInt64((q * Double(total)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return Self.lowerBound(of: index) }
        }
        return nil
    }

    /// Non-empty buckets as (index, count), for partial results.
    package var nonEmptyBuckets: [(Int, UInt64)] { counts.enumerated().filter { $0.1 > 0 } }

    /// Adds `count` values to bucket `index` (reading partial results).
    package mutating func add(bucket index: Int, count: UInt64) {
        counts[index] &+= count
        total &+= count
    }
}
