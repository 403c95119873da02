import Base
import FoundationEssentials
import Glibc
import Synchronization

extension SendLogReplay {
    /// What a log is prepared for: the scenario's app, window and devices.
    public struct Target: Sendable, Equatable {
        /// The scenario's app: rows of another topic are not its mail.
        public var topic: String
        /// The run's first day (local midnight) and length.
        public var start: CivilDate
        public var duration: SimDuration
        /// The scenario's devices: the log's first `devices` users get one each.
        public var devices: Int
        /// Whether the scenario has a `background` section; else a background row is refused.
        public var acceptsBackground: Bool

        /// A value of the fields given.
        /// - Complexity: O(1).
        public init(topic: String, start: CivilDate, duration: SimDuration, devices: Int, acceptsBackground: Bool) {
            self.topic = topic
            self.start = start
            self.duration = duration
            self.devices = devices
            self.acceptsBackground = acceptsBackground
        }
    }

    /// Pushes sorted in memory before they go to a run file: 8 MB. The merge reads the run
    /// files through as much again, shared among them (`mergeBudget`), so the pass's memory
    /// is the same for 10⁶ rows as for 10⁸.
    public static let chunkSize = 1 << 19
    /// Entries the merge holds at once over all run files (8 MB), at least 256 a file.
    static let mergeBudget = 1 << 19

    /// Prepares the log at `path` for `target` in one pass (docs/send-log.md, "Replay"): a
    /// row of the target's topic within the run is placed at its local wall time (as written,
    /// before its offset) since the start's midnight; its user gets a device by first
    /// appearance (the first such row of each user, in file order, numbers it 0, 1, …), and
    /// users past the target's devices are left out. The pushes are sorted by (device, time)
    /// in chunks spilled to unlinked files in `scratch`, then merged into the spill.
    /// Memory: a chunk, the numbering (a device a user) and the offsets (8 bytes a device).
    /// `chunk` is the pushes sorted in memory at a time (tests shrink it to exercise the merge).
    /// - Complexity: O(n log n) in the log's rows; O(devices) memory plus a chunk.
    public static func prepare(path: String, for target: Target, scratch: String? = nil,
                               chunk chunkLimit: Int = chunkSize) throws(SendLogError) -> SendLogReplay {
        let reader = try SendLogReader(path: path)
        let directory = scratch ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var spill = try SpillWriter(directory: directory, file: reader.file)
        var numbers: [UInt64: UInt32] = [:]
        var tally = SendLogTally()
        var chunk: [UInt128] = []
        // Reserved whole: pages are resident once written, and a chunk never grows by copying.
        chunk.reserveCapacity(chunkLimit)
        var runs: [RunFile] = []
        let startWall = Int64(target.start.daysSinceEpoch) * TimeUnit.day
        while let row = try reader.next() {
            tally.rows += 1
            guard row.topic == target.topic else {
                tally.otherTopic += 1
                continue
            }
            let time = row.time.wall - startWall
            guard time >= 0, time < target.duration else {
                tally.outsideRun += 1
                continue
            }
            guard row.kind == .alert || target.acceptsBackground else {
                throw SendLogError(file: reader.file, line: row.line, reason: .backgroundWithoutBudget)
            }
            let key = userKey(row.user)
            guard let device = numbers[key] ?? assign(key, to: &numbers, devices: target.devices) else {
                tally.beyondDevices += 1
                continue
            }
            switch row.kind {
            case .alert: tally.alerts += 1
            case .background: tally.background += 1
            }
            chunk.append(UInt128(device) << 64 | UInt128(record(time: time, kind: row.kind)))
            if chunk.count >= chunkLimit {
                chunk.sort()
                runs.append(try RunFile(writing: chunk, directory: directory, file: reader.file))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        tally.users = numbers.count
        numbers = [:]
        chunk.sort()
        var offsets = [Int64](repeating: 0, count: target.devices + 1)
        if runs.isEmpty {
            for entry in chunk { try spill.append(entry, counting: &offsets) }
        } else {
            if !chunk.isEmpty { runs.append(try RunFile(writing: chunk, directory: directory, file: reader.file)) }
            chunk = []
            try merge(runs, into: &spill, counting: &offsets)
        }
        try spill.flush()
        // Counts to starts: device d's pushes begin where the devices before it end.
        var total: Int64 = 0
        for device in 0...target.devices {
            let count = offsets[device]
            offsets[device] = total
            total += count
        }
        return SendLogReplay(tally: tally, devices: target.devices, descriptor: spill.take(), offsets: offsets)
    }

    /// A user's id as a 64-bit key (FNV-1a, then SplitMix64's finalizer): the numbering holds
    /// keys, not ids. Two ids of one key (odds about n²/2⁶⁵ for n users) would share a device.
    static func userKey(_ user: String) -> UInt64 {
        StableHash.mixed(user)
    }

    private static func assign(_ key: UInt64, to numbers: inout [UInt64: UInt32], devices: Int) -> UInt32? {
        guard numbers.count < devices else { return nil }
        let device = UInt32(numbers.count)
        numbers[key] = device
        return device
    }

    /// Merges sorted run files into the spill (a binary heap of each run's next entry).
    private static func merge(_ runs: [RunFile], into spill: inout SpillWriter, counting offsets: inout [Int64]) throws(SendLogError) {
        var runs = runs
        var heap: [(entry: UInt128, run: Int)] = []
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count, heap[left + 1].entry < heap[left].entry { smallest = left + 1 }
                guard heap[smallest].entry < heap[parent].entry else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        let block = max(256, mergeBudget / max(1, runs.count))
        for index in runs.indices {
            runs[index].block = block
            if let entry = try runs[index].next() { heap.append((entry, index)) }
        }
        for index in stride(from: heap.count / 2, through: 0, by: -1) { siftDown(index) }
        while let top = heap.first {
            try spill.append(top.entry, counting: &offsets)
            if let entry = try runs[top.run].next() {
                heap[0] = (entry, top.run)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// An unlinked scratch file's descriptor, closed when the last holder lets go (a log
    /// refused halfway leaves no descriptor open), unless `take` handed it on.
    private final class ScratchFile {
        private(set) var descriptor: Int32

        init(_ descriptor: Int32) { self.descriptor = descriptor }

        deinit { close() }

        func close() {
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            descriptor = -1
        }

        /// The descriptor, now the caller's to close.
        func take() -> Int32 {
            defer { descriptor = -1 }
            return descriptor
        }
    }

    /// A sorted chunk in an unlinked scratch file, read back a block at a time.
    private struct RunFile {
        private let scratch: ScratchFile
        private var descriptor: Int32 { scratch.descriptor }
        private let count: Int
        private var read = 0
        private var buffer: [UInt128] = []
        private var position = 0
        private let file: String
        /// Entries read at a time (the merge shares its budget among the files).
        var block = 8_192

        init(writing entries: [UInt128], directory: String, file: String) throws(SendLogError) {
            self.file = file
            scratch = ScratchFile(try scratchFile(directory: directory, file: file))
            count = entries.count
            let descriptor = descriptor
            if let failure = entries.withUnsafeBytes({ writeAll(descriptor, $0, file: file) }) { throw failure }
        }

        mutating func next() throws(SendLogError) -> UInt128? {
            if position == buffer.count {
                guard read < count else {
                    scratch.close()
                    return nil
                }
                let block = min(self.block, count - read)
                let offset = off_t(read * 16)
                let descriptor = descriptor
                let file = file
                var failure: SendLogError?
                buffer = [UInt128](unsafeUninitializedCapacity: block) { storage, initialized in
                    let bytes = UnsafeMutableRawBufferPointer(storage)
                    var done = 0
                    while done < bytes.count {
                        let got = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, offset + off_t(done))
                        if got < 0, errno == EINTR { continue }
                        guard got > 0 else {
                            failure = SendLogError(file: file, line: 0, reason: .scratch(FileBytes.describe(errno)))
                            break
                        }
                        done += got
                    }
                    initialized = failure == nil ? block : 0
                }
                if let failure { throw failure }
                read += block
                position = 0
            }
            position += 1
            return buffer[position - 1]
        }
    }

    /// The spill being written: records in device order, through a buffer.
    private struct SpillWriter {
        private let scratch: ScratchFile
        private var descriptor: Int32 { scratch.descriptor }
        private var buffer: [UInt64] = []
        private let file: String

        init(directory: String, file: String) throws(SendLogError) {
            self.file = file
            scratch = ScratchFile(try scratchFile(directory: directory, file: file))
            buffer.reserveCapacity(1 << 16)
        }

        mutating func append(_ entry: UInt128, counting offsets: inout [Int64]) throws(SendLogError) {
            offsets[Int(entry >> 64)] += 1
            buffer.append(UInt64(truncatingIfNeeded: entry))
            if buffer.count == 1 << 16 { try flush() }
        }

        mutating func flush() throws(SendLogError) {
            let file = file
            let descriptor = descriptor
            if let failure = buffer.withUnsafeBytes({ writeAll(descriptor, $0, file: file) }) { throw failure }
            buffer.removeAll(keepingCapacity: true)
        }

        /// The spill's descriptor, now the replay's.
        func take() -> Int32 { scratch.take() }
    }

    /// A new file in `directory`, unlinked at once: the descriptor is all that holds it.
    private static func scratchFile(directory: String, file: String) throws(SendLogError) -> Int32 {
        // The directory's own bytes (`SystemText`), and the name mkstemp filled in read back the same way.
        var template = SystemText.bytes(of: directory + "/pushsim-sendlog-XXXXXX").map { CChar(bitPattern: $0) } + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SendLogError(file: file, line: 0, reason: .scratch(FileBytes.describe(errno)))
        }
        _ = SystemPath.unlink(SystemText.decode(template.dropLast().map { UInt8(bitPattern: $0) }))
        return descriptor
    }

    /// Writes all of `bytes`; the error, if any.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, file: String) -> SendLogError? {
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return SendLogError(file: file, line: 0, reason: .scratch(FileBytes.describe(errno))) }
            done += count
        }
        return nil
    }
}

/// Logs prepared in this process, by path and target: a sweep or a fit prepares each once.
extension SendLogReplay {
    private static let prepared = Mutex<[String: SendLogReplay]>([:])

    /// `prepare(path:for:)`, once per (path, target) in the process.
    /// - Complexity: O(1) after the first.
    public static func cached(path: String, for target: Target) throws(SendLogError) -> SendLogReplay {
        let key = "\(path)\u{0}\(target.topic)\u{0}\(target.start)\u{0}\(target.duration)\u{0}\(target.devices)\u{0}\(target.acceptsBackground)"
        if let replay = prepared.withLock({ $0[key] }) { return replay }
        let replay = try prepare(path: path, for: target)
        prepared.withLock { $0[key] = replay }
        return replay
    }
}
