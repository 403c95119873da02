/// A fixed-bucket histogram of non-negative microsecond values: exact below 64 µs,
/// then 32 buckets per power of two (relative error under 1/32 ≈ 3%). Fixed
/// buckets make it mergeable by addition, so threads and shards agree byte for byte.
public struct LatencyHistogram: Sendable, Equatable {
    /// Number of buckets: covers up to 2^63 µs.
    package static let bucketCount = 64 + 58 * 32
    /// Buckets a recorded value can fall in (values are Int64: the top exponent is never reached).
    package static let reachableBucketCount = bucket(of: .max) + 1
    package private(set) var counts: ContiguousArray<UInt64>

    /// Total number of values recorded.
    public private(set) var total: UInt64 = 0

    /// An empty histogram.
    /// - Complexity: O(buckets).
    public init() {
        counts = ContiguousArray(repeating: 0, count: Self.bucketCount)
    }

    private init(counts: ContiguousArray<UInt64>) {
        self.counts = counts
    }

    /// No buckets at all: stands in, without an allocation, for a histogram moved out
    /// for a while (`StrategyAggregate.recordingLatencies(_:)`). Not to be recorded into.
    package static var movedOut: LatencyHistogram { LatencyHistogram(counts: []) }

    /// The bucket that holds `value`. Wrapping: `exponent` is 6…63, so every step stays
    /// within 0…`bucketCount`.
    /// - Complexity: O(1).
    @inline(__always)
    package static func bucket(of value: Int64) -> Int {
        let v = UInt64(max(0, value))
        if v < 64 { return Int(v) }
        let exponent = 63 &- v.leadingZeroBitCount          // ≥ 6
        let subBucket = Int((v &>> UInt64(exponent &- 5)) & 31)
        return 64 &+ (exponent &- 6) &* 32 &+ subBucket
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

    /// Writes values into a histogram's buckets through a pointer, made the histogram's
    /// own once (`recording(_:)`) rather than checked once a value.
    package struct Recorder {
        /// The histogram's `bucketCount` buckets.
        fileprivate let buckets: UnsafeMutablePointer<UInt64>
        /// Values recorded (added to the histogram's `total` at the end).
        fileprivate var recorded: UInt64 = 0

        /// Records one value. Unchecked: `bucket(of:)` is below `reachableBucketCount`,
        /// at most `bucketCount`, the buckets' count.
        /// - Complexity: O(1).
        @inline(__always)
        package mutating func record(_ value: Int64) {
            let bucket = LatencyHistogram.bucket(of: value)
            #if PUSHSIM_INVARIANTS
            precondition(bucket < LatencyHistogram.bucketCount, "latency bucket out of range")
            #endif
            buckets[bucket] &+= 1
            recorded &+= 1
        }
    }

    /// Calls `body` with a recorder of values into this histogram: the buckets made
    /// unique once, for the whole call (the fold records a lane's latencies so).
    /// - Complexity: O(1) plus `body`'s, O(buckets) when the buckets are shared.
    @inline(__always)
    package mutating func recording<Result>(_ body: (inout Recorder) throws -> Result) rethrows -> Result {
        var recorded: UInt64 = 0
        let result = try counts.withUnsafeMutableBufferPointer { buckets in
            // `counts` always holds `bucketCount` buckets: its base is never nil.
            var recorder = Recorder(buckets: buckets.baseAddress!)
            defer { recorded = recorder.recorded }
            return try body(&recorder)
        }
        total &+= recorded
        return result
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
