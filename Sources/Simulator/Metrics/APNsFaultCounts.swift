import Base
import FakeAPNs

/// What a fault of APNs cost the provider, counted per kind (`APNsFaultKind`): one
/// `summary.csv` column per kind and measure, `fault_<kind>_<measure>`, written only for a
/// scenario that names `apns.faults` (so the reports of every other scenario keep their
/// bytes). Declared once: the columns, the merge and the partial results follow from
/// `APNsFaultKind.allCases` and `allCases` here.
public enum APNsFaultMeasure: Int, Sendable, CaseIterable {
    /// Requests that met the fault: an error answer, a dropped connection, a slow answer,
    /// a connection opened again.
    case requests
    /// Retries the provider scheduled right after meeting it.
    case retries
    /// Requests the provider gave up on right after meeting it (out of retries): their
    /// messages count under `lost_apns_rejected` (error answers) or `lost_provider_network`
    /// (no answer) unless another copy got through.
    case givenUp

    /// The column's suffix.
    /// - Complexity: O(1).
    public var columnName: String {
        switch self {
        case .requests: "requests"
        case .retries: "retries"
        case .givenUp: "given_up"
        }
    }
}

extension APNsFaultKind {
    /// The kind's part of a column name: its name in snake_case (`serviceUnavailable` →
    /// `service_unavailable`).
    /// - Complexity: O(name length).
    public var columnName: String { SnakeCase.of(name) }
}

/// The fault counts of one world (or summed over many): kind × measure.
public struct APNsFaultCounts: Sendable, Equatable {
    /// Index kind × measures + measure.
    public private(set) var values: [Int64]

    /// Zeros.
    /// - Complexity: O(kinds × measures).
    public init() {
        values = Array(repeating: 0, count: Self.columnNames.count)
    }

    /// Counts in `columnNames` order (reading partial results); nil for another count of them.
    /// - Complexity: O(kinds × measures).
    public init?(values: [Int64]) {
        guard values.count == Self.columnNames.count else { return nil }
        self.values = values
    }

    /// The columns, in order: each kind's measures, kinds in declaration order.
    public static let columnNames: [String] = APNsFaultKind.allCases.flatMap { kind in
        APNsFaultMeasure.allCases.map { "fault_" + kind.columnName + "_" + $0.columnName }
    }

    /// The count of `measure` for `kind`.
    /// - Complexity: O(1).
    public subscript(kind: APNsFaultKind, measure: APNsFaultMeasure) -> Int64 {
        get { values[Int(kind.rawValue) * APNsFaultMeasure.allCases.count + measure.rawValue] }
        set { values[Int(kind.rawValue) * APNsFaultMeasure.allCases.count + measure.rawValue] = newValue }
    }

    /// Whether every count is 0.
    /// - Complexity: O(kinds × measures).
    public var isZero: Bool { values.allSatisfy { $0 == 0 } }

    /// Sets every count to 0.
    /// - Complexity: O(kinds × measures).
    public mutating func reset() {
        for index in values.indices { values[index] = 0 }
    }

    /// Adds `other`; on a sum past `Int64.max` returns the column's name and leaves `self` as it was.
    /// - Complexity: O(kinds × measures).
    public mutating func add(checking other: APNsFaultCounts) -> String? {
        var sum = values
        for index in sum.indices {
            let (value, overflow) = sum[index].addingReportingOverflow(other.values[index])
            if overflow { return Self.columnNames[index] }
            sum[index] = value
        }
        values = sum
        return nil
    }
}
