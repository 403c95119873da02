import Foundation
import Synchronization

/// How many tests marked `.ownThread` run at once; the others wait, suspended, holding no thread.
///
/// Off the cooperative pool nothing else bounds them: the tests that start `pushsim` with its
/// peers (curl, Python, Java, haproxy, schemathesis) would all start together on a 2-core machine,
/// and those with a time limit would run out of it sharing the cores. A test waits for its slot
/// before its time limit starts (`OwnThreadTrait`).
public final class BlockingSlots: Sendable {
    /// Tests that mostly wait (on peers, sockets): twice the cores, at least 4, so that they
    /// overlap while the cores are not oversubscribed many times over.
    public static let waiting = BlockingSlots(width: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
    /// Tests that compute for minutes: one a core, beside the cooperative pool's, and apart
    /// from the waiting ones, so that a time-limited test never queues behind them.
    public static let computing = BlockingSlots(width: ProcessInfo.processInfo.activeProcessorCount)

    public let width: Int
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    public init(width: Int) {
        precondition(width > 0, "a limit of \(width) would run nothing")
        self.width = width
        state = Mutex((free: width, waiting: []))
    }

    /// Tests that measure the whole process (its resident memory) take this, then every slot
    /// of the others (`withEverySlot`), one such test at a time, so that no other marked test
    /// runs beside them.
    public static let alone = BlockingSlots(width: 1)

    /// The slots the current task holds already: a test marked twice (on its suite and itself)
    /// takes one, not two, so that tests holding one never wait for a second.
    @TaskLocal private static var holding: Set<ObjectIdentifier> = []

    /// Runs `body` once a slot is free, waiting in arrival order, and gives the slot back after.
    ///
    /// - Complexity: O(1) besides `body`, but for the wait.
    public func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        let me = ObjectIdentifier(self)
        if Self.holding.contains(me) { return try await body() }
        await acquire()
        defer { release() }
        return try await Self.$holding.withValue(Self.holding.union([me])) { try await body() }
    }

    /// Runs `body` once every slot is free, taking them one by one in arrival order. Only under
    /// `alone`'s one slot, so that two such callers never each hold part and wait for the rest.
    ///
    /// - Complexity: O(width) besides `body`, but for the wait.
    public func withEverySlot<T>(_ body: () async throws -> T) async rethrows -> T {
        let me = ObjectIdentifier(self)
        if Self.holding.contains(me) { return try await body() }
        for _ in 0..<width { await acquire() }
        defer { for _ in 0..<width { release() } }
        return try await Self.$holding.withValue(Self.holding.union([me])) { try await body() }
    }

    private func acquire() async {
        await withCheckedContinuation { (slot: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(slot)
                    return false
                }
                state.free -= 1
                return true
            }
            if free { slot.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
