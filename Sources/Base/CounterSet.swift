/// A kind of counter: a `CaseIterable` enum whose cases are the counters, in
/// report column order, with raw values 0, 1, 2, … (the default for `Int`). Each
/// case is the one declaration of its counter: storage, sums, column names and
/// partial results all follow from `allCases`.
public protocol Counter: RawRepresentable<Int>, CaseIterable, Sendable, Hashable where AllCases == [Self] {}

extension Counter {
    /// The report column: the case's name in snake_case (`tooManyRequests` →
    /// `too_many_requests`, `deviceIDChanges` → `device_id_changes`), so the name is
    /// declared once, by the case itself.
    /// - Complexity: O(name length).
    public var columnName: String { Self.snakeCase(String(describing: self)) }

    /// `camelCase` → `snake_case` (`SnakeCase`).
    package static func snakeCase(_ name: String) -> String { SnakeCase.of(name) }
}

/// One `Int64` per counter of `Kind`, indexed by the case's raw value: counting is a
/// store into inline storage, no hashing, no string, no allocation, no copy-on-write
/// check. Integers only, so the counters of many worlds add up to the same value in
/// any order. `slots` is the inline storage's size, at least the kind's number of
/// counters (checked on every `init`, and by a test per kind): the kind's typealias
/// names it, a little above the count, so that `+=` and `reset` touch no more than
/// the kind needs (the ledger adds sets per user and day).
public struct CounterSet<Kind: Counter, let slots: Int>: Sendable, Equatable {
    /// The most counters this set holds (the inline storage's size).
    public static var capacity: Int { slots }

    /// The counts, indexed by raw value; slots past `Kind.allCases.count` stay 0.
    @usableFromInline package var storage: InlineArray<slots, Int64>

    /// The counts in `Kind.allCases` order.
    /// - Complexity: O(counters).
    public var values: ContiguousArray<Int64> {
        Self.checkCapacity()
        return ContiguousArray(Kind.allCases.map { storage[$0.rawValue] })
    }

    /// All zeros. (The ledger makes one per user and day: the kind's size is checked
    /// where the counters are listed, `values` and `columnNames`, not here.)
    /// - Complexity: O(1).
    @inlinable
    public init() {
        storage = InlineArray(repeating: 0)
    }

    /// Traps when `Kind` declares more counters than `slots`.
    /// - Complexity: O(counters).
    package static func checkCapacity() {
        precondition(Kind.allCases.count <= slots, "\(Kind.self) declares more counters than its CounterSet holds (\(slots))")
    }

    /// Counts from `values`, in `Kind.allCases` order (reading partial results); nil
    /// when there is not exactly one per counter.
    /// - Complexity: O(counters).
    public init?(values: some Collection<Int64>) {
        Self.checkCapacity()
        guard values.count == Kind.allCases.count else { return nil }
        self.init()
        for (index, value) in values.enumerated() { storage[index] = value }
    }

    /// The counts named, zeros elsewhere (`[.messages: 6, .delivered: 4]`).
    /// - Complexity: O(counters named).
    package init(_ counts: KeyValuePairs<Kind, Int64>) {
        self.init()
        for (counter, value) in counts { self[counter] = value }
    }

    /// The count of `counter`.
    /// - Complexity: O(1).
    @inlinable
    public subscript(counter: Kind) -> Int64 {
        get { storage[counter.rawValue] }
        set { storage[counter.rawValue] = newValue }
    }

    /// The column names, in `Kind.allCases` order.
    /// - Complexity: O(counters).
    public static var columnNames: [String] {
        checkCapacity()
        return Kind.allCases.map(\.columnName)
    }

    public static func == (lhs: CounterSet, rhs: CounterSet) -> Bool {
        for index in 0..<Self.capacity where lhs.storage[index] != rhs.storage[index] { return false }
        return true
    }

    /// Sets every count to zero, keeping the storage (one world is reset per user).
    /// - Complexity: O(counters).
    public mutating func reset() {
        storage = InlineArray(repeating: 0)
    }

    /// Adds another set's counts. Traps on overflow: use `adding(_:)` for counts
    /// read from outside.
    /// - Complexity: O(counters). Inlined: a call, for a few slots, cost as much as the adds
    /// (the fold adds a set per user and day).
    @inlinable @inline(__always)
    public static func += (lhs: inout CounterSet, rhs: CounterSet) {
        // Through spans: element by element on the arrays themselves copied the storage per element.
        var target = lhs.storage.mutableSpan
        let source = rhs.storage.span
        for index in 0..<slots { target[index] += source[index] }
    }

    /// The sum with `other`, or the first counter whose sum overflows `Int64`.
    /// - Complexity: O(counters).
    public func adding(_ other: CounterSet) -> Result<CounterSet, OverflowError> {
        var sum = self
        for counter in Kind.allCases {
            let (value, overflow) = self[counter].addingReportingOverflow(other[counter])
            if overflow { return .failure(OverflowError(counter: counter)) }
            sum[counter] = value
        }
        return .success(sum)
    }

    /// A sum past `Int64.max`.
    public struct OverflowError: Error {
        /// The counter whose sum overflowed.
        public var counter: Kind
    }
}
