import Base
import FakeAPNs

/// APNs's faults over a run, as instants where the kind in force changes: scheduled windows
/// and random ones, the random part drawn once per block of users as provider outages are
/// (`OutageSchedule`: each block an independent history, so the faults' spread is in every
/// standard error). Where windows of different kinds overlap, the one that began last is in
/// force until it ends, then the earlier one again.
package struct APNsFaultSchedule: Sendable {
    /// One stretch of time with one kind in force (nil: none).
    package struct Segment: Sendable, Equatable {
        package var start: SimTime
        package var kind: APNsFaultKind?
    }

    /// Each block's segments, sorted by start, the first at 0 (one list when nothing is random).
    package let blocks: [[Segment]]

    /// No faults at all.
    package static let none = APNsFaultSchedule(blocks: [[]])

    private init(blocks: [[Segment]]) { self.blocks = blocks }

    /// The schedule of `model` over `0..<horizon` under `seed`.
    /// - Complexity: O(K × w log w) for K blocks and w windows each.
    package init(_ model: APNsFaultModel?, seed: UInt64, horizon: SimDuration) {
        guard let model else {
            self.init(blocks: [[]])
            return
        }
        guard !model.random.isEmpty else {
            self.init(blocks: [Self.segments(model.scheduled, horizon: horizon)])
            return
        }
        let samplers = model.random.map { (kind: $0.kind, between: Sampler($0.between), duration: Sampler($0.duration)) }
        self.init(blocks: (0..<UserBlocks.count).map { block in
            var windows = model.scheduled
            for (index, random) in samplers.enumerated() {
                var rng = RandomStream.apnsFaults.generator(seed: seed, user: UInt64(block), lane: index + 1)
                var time = random.between.sample(&rng)
                while time < horizon {
                    let length = max(1, random.duration.sample(&rng))
                    windows.append(APNsFaultWindow(kind: random.kind, start: time, duration: length))
                    time += length + max(1, random.between.sample(&rng))
                }
            }
            return Self.segments(windows, horizon: horizon)
        })
    }

    /// The segments of block `block`'s users.
    /// - Complexity: O(1).
    package func segments(block: Int) -> [Segment] { blocks[block % blocks.count] }

    /// The kind in force at `time` among `segments`, or nil.
    /// - Complexity: O(log s).
    @inline(__always)
    package static func kind(at time: SimTime, in segments: [Segment]) -> APNsFaultKind? {
        guard let first = segments.first, time >= first.start else { return nil }
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        return segments[low].kind
    }

    /// `windows` inside `0..<horizon` as segments: at each start or end, the kind of the
    /// window that began last among those still open (ties: the longer first, then kind order).
    /// - Complexity: O(w log w + w × open windows).
    package static func segments(_ windows: [APNsFaultWindow], horizon: SimDuration) -> [Segment] {
        let inside = windows.filter { $0.start < horizon && $0.duration > 0 }
            .map { APNsFaultWindow(kind: $0.kind, start: $0.start, duration: min($0.end, horizon) - $0.start) }
            .sorted { ($0.start, -$0.duration, $0.kind.rawValue) < ($1.start, -$1.duration, $1.kind.rawValue) }
        guard !inside.isEmpty else { return [] }
        var instants = Set<SimTime>()
        for window in inside {
            instants.insert(window.start)
            instants.insert(window.end)
        }
        var segments: [Segment] = []
        var open: [APNsFaultWindow] = []
        var next = 0
        for instant in instants.sorted() {
            open.removeAll { $0.end <= instant }
            while next < inside.count, inside[next].start <= instant {
                open.append(inside[next])
                next += 1
            }
            let kind = open.last?.kind
            if segments.last?.kind != kind || segments.isEmpty { segments.append(Segment(start: instant, kind: kind)) }
        }
        return segments
    }
}
