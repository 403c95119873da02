import Foundation

/// Writes report files whole or not at all: each goes to a temporary name in the
/// target folder and is renamed into place only after every one was written; if a
/// rename fails, the reports already renamed are put back, so a failure leaves the
/// folder as it was (and takes away the folders it created).
public enum ReportWriter {
    /// A write that failed, with the path.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// Writes `files` into `directory`, creating it if needed. `move` is rename(2);
    /// tests pass one that fails to check the way back.
    /// - Complexity: O(total bytes).
    public static func write(_ files: [(name: String, contents: String)], to directory: String) throws(Failure) {
        try write(files, to: directory, move: { rename($0, $1) })
    }

    /// `write(_:to:)` with the rename to use.
    /// - Complexity: O(total bytes).
    static func write(_ files: [(name: String, contents: String)], to directory: String,
                      move: (String, String) -> Int32) throws(Failure) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        var created: [String] = []
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "\(directory): exists and is not a directory") }
        } else {
            created = try makeDirectories(directory)
        }
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let suffix = "-\(ProcessInfo.processInfo.processIdentifier)"
        var written: [(temporary: String, final: String)] = []
        var kept: [String?] = []
        func cleanUp() {
            for file in written { try? manager.removeItem(atPath: file.temporary) }
            for case let backup? in kept { try? manager.removeItem(atPath: backup) }
            removeDirectories(created)
        }
        for file in files {
            let final = path(file.name), temporary = path("." + file.name + ".partial" + suffix)
            guard manager.createFile(atPath: temporary, contents: Data(file.contents.utf8)) else {
                cleanUp()
                throw Failure(description: "\(final): cannot write")
            }
            written.append((temporary, final))
        }
        // Keep each report being replaced under a second name (a hard link, so it stays
        // in place meanwhile): if a rename fails half-way, the earlier ones go back.
        for (file, name) in zip(written, files.map(\.name)) {
            var existingIsDirectory: ObjCBool = false
            guard manager.fileExists(atPath: file.final, isDirectory: &existingIsDirectory) else { kept.append(nil); continue }
            guard !existingIsDirectory.boolValue else {
                cleanUp()
                throw Failure(description: "\(file.final): exists and is a directory")
            }
            let backup = path("." + name + ".previous" + suffix)
            try? manager.removeItem(atPath: backup)
            guard link(file.final, backup) == 0 || (try? manager.copyItem(atPath: file.final, toPath: backup)) != nil else {
                cleanUp()
                throw Failure(description: "\(file.final): cannot keep the previous report while replacing it")
            }
            kept.append(backup)
        }
        for (index, file) in written.enumerated() {
            // rename(2) replaces the old report atomically.
            guard move(file.temporary, file.final) == 0 else {
                let reason = String(cString: strerror(errno))
                for (undone, placed) in written[..<index].enumerated() {
                    if let backup = kept[undone] {
                        if rename(backup, placed.final) == 0 { kept[undone] = nil }   // back in place
                    } else {
                        unlink(placed.final)   // no report had that name before
                    }
                }
                cleanUp()
                throw Failure(description: "\(file.final): cannot move into place (\(reason))")
            }
        }
        for case let backup? in kept { try? manager.removeItem(atPath: backup) }
    }

    /// Creates `directory` and the missing folders above it, and returns the ones
    /// it created, outermost first, so a failure can take them away again. A folder
    /// another process creates meanwhile is used, not counted as created.
    /// - Complexity: O(depth).
    static func makeDirectories(_ directory: String) throws(Failure) -> [String] {
        var missing: [String] = []
        var current = directory
        while !current.isEmpty && access(current, F_OK) != 0 {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        var created: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) == 0 {
                created.append(folder)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                removeDirectories(created)
                throw Failure(description: "\(directory): cannot create the folder (\(reason))")
            }
        }
        return created
    }

    /// Removes folders `makeDirectories` created, innermost first; one that is no
    /// longer empty (another run wrote there) stays.
    /// - Complexity: O(count).
    static func removeDirectories(_ created: [String]) {
        for folder in created.reversed() { rmdir(folder) }
    }
}
