import Base
import Kernel
import Simulator

/// What the population does on its own, one occurrence of one device app.
package struct LaneOccurrence {
    /// The device app (`LivePopulation.lanes`' index).
    package var lane: Int32
    package var event: TimelineEvent
}

/// Every device app's timeline merged into one, in the agenda's order: (time, phase,
/// lane). Each lane's own draw (`LaneDraw`, the simulation's) hands out its entries in
/// (time, phase) order; a heap of the lanes' next entries merges them, so the whole
/// population's timeline is read in memory proportional to the lanes, not the run.
///
/// A live run splits each lane in two: the population (serve) draws the device's part,
/// the provider (`pushsim provider`) the provider's (mail arriving, the provider's
/// outages), each from the same seed, so the two processes together play the
/// simulation's timeline.
package struct PopulationDraw: TimelineDraw {
    /// Whose part of the lanes' timelines is drawn.
    package enum Side: Sendable {
        /// The device's: connectivity, launches, token rotations, device-id and subscription changes, steering.
        case population
        /// The provider's: mail and outages.
        case provider
    }

    private struct Head {
        var time: SimTime
        var phase: UInt8
        var lane: Int32
        var event: TimelineEvent

        func precedes(_ other: Head) -> Bool {
            (time, phase, lane) < (other.time, other.phase, other.lane)
        }
    }

    private var draws: ContiguousArray<LaneDraw>
    /// One entry a lane at most: the lane's next occurrence not yet handed out.
    private var heap: ContiguousArray<Head> = []
    private var buffer = ContiguousArray<TimelineEntry>()
    private let side: Side

    /// - Parameter draws: each lane's draw from its start, in lane order.
    /// - Complexity: O(l log l) for l lanes.
    package init(draws: ContiguousArray<LaneDraw>, side: Side = .population) {
        self.draws = draws
        self.side = side
        heap.reserveCapacity(draws.count)
        buffer.reserveCapacity(1)
        for lane in draws.indices { pushNext(of: lane) }
    }

    package var isFinished: Bool { heap.isEmpty }

    package mutating func fill(_ output: inout ContiguousArray<Timed<LaneOccurrence>>, upTo capacity: Int) {
        while output.count < capacity, let first = heap.first {
            output.append(Timed(time: first.time, event: LaneOccurrence(lane: first.lane, event: first.event)))
            removeFirst()
            pushNext(of: Int(first.lane))
        }
    }

    /// Reads lane `lane`'s next entry of this side and puts it in the heap.
    private mutating func pushNext(of lane: Int) {
        while true {
            buffer.removeAll(keepingCapacity: true)
            draws[lane].fill(&buffer, upTo: 1)
            guard let entry = buffer.first else { return }
            let owner: Side = switch entry.event {
            case .mail, .outage, .backgroundPush: .provider
            case .deviceIDChange, .tokenRotation, .subscriptionChange, .connectivity, .launch, .steered: .population
            }
            guard owner == side else { continue }
            insert(Head(time: entry.time, phase: entry.event.phase.rawValue, lane: Int32(lane), event: entry.event))
            return
        }
    }

    private mutating func insert(_ head: Head) {
        heap.append(head)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { smallest = left + 1 }
            guard heap[smallest].precedes(heap[parent]) else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
