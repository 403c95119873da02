/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, passes BigCrush, and any
/// 64-bit seed is a good one. Every random stream in PushSim is one of these,
/// seeded by mixing (scenario seed, user index, stream), so a user's draws do
/// not depend on which thread or shard simulates it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline package var state: UInt64

    /// A generator starting at `seed`.
    /// - Complexity: O(1).
    @inlinable
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    /// - Complexity: O(1).
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return Self.mix(state)
    }

    /// The SplitMix64 finaliser: a bijection that scrambles every input bit.
    /// - Complexity: O(1).
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A uniform double in (0, 1]: never 0, so `log` of it is finite.
    /// - Complexity: O(1).
    @inlinable
    public mutating func nextUnitInterval() -> Double {
        Double(nextUnitIntervalSteps()) * 0x1.0p-53
    }

    /// The next `nextUnitInterval()` in steps of 2⁻⁵³ (1 ... 2⁵³): the same draw as a
    /// whole number, whose bits split it exactly (a table's index and the fraction past it).
    /// - Complexity: O(1).
    @inlinable
    public mutating func nextUnitIntervalSteps() -> UInt64 {
        (next() >> 11) + 1
    }
}
