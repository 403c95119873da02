import FoundationEssentials
import Glibc

/// Where a command reads and writes: a scenario given as `-` from `input`, results
/// to `out`, messages to `err`. Injected so tests can run the CLI in-process.
public struct Console: Sendable {
    /// Standard output.
    public var out: @Sendable (String) -> Void
    /// Standard error.
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress is shown only then).
    public var errIsTerminal: Bool
    /// The descriptor read for a scenario given as `-` (standard input); never closed.
    public var input: Int32

    /// A console.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                errIsTerminal: Bool = false, input: Int32 = STDIN_FILENO) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
        self.input = input
    }

    /// The process's standard streams. Results that cannot reach standard output
    /// (a full disk, a closed descriptor) end the process with exit code 1 and one
    /// line on standard error; a failure to write standard error is ignored.
    public static var standard: Console {
        Console(out: { text in
                    if let problem = writeAll(text, to: STDOUT_FILENO) {
                        _ = writeAll("error: cannot write to standard output: \(problem)\n", to: STDERR_FILENO)
                        exit(ExitCode.failure.rawValue)
                    }
                },
                err: { _ = writeAll($0, to: STDERR_FILENO) },
                errIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Writes all of `text` to `descriptor`, retrying short and interrupted writes.
    /// Returns nil, or the system's description of what went wrong.
    /// (`FileHandle.write(_:)` traps on an error instead.)
    /// - Complexity: O(n) in the text's UTF-8 length.
    package static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}
