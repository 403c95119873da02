import Foundation

/// Writes report files whole or not at all: each goes to a temporary name in the
/// target folder and is renamed into place only after every one was written, so
/// a failure leaves the folder as it was.
public enum ReportWriter {
    /// A write that failed, with the path.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// Writes `files` into `directory`, creating it if needed.
    /// - Complexity: O(total bytes).
    public static func write(_ files: [(name: String, contents: String)], to directory: String) throws(Failure) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "\(directory): exists and is not a directory") }
        } else {
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "\(directory): cannot create the folder (\(error.localizedDescription))")
            }
        }
        let suffix = ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        var written: [(temporary: String, final: String)] = []
        func cleanUp() { for file in written { try? manager.removeItem(atPath: file.temporary) } }
        for file in files {
            let final = (directory as NSString).appendingPathComponent(file.name)
            let temporary = (directory as NSString).appendingPathComponent("." + file.name + suffix)
            guard manager.createFile(atPath: temporary, contents: Data(file.contents.utf8)) else {
                cleanUp()
                throw Failure(description: "\(final): cannot write")
            }
            written.append((temporary, final))
        }
        for file in written {
            // rename(2) replaces the old report atomically.
            guard rename(file.temporary, file.final) == 0 else {
                cleanUp()
                throw Failure(description: "\(file.final): cannot move into place (\(String(cString: strerror(errno))))")
            }
        }
    }
}
