import Dispatch

/// A task executor whose jobs run on threads outside Swift concurrency's cooperative pool.
///
/// Each job gets a serial dispatch queue of its own: dispatch gives every such queue with work a
/// thread of its overcommitting pool, which grows when its threads block, unlike the cooperative
/// pool (one thread a core). A task runs one job at a time, so a test's body still runs in order;
/// child tasks its body starts may run at once, so one blocked child never holds up another.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// The key under which the queues mark themselves, for `isCurrent`.
    private static let marker = DispatchSpecificKey<Bool>()

    public init() {}

    /// - Complexity: O(1); a queue is made per job (a small allocation).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let queue = DispatchQueue(label: "pushsim.test.own-thread")
        queue.setSpecific(key: Self.marker, value: true)
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the caller runs on one of these executors' threads (and so not on the cooperative pool).
    ///
    /// - Complexity: O(1).
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
}
