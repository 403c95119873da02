/// A broken accounting identity: the run is wrong and nothing may be reported.
public struct AccountingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What did not add up, and where.
    public var description: String

    package init(description: String) { self.description = description }
}
