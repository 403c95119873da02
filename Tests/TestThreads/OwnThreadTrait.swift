import Testing

/// Runs a suite's or a test's work on threads outside Swift concurrency's cooperative pool, for
/// tests whose bodies block: child processes, sockets, minutes of CPU in a debug build.
///
/// Swift Testing runs every test, synchronous bodies included, on the cooperative pool: one
/// thread a core. On a 2-core machine two blocked tests hold all of it; every other test waits,
/// and a test with a `.timeLimit` whose body waits behind them runs out of time before it runs
/// (a clean clone's CI once failed 9 such tests; docs/development.md, "Tests that block").
///
/// Under this trait the suite's and the test's own tasks (time limits included) prefer an
/// `OwnThreadExecutor`, and a test starts once its `load`'s `BlockingSlots` has a slot for it,
/// before its time limit starts counting. The trait is recursive: on a suite, it reaches each
/// test. It is for tests that block: a quick test on a thread of its own only costs.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    /// What holds the thread, and so which slots the test takes.
    public enum Load: Sendable {
        /// Waiting on a child process or a socket (`BlockingSlots.waiting`).
        case waiting
        /// Minutes of CPU in a debug build (`BlockingSlots.computing`).
        case computing
        /// Measures the whole process (its resident memory): runs with no other marked test
        /// beside it (`BlockingSlots.alone`, then every slot of the others).
        case alone
    }

    public let load: Load

    public var isRecursive: Bool { true }

    public init(_ load: Load = .waiting) { self.load = load }

    /// Runs `body` holding the slots `load` takes.
    private func withSlots(_ body: () async throws -> Void) async throws {
        switch load {
        case .waiting: try await BlockingSlots.waiting.withSlot(body)
        case .computing: try await BlockingSlots.computing.withSlot(body)
        case .alone:
            try await BlockingSlots.alone.withSlot {
                try await BlockingSlots.waiting.withEverySlot { try await BlockingSlots.computing.withEverySlot(body) }
            }
        }
    }

    /// Every level: the suite, each test, and each test case.
    ///
    /// - Complexity: O(1).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { self }

    /// - Complexity: O(1) besides the test, but for the wait for a slot.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A test (not a suite, not one of its cases) takes its slot here, around its cases and
        // their time limits.
        if testCase == nil && !test.isSuite {
            try await withSlots {
                try await withTaskExecutorPreference(OwnThreadExecutor()) { try await function() }
            }
        } else {
            try await withTaskExecutorPreference(OwnThreadExecutor()) { try await function() }
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// The test waits (on a child process, a socket): run it off the cooperative pool.
    public static var ownThread: Self { Self(.waiting) }

    /// The test blocks its thread with `load`: `.computing` for minutes of CPU.
    public static func ownThread(_ load: OwnThreadTrait.Load) -> Self { Self(load) }
}
