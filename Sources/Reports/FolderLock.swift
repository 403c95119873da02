import Base
import FoundationEssentials
import Glibc

/// An exclusive lock on an output folder for one whole write (`ReportWriter`): two
/// pushsims writing into one `--out` at once each rename their files one by one, and
/// without it the folder could end with some files of one run and some of the other.
/// The second writer waits: the lock is held only while files rendered in memory are
/// written and renamed (seconds at most), and failing instead would throw away a
/// simulation that may have taken hours. It is `flock(2)` on the folder itself, so
/// nothing is left in the folder, and the lock goes with the process however it ends.
/// A file system that cannot lock folders (NFS answers `flock` on one with EBADF or
/// ENOLCK) is written unlocked, as before the lock existed.
package struct FolderLock {
    /// The folder's open descriptor holding the lock; -1 when unlocked.
    private let descriptor: Int32

    /// Prepares `directory` (`prepare` creates what is missing and returns the folders it
    /// created) and locks it, first calling `whileWaiting` once with it when another writer
    /// holds it. If the folder was removed or replaced while this one waited (a writer that
    /// created it failed and took it away), it is prepared and locked again.
    /// - Complexity: O(depth of `directory`) besides the wait.
    package static func acquire(_ directory: String, prepare: (String) throws(ReportWriter.Failure) -> [String],
                                whileWaiting: (String) -> Void) throws(ReportWriter.Failure)
        -> (lock: FolderLock, created: [String]) {
        var created: [String] = []
        var noted = false
        while true {
            do { created += try prepare(directory) } catch {
                ReportWriter.removeDirectories(created)
                throw error
            }
            let descriptor = SystemPath.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let problem = ReportWriter.reason(errno)
                ReportWriter.removeDirectories(created)
                throw ReportWriter.Failure(description: "\(UserText.path(directory)): cannot open the folder to write there (\(problem))")
            }
            switch lock(descriptor, whileWaiting: { if !noted { noted = true; whileWaiting(directory) } }) {
            case .held:
                // The folder locked must still be the one at `directory`.
                var held = stat()
                if fstat(descriptor, &held) == 0, let current = SystemPath.status(directory),
                   current.st_dev == held.st_dev, current.st_ino == held.st_ino {
                    return (FolderLock(descriptor: descriptor), created)
                }
                close(descriptor)
            case .unsupported:
                close(descriptor)
                return (FolderLock(descriptor: -1), created)
            }
        }
    }

    /// Whether a lock was taken.
    private enum Taken {
        case held
        /// The file system does not lock folders.
        case unsupported
    }

    /// Locks the open folder, waiting (after calling `whileWaiting`) while another holds it.
    private static func lock(_ descriptor: Int32, whileWaiting: () -> Void) -> Taken {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .held }
        guard errno == EWOULDBLOCK || errno == EINTR else { return .unsupported }
        whileWaiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return .unsupported }
        }
        return .held
    }

    /// Releases the lock: the folder is free for the next writer.
    /// - Complexity: O(1).
    package func release() {
        if descriptor >= 0 { close(descriptor) }
    }
}
