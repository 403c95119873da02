import Dispatch

/// Runs a test's long blocking work (child processes, sockets, `waitUntilExit`) on a thread of
/// its own. Swift Testing runs every test on the cooperative pool, one thread a core: on a
/// 2-core machine a test blocked for minutes holds half of it, and tests with a time limit
/// queued behind it run out of time before they start. The work stays in the test's task, so
/// `#expect` and `#require` still report to the test.
public func onOwnThread<T>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor()) { try body() }
}

/// A task executor whose jobs run on a serial dispatch queue: dispatch gives it a thread
/// outside the cooperative pool.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "pushsim.test.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
