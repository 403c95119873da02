import FoundationEssentials
import Glibc

/// Why a file could not be read, in a few words ("no such file").
/// Interpolated in a message it reads as its reason alone: `error: AuthKey.p8: no such file`.
package struct FileReadError: Error, Equatable, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
}

/// Reads whole files with plain POSIX calls, so that a pipe, a FIFO,
/// `/dev/stdin` or `<(…)` reads like a regular file (`FileManager.contents(atPath:)`
/// returns nil for anything but a regular file, and never says why). Callers read
/// a file once and keep the bytes: a pipe cannot be read twice.
package enum FileBytes {
    /// The argument that means standard input.
    package static let standardInputArgument = "-"
    /// How messages name standard input.
    package static let standardInputName = "<stdin>"

    /// How messages name the file an argument designates: `<stdin>` for `-`.
    /// - Complexity: O(1).
    package static func displayName(_ argument: String) -> String {
        argument == standardInputArgument ? standardInputName : argument
    }

    /// The bytes of the file at `path`; `-` reads `standardInput` to its end. A file of
    /// more than `limit` bytes is refused once that much is read (`/dev/zero` never ends;
    /// a huge file would be held whole before the parser saw its first byte).
    /// - Complexity: O(min(n, limit)) in the file's size.
    package static func read(path: String, standardInput: Int32 = STDIN_FILENO, limit: Int = .max) throws(FileReadError) -> [UInt8] {
        if path == standardInputArgument { return try read(descriptor: standardInput, limit: limit) }
        // The path's own bytes (`SystemText`): a file named `s\xff.json` is that file.
        let descriptor = SystemPath.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileReadError(reason: describe(errno)) }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, limit: limit)
    }

    /// The bytes of an open descriptor, read to its end (or past `limit`: an error); the
    /// descriptor stays open.
    /// - Complexity: O(min(n, limit)) in the bytes read.
    package static func read(descriptor: Int32, limit: Int = .max) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                guard count <= limit - bytes.count else {
                    throw FileReadError(reason: "larger than \(sizeText(limit)), the most pushsim reads")
                }
                bytes.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw FileReadError(reason: describe(errno))
            }
        }
    }

    /// A byte count in MB (or GB) for messages: "16 MB".
    /// - Complexity: O(1).
    package static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : "\(bytes >> 20) MB"
    }

    /// The usual reasons in the words the CLI has always used; others as the system says.
    package static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EISDIR: "it is a directory"
        case EACCES: "permission denied"
        case EBADF: "not open for reading"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
