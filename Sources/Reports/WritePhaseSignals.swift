import Base
import FoundationEssentials
import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP while `ReportWriter` writes: during the temporary files
/// (the long part) the handler deletes them and the folders the write created, then
/// dies of the signal as it would have; during the commit (the renames, a few
/// system calls) the signal waits for the commit to finish, so the folder holds the
/// old reports or the new ones, never a mix. The handler only calls `unlink`,
/// `rmdir`, `sigaction` and `raise` (async-signal-safe) on C strings made
/// beforehand; one write phase is active at a time in a process.
package enum WritePhaseSignals {
    /// The signals that end a write early.
    package static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// 0: no write phase; 1: writing the temporary files; 2: committing.
    private static let phase = Atomic<Int>(0)
    /// A signal that came during the commit, raised again once it is done; 0: none.
    private static let pending = Atomic<Int32>(0)
    /// Serialises write phases (tests write from several threads in one process).
    private static let exclusive = Mutex<Int>(0)

    // Read by the handler only while `phase` is not 0; written only while it is 0.
    nonisolated(unsafe) private static var files: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) private static var fileCount = 0
    nonisolated(unsafe) private static var folders: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) private static var folderCount = 0
    nonisolated(unsafe) private static var previous: [(signal: Int32, action: sigaction)] = []

    /// Runs `body` (the whole write) with the handlers installed: `temporaries` are the
    /// files to delete and `folders` (outermost first) those to remove if a signal comes
    /// before `commit` is called. Restores the previous handlers after, and then raises
    /// a signal that came during the commit.
    /// - Complexity: O(paths) besides `body`.
    package static func guarding<Result>(temporaries: [String], folders newFolders: [String],
                                 _ body: (_ commit: () -> Void) throws(ReportWriter.Failure) -> Result)
        throws(ReportWriter.Failure) -> Result {
        try exclusive.withLock { (_: inout Int) throws(ReportWriter.Failure) -> Result in
            (files, fileCount) = cStrings(temporaries)
            (folders, folderCount) = cStrings(newFolders)
            pending.store(0, ordering: .sequentiallyConsistent)
            phase.store(1, ordering: .sequentiallyConsistent)
            install()
            defer {
                restore()
                phase.store(0, ordering: .sequentiallyConsistent)
                free(&files, fileCount)
                free(&folders, folderCount)
                let signal = pending.exchange(0, ordering: .sequentiallyConsistent)
                if signal != 0 {
                    // Dies of the signal it was sent, now that the folder is whole.
                    Glibc.signal(signal, SIG_DFL)
                    raise(signal)
                }
            }
            return try body { phase.store(2, ordering: .sequentiallyConsistent) }
        }
    }

    private static func install() {
        previous = []
        for signal in handled {
            var old = sigaction()
            sigaction(signal, nil, &old)
            // A signal the user chose to ignore (nohup) stays ignored.
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
            previous.append((signal, old))
        }
    }

    private static func restore() {
        for (signal, old) in previous {
            var action = old
            sigaction(signal, &action, nil)
        }
        previous = []
    }

    /// The handler: async-signal-safe calls only.
    private static let handler: @convention(c) (Int32) -> Void = { signal in
        switch WritePhaseSignals.phase.load(ordering: .sequentiallyConsistent) {
        case 2:
            WritePhaseSignals.pending.store(signal, ordering: .sequentiallyConsistent)
            return
        case 1:
            if let files = WritePhaseSignals.files {
                for index in 0..<WritePhaseSignals.fileCount { if let path = files[index] { unlink(path) } }
            }
            if let folders = WritePhaseSignals.folders {
                // Innermost first; one another process wrote into is not empty and stays.
                for index in stride(from: WritePhaseSignals.folderCount - 1, through: 0, by: -1) {
                    if let path = folders[index] { rmdir(path) }
                }
            }
        default:
            break
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        raise(signal)
    }

    private static func cStrings(_ strings: [String]) -> (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int) {
        guard !strings.isEmpty else { return (nil, 0) }
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count)
        for (index, string) in strings.enumerated() { array[index] = SystemPath.duplicate(string) }
        return (array, strings.count)
    }

    private static func free(_ array: inout UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: Int) {
        guard let pointers = array else { return }
        array = nil
        for index in 0..<count { Glibc.free(pointers[index]) }
        pointers.deallocate()
    }
}
