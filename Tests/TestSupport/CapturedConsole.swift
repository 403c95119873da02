import CLI
import Foundation
import Synchronization

/// A console that keeps what a command writes, for running the CLI in-process;
/// `input` is the descriptor `-` reads (standard input unless a test hands it a pipe).
package final class CapturedConsole: Sendable {
    private let streams = Mutex<(out: String, err: String)>(("", ""))
    package let input: Int32

    package init(input: Int32 = STDIN_FILENO) { self.input = input }

    package var console: Console {
        Console(out: { [self] text in streams.withLock { $0.out += text } },
                err: { [self] text in streams.withLock { $0.err += text } }, input: input)
    }

    /// What went to standard output so far.
    package var out: String { streams.withLock { $0.out } }
    /// What went to standard error so far.
    package var err: String { streams.withLock { $0.err } }

    /// Runs `pushsim` in-process with `arguments`: the exit code and what it printed.
    package static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let captured = CapturedConsole()
        let code = PushSimCommand.main(arguments, console: captured.console)
        return (code, captured.out, captured.err)
    }
}
