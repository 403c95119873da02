import FoundationEssentials
import Glibc

/// The system calls PushSim makes on paths, each handed the path's own bytes
/// (`SystemText`): a path given as `r\xff` is opened, created or renamed as `r\xff`,
/// never as its lossy decoding. Swift's implicit `String` to C string conversion would
/// write the escape scalars as UTF-8, so paths go to the system only through here.
package enum SystemPath {
    /// `open(2)`.
    /// - Complexity: O(n) in the path's length.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        SystemText.withCString(path) { Glibc.open($0, flags, mode) }
    }

    /// `mkdir(2)`.
    /// - Complexity: O(n) in the path's length.
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        SystemText.withCString(path) { Glibc.mkdir($0, mode) }
    }

    /// `rmdir(2)`.
    /// - Complexity: O(n) in the path's length.
    @discardableResult
    package static func rmdir(_ path: String) -> Int32 { SystemText.withCString(path) { Glibc.rmdir($0) } }

    /// `unlink(2)`.
    /// - Complexity: O(n) in the path's length.
    @discardableResult
    package static func unlink(_ path: String) -> Int32 { SystemText.withCString(path) { Glibc.unlink($0) } }

    /// `rename(2)`.
    /// - Complexity: O(n) in the paths' length.
    @discardableResult
    package static func rename(_ from: String, _ to: String) -> Int32 {
        SystemText.withCString(from) { source in SystemText.withCString(to) { Glibc.rename(source, $0) } }
    }

    /// `link(2)`.
    /// - Complexity: O(n) in the paths' length.
    package static func link(_ from: String, _ to: String) -> Int32 {
        SystemText.withCString(from) { source in SystemText.withCString(to) { Glibc.link(source, $0) } }
    }

    /// `access(2)`.
    /// - Complexity: O(n) in the path's length.
    package static func access(_ path: String, _ mode: Int32) -> Int32 {
        SystemText.withCString(path) { Glibc.access($0, mode) }
    }

    /// `stat(2)` (following symbolic links); nil when it fails (errno says why).
    /// - Complexity: O(n) in the path's length.
    package static func status(_ path: String) -> stat? {
        var info = stat()
        return SystemText.withCString(path) { stat($0, &info) } == 0 ? info : nil
    }

    /// `lstat(2)`: the entry itself, a symbolic link not followed; nil when it fails.
    /// - Complexity: O(n) in the path's length.
    package static func linkStatus(_ path: String) -> stat? {
        var info = stat()
        return SystemText.withCString(path) { lstat($0, &info) } == 0 ? info : nil
    }

    /// `strdup(3)` of the path's bytes, for a signal handler that may not build one.
    /// - Complexity: O(n) in the path's length.
    package static func duplicate(_ path: String) -> UnsafeMutablePointer<CChar>? {
        SystemText.withCString(path) { strdup($0) }
    }
}
