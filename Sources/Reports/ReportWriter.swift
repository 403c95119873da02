import Base
import FoundationEssentials
import Glibc

/// Writes every file PushSim writes (reports, partial results, sweeps, JUnit), whole or
/// not at all: each goes to a temporary name in the target folder and is renamed into
/// place only after every one was written; if a rename fails, the reports already
/// renamed are put back, so a failure leaves the folder as it was (and takes away the
/// folders it created). It replaces only regular files: a FIFO, a device, a symbolic
/// link, a socket or a folder where a file goes is refused before anything is written
/// (a rename would replace `/dev/full` itself). Writers into one folder take turns
/// (`FolderLock`), so two runs never leave a mix of their files. Paths are handled with
/// plain string and POSIX calls on the path's own bytes (`SystemPath`;
/// `NSString.deletingLastPathComponent` traps on one-character paths in
/// swift-corelibs-foundation), and every failure names the system's reason.
public enum ReportWriter {
    /// A write that failed, with the path and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// Checks, before a long simulation, that reports can be written to `directory`:
    /// creates the missing folders, creates and deletes a probe file, then removes the
    /// folders it created. Finds a file in the way, a parent that is a file, a folder
    /// without write permission, a read-only file system, or anything but a regular file
    /// (a folder, a FIFO, a device, a symbolic link) in the place of one of the files `names`.
    /// - Complexity: O(depth of `directory` + names).
    public static func checkWritable(_ directory: String, for names: [String] = []) throws(Failure) {
        let created = try prepareDirectory(directory)
        defer { removeDirectories(created) }
        for name in names { try refuseUnlessRegular(join(directory, name)) }
        let probe = join(directory, ".pushsim-probe-\(getpid())")
        let descriptor = SystemPath.open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(description: "\(UserText.path(directory)): cannot write reports there (\(reason(errno)))")
        }
        close(descriptor)
        SystemPath.unlink(probe)
    }

    /// Refuses `path` when something other than a regular file is there: renaming over
    /// it would replace a FIFO, a device or a symbolic link (not what it points to) with
    /// a file, or fail on a folder after the simulation.
    /// - Complexity: O(n) in the path's length.
    package static func refuseUnlessRegular(_ path: String) throws(Failure) {
        guard let info = SystemPath.linkStatus(path) else { return }
        let what: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw Failure(description: "\(UserText.path(path)): exists and is a directory")
        case S_IFLNK: what = "a symbolic link"
        case S_IFIFO: what = "a FIFO"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFSOCK: what = "a socket"
        default: what = "not a regular file"
        }
        throw Failure(description: "\(UserText.path(path)): exists and is \(what), not a regular file; "
                      + "pushsim writes only regular files and leaves it as it is")
    }

    /// Writes `files` into `directory`, creating it if needed, and removes the files
    /// named in `stale` (the other kind of output: a partial result beside reports,
    /// or reports beside a partial result) in the same all-or-nothing step.
    /// `whileWaiting` is called once, with the folder, when another writer holds it
    /// (`FolderLock`): this one waits for it to finish, then writes. The files named in
    /// `privateFiles` (keys) are created with mode 0600, so no one else can read them, even
    /// for an instant; the others 0666 less the umask.
    /// - Complexity: O(total bytes).
    public static func write(_ files: [(name: String, contents: String)], to directory: String,
                             removing stale: [String] = [], privateFiles: Set<String> = [],
                             whileWaiting: (String) -> Void = { _ in }) throws(Failure) {
        try write(files, to: directory, removing: stale, privateFiles: privateFiles, whileWaiting: whileWaiting,
                  move: { SystemPath.rename($0, $1) })
    }

    /// `write(_:to:removing:whileWaiting:)` with the rename to use for the new files;
    /// tests pass one that fails to check the way back.
    /// - Complexity: O(total bytes).
    package static func write(_ files: [(name: String, contents: String)], to directory: String, removing stale: [String] = [],
                              privateFiles: Set<String> = [], whileWaiting: (String) -> Void = { _ in },
                              move: (String, String) -> Int32) throws(Failure) {
        let suffix = "-\(getpid())"
        // A signal while the temporary files are written deletes them and the new folders.
        try WritePhaseSignals.guarding(temporaries: files.map { join(directory, "." + $0.name + ".partial" + suffix) },
                                       folders: missingDirectories(directory)) { commit throws(Failure) in
            // The folder is ours alone from its check to the last rename: another
            // pushsim writing there finishes first, so the folder holds one run's files.
            let (lock, created) = try FolderLock.acquire(directory, prepare: prepareDirectory, whileWaiting: whileWaiting)
            defer { lock.release() }
            try write(files, to: directory, created: created, removing: stale, privateFiles: privateFiles, move: move, suffix: suffix,
                      commit: commit)
        }
    }

    /// Test-only: `PUSHSIM_TEST_PAUSE_BEFORE_COMMIT=<seconds>` pauses once the temporary
    /// files are written, so a test can signal the process in the write phase.
    package static let testPauseBeforeCommit: UInt32? = ProcessInfo.processInfo.environment["PUSHSIM_TEST_PAUSE_BEFORE_COMMIT"]
        .flatMap { UInt32($0) }

    /// The write itself; `commit` is called once the temporary files are written.
    private static func write(_ files: [(name: String, contents: String)], to directory: String, created: [String],
                              removing stale: [String], privateFiles: Set<String>, move: (String, String) -> Int32, suffix: String,
                              commit: () -> Void) throws(Failure) {
        var written: [(temporary: String, final: String)] = []
        var kept: [String?] = []
        var stashed: [(backup: String, final: String)] = []
        func cleanUp() {
            for file in written { SystemPath.unlink(file.temporary) }
            for case let backup? in kept { SystemPath.unlink(backup) }
            for file in stashed { SystemPath.rename(file.backup, file.final) }
            removeDirectories(created)
        }
        // Refused before anything is written: nothing to take back.
        do {
            for file in files { try refuseUnlessRegular(join(directory, file.name)) }
        } catch {
            removeDirectories(created)
            throw error
        }
        for file in files {
            let final = join(directory, file.name), temporary = join(directory, "." + file.name + ".partial" + suffix)
            // A leftover of a process that had this id is replaced, never followed if a link.
            SystemPath.unlink(temporary)
            if let problem = writeFile(temporary, Array(file.contents.utf8), mode: privateFiles.contains(file.name) ? 0o600 : 0o666) {
                SystemPath.unlink(temporary)
                cleanUp()
                throw Failure(description: "\(UserText.path(final)): cannot write (\(problem))")
            }
            written.append((temporary, final))
        }
        if let seconds = testPauseBeforeCommit { sleep(seconds) }
        commit()
        // Keep each report being replaced under a second name (a hard link, so it stays
        // in place meanwhile): if a rename fails half-way, the earlier ones go back.
        for (file, name) in zip(written, files.map(\.name)) {
            guard let isDirectory = kind(of: file.final) else { kept.append(nil); continue }
            guard !isDirectory else {
                cleanUp()
                throw Failure(description: "\(UserText.path(file.final)): exists and is a directory")
            }
            let backup = join(directory, "." + name + ".previous" + suffix)
            SystemPath.unlink(backup)
            if SystemPath.link(file.final, backup) != 0 {
                // A file system without hard links: keep a copy instead.
                let linkReason = reason(errno)
                guard let bytes = try? FileBytes.read(path: file.final),
                      writeFile(backup, bytes, mode: privateFiles.contains(name) ? 0o600 : 0o666) == nil else {
                    SystemPath.unlink(backup)
                    cleanUp()
                    throw Failure(description: "\(UserText.path(file.final)): cannot keep the previous report while replacing it (\(linkReason))")
                }
            }
            kept.append(backup)
        }
        // The other kind of output moves aside now and goes for good only on success.
        for name in stale where kind(of: join(directory, name)) == false {
            let final = join(directory, name), backup = join(directory, "." + name + ".stale" + suffix)
            guard SystemPath.rename(final, backup) == 0 else {
                let problem = reason(errno)
                cleanUp()
                throw Failure(description: "\(UserText.path(final)): cannot remove (\(problem))")
            }
            stashed.append((backup, final))
        }
        for (index, file) in written.enumerated() {
            // rename(2) replaces the old report atomically.
            guard move(file.temporary, file.final) == 0 else {
                let problem = reason(errno)
                for (undone, placed) in written[..<index].enumerated() {
                    if let backup = kept[undone] {
                        if SystemPath.rename(backup, placed.final) == 0 { kept[undone] = nil }   // back in place
                    } else {
                        SystemPath.unlink(placed.final)   // no report had that name before
                    }
                }
                cleanUp()
                throw Failure(description: "\(UserText.path(file.final)): cannot move into place (\(problem))")
            }
        }
        for case let backup? in kept { SystemPath.unlink(backup) }
        for file in stashed { SystemPath.unlink(file.backup) }
    }

    /// Checks that `directory` is a folder, creating it and the missing folders above
    /// it; returns the ones it created (see `makeDirectories`).
    /// - Complexity: O(depth).
    package static func prepareDirectory(_ directory: String) throws(Failure) -> [String] {
        switch kind(of: directory) {
        case true?: return []
        case false?: throw Failure(description: "\(UserText.path(directory)): exists and is not a directory")
        case nil: return try makeDirectories(directory)
        }
    }

    /// Creates `directory` and the missing folders above it, and returns the ones
    /// it created, outermost first, so a failure can take them away again. A folder
    /// another process creates meanwhile is used, not counted as created.
    /// - Complexity: O(depth).
    package static func makeDirectories(_ directory: String) throws(Failure) -> [String] {
        var created: [String] = []
        for folder in missingDirectories(directory) {
            if SystemPath.mkdir(folder, 0o777) == 0 {
                created.append(folder)
            } else if errno != EEXIST {
                let problem = reason(errno)
                removeDirectories(created)
                throw Failure(description: "\(UserText.path(directory)): cannot create the folder (\(problem))")
            }
        }
        return created
    }

    /// `directory` and the folders above it that do not exist, outermost first.
    /// - Complexity: O(depth).
    package static func missingDirectories(_ directory: String) -> [String] {
        var missing: [String] = []
        var current: String? = directory
        while let folder = current, SystemPath.access(folder, F_OK) != 0 {
            missing.append(folder)
            current = parent(of: folder)
        }
        return missing.reversed()
    }

    /// Removes folders `makeDirectories` created, innermost first; one that is no
    /// longer empty (another run wrote there) stays.
    /// - Complexity: O(count).
    package static func removeDirectories(_ created: [String]) {
        for folder in created.reversed() { SystemPath.rmdir(folder) }
    }

    /// The folder that holds `path`, or nil for a relative name of one component
    /// (its parent is the working directory) and for `/`. Trailing slashes are not
    /// components: the parent of `a/b/` is `a`.
    /// - Complexity: O(n) in the path's length.
    package static func parent(of path: String) -> String? {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard bytes != [UInt8(ascii: "/")], let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        var parent = bytes[..<slash]
        while parent.count > 1, parent.last == UInt8(ascii: "/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }

    /// `directory/name`, with one slash between.
    /// - Complexity: O(n) in the lengths.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Whether something is at `path` (following symbolic links): nil if nothing, else
    /// whether it is a folder.
    /// - Complexity: O(1).
    package static func kind(of path: String) -> Bool? {
        guard let info = SystemPath.status(path) else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates or truncates `path` and writes `bytes`; nil, or the system's reason. A
    /// symbolic link at `path` is refused, not followed.
    /// - Complexity: O(n) in the byte count.
    package static func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o666) -> String? {
        let descriptor = SystemPath.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return reason(errno) }
        var rest = bytes[...]
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let problem = reason(errno)
                close(descriptor)
                return problem
            }
            rest = rest.dropFirst(count)
        }
        // A network file system may report a failed write only when the file closes.
        return close(descriptor) == 0 ? nil : reason(errno)
    }

    /// The system's description of an errno value, e.g. "Permission denied".
    /// - Complexity: O(1).
    package static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
