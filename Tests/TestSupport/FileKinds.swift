import Foundation

/// Entries that are not regular files, made where a report goes: what the tests of
/// "outputs replace only regular files" put in the way.
package enum FileKinds {
    /// Why an entry could not be made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The kinds `make` knows, as `ReportWriter`'s refusal names them.
    package static let all = ["a FIFO", "a symbolic link", "a dangling symbolic link", "a socket"]

    /// The kind of entry at `path` (`S_IFREG`, `S_IFIFO`, …), symbolic links not followed; nil if none.
    package static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// How the refusal names `what` ("a dangling symbolic link" is a symbolic link).
    package static func shown(_ what: String) -> String { what == "a dangling symbolic link" ? "a symbolic link" : what }

    /// Makes `what` (one of `all`) at `path`: a symbolic link points at `notes.txt` beside it.
    package static func make(_ what: String, at path: String) throws(Failure) {
        let made: Bool
        switch what {
        case "a FIFO": made = mkfifo(path, 0o644) == 0
        case "a symbolic link": made = symlink("notes.txt", path) == 0
        case "a dangling symbolic link": made = symlink("nowhere/at/all", path) == 0
        case "a socket":
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
                throw Failure(description: "\(path) is too long for a socket")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
            }
            made = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            } == 0
        default:
            throw Failure(description: "unknown kind \(what)")
        }
        guard made else { throw Failure(description: "cannot make \(what) at \(path): \(String(cString: strerror(errno)))") }
    }

    /// glibc's `makedev` (a macro Swift does not import): Linux's encoding of a device number.
    package static func device(major: UInt64, minor: UInt64) -> dev_t {
        dev_t((minor & 0xFF) | ((major & 0xFFF) << 8) | ((minor & ~0xFF) << 12) | ((major & ~0xFFF) << 32))
    }
}
