import Base
import FoundationEssentials
import Glibc

/// What a send log's preparation made of its rows (`SendLogReplay.prepare`): counts only,
/// never an id.
public struct SendLogTally: Sendable, Equatable {
    /// Rows read.
    public var rows: Int64 = 0
    /// Alert pushes to the scenario's devices within the run: the replayed mail.
    public var alerts: Int64 = 0
    /// Background pushes to the scenario's devices within the run.
    public var background: Int64 = 0
    /// Rows for another topic than the scenario's app.
    public var otherTopic: Int64 = 0
    /// Rows before the run's start or at or after its end.
    public var outsideRun: Int64 = 0
    /// Rows of users past the scenario's devices (the log has more users than it).
    public var beyondDevices: Int64 = 0
    /// Distinct users given a device, at most the scenario's devices.
    public var users = 0

    /// A value of the fields given.
    /// - Complexity: O(1).
    public init() {}
}

/// A send log prepared for one scenario (docs/send-log.md, "Replay"): each device's pushes
/// in time order, in a spill file of 8 bytes a push (unlinked at once, so nothing is left
/// behind), and where each device's begin. Memory: 8 bytes a device, whatever the log's
/// length; threads read their users' pushes from the one file at once (`pread`).
public final class SendLogReplay: Sendable {
    /// What became of the log's rows.
    public let tally: SendLogTally
    /// Devices the pushes were numbered for.
    public let devices: Int
    private let descriptor: Int32
    /// Device `d`'s pushes are records `offsets[d]..<offsets[d + 1]` of the spill.
    private let offsets: [Int64]

    init(tally: SendLogTally, devices: Int, descriptor: Int32, offsets: [Int64]) {
        self.tally = tally
        self.devices = devices
        self.descriptor = descriptor
        self.offsets = offsets
    }

    deinit { close(descriptor) }

    /// The spill's record of a push: its time since the run's start (µs) and its kind in the lowest bit.
    static func record(time: SimTime, kind: SendLogKind) -> UInt64 {
        UInt64(time) << 1 | (kind == .background ? 1 : 0)
    }

    /// Device `device`'s pushes: a range of records of the spill.
    /// - Complexity: O(1).
    public func pushes(of device: Int) -> Range<Int64> {
        guard device >= 0, device < devices else { return 0..<0 }
        return offsets[device]..<offsets[device + 1]
    }

    /// Reads records `range` of the spill into `buffer` (replacing what it held).
    /// - Complexity: O(range.count).
    func read(_ range: Range<Int64>, into buffer: inout [UInt64]) {
        buffer.removeAll(keepingCapacity: true)
        guard !range.isEmpty else { return }
        buffer = [UInt64](unsafeUninitializedCapacity: range.count) { storage, initialized in
            let bytes = UnsafeMutableRawBufferPointer(storage)
            var done = 0
            while done < bytes.count {
                let count = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(range.lowerBound * 8) + off_t(done))
                if count < 0, errno == EINTR { continue }
                // The spill is this process's own unlinked file: a short read is a broken disk.
                precondition(count > 0, "the send log's spill could not be read: \(FileBytes.describe(errno))")
                done += count
            }
            initialized = range.count
        }
    }
}

/// One device's pushes of one kind from a prepared send log, in time order, read a few
/// hundred at a time. A value: a copy goes on from where the original was.
public struct SendLogCursor: Sendable {
    /// Records read from the spill at a time.
    static let batch: Int64 = 512

    private let replay: SendLogReplay
    private let kind: SendLogKind
    private var next: Int64
    private let end: Int64
    private var buffer: [UInt64] = []
    private var position = 0

    /// Device `device`'s pushes of kind `kind`, from the first.
    /// - Complexity: O(1).
    public init(replay: SendLogReplay, device: Int, kind: SendLogKind) {
        self.replay = replay
        self.kind = kind
        let range = replay.pushes(of: device)
        next = range.lowerBound
        end = range.upperBound
    }

    /// The time (µs since the run's start) of the next push of the cursor's kind, or nil.
    /// - Complexity: amortised O(1).
    public mutating func nextTime() -> SimTime? {
        let wanted: UInt64 = kind == .background ? 1 : 0
        while true {
            if position == buffer.count {
                guard next < end else { return nil }
                let upper = min(end, next + Self.batch)
                replay.read(next..<upper, into: &buffer)
                next = upper
                position = 0
            }
            let record = buffer[position]
            position += 1
            if record & 1 == wanted { return SimTime(record >> 1) }
        }
    }
}
