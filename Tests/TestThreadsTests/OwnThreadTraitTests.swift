import Dispatch
import Foundation
import Synchronization
import Testing
import TestThreads

/// `.ownThread` moves a blocking body off the cooperative pool, so the pool stays free for the
/// other tests (docs/development.md, "Tests that block").
@Suite("Tests that block run on threads of their own")
struct OwnThreadTraitTests {
    /// As many blocked bodies as the cooperative pool has threads (one a core): without the
    /// trait they would hold all of it.
    static let blockers = ProcessInfo.processInfo.activeProcessorCount

    @Test("a synchronous body under .ownThread runs on an own-thread executor, each case of a parameterized one too",
          .ownThread, arguments: 0..<2)
    func synchronousBodyRunsOffThePool(_ index: Int) {
        #expect(OwnThreadExecutor.isCurrent)
    }

    @Test("a synchronous body under .ownThread(.computing) runs on an own-thread executor too", .ownThread(.computing))
    func computingBodyRunsOffThePool() {
        #expect(OwnThreadExecutor.isCurrent)
    }

    @Test("a test without the trait runs where Swift Testing puts it, not on an own-thread executor")
    func unmarkedTestStaysOnThePool() {
        #expect(!OwnThreadExecutor.isCurrent)
    }

    @Test("as many bodies as the pool has threads, blocked under the trait, leave the pool free: a trivial task finishes while they wait for it")
    func blockedBodiesLeaveThePoolFree() async throws {
        let test = try #require(Test.current)
        let finished = DispatchSemaphore(value: 0)
        let waits = Shared<[Bool]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.blockers {
                group.addTask {
                    try? await OwnThreadTrait().provideScope(for: test, testCase: Test.Case.current) {
                        // Blocks its thread, as a test waiting on a child process does, for at most 30 s.
                        let seen = finished.wait(timeout: .now() + 30) == .success
                        waits.update { $0.append(seen) }
                    }
                }
            }
            // Not under the trait: it needs a thread of the cooperative pool.
            group.addTask {
                for _ in 0..<Self.blockers { finished.signal() }
            }
        }
        // Had the bodies held the pool's threads, the signalling task could not run and each wait
        // would end at its 30 s timeout, false. (No bound on the elapsed time: in a full run the
        // bodies may first wait for their slots.)
        #expect(waits.value == Array(repeating: true, count: Self.blockers), "a blocked body held a thread of the pool")
    }

    @Test("with CI=true, Swift Testing's width (.ci/run sets it) leaves room for the quick tests beside every .ownThread slot",
          .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"))
    func parallelizationWidthLeavesRoom() throws {
        let variable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"
        let width = try #require(ProcessInfo.processInfo.environment[variable].flatMap { Int($0) }, "\(variable) is not set")
        #expect(width >= 4 * (BlockingSlots.waiting.width + BlockingSlots.computing.width))
    }

    @Test("a slot limit of 2 runs two bodies at once, never three, and the others in turn")
    func slotsBoundTheBodiesAtOnce() async {
        let slots = BlockingSlots(width: 2)
        let running = Shared((now: 0, most: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    await slots.withSlot {
                        running.update { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try? await Task.sleep(for: .milliseconds(20))
                        running.update { $0.now -= 1 }
                    }
                }
            }
        }
        #expect(running.value.most == 2)
    }

    @Test("a body that holds a slot takes no second one when marked again: it does not wait on itself")
    func nestedSlotIsTheSame() async {
        let slots = BlockingSlots(width: 1)
        let ran = await slots.withSlot { await slots.withSlot { true } }
        #expect(ran)
    }
}

/// A value the tasks of a test change under a lock.
final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    init(_ value: Value) { state = Mutex(value) }

    var value: Value { state.withLock { $0 } }

    func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}
