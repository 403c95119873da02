@testable import CLI
import Foundation
import Synchronization

/// A console that keeps what a command writes, for running the CLI in-process;
/// `input` is the descriptor `-` reads (standard input unless a test hands it a pipe).
final class CapturedConsole: Sendable {
    private let streams = Mutex<(out: String, err: String)>(("", ""))
    let input: Int32

    init(input: Int32 = STDIN_FILENO) { self.input = input }

    var console: Console {
        Console(out: { [self] text in streams.withLock { $0.out += text } },
                err: { [self] text in streams.withLock { $0.err += text } }, input: input)
    }

    /// What went to standard output so far.
    var out: String { streams.withLock { $0.out } }
    /// What went to standard error so far.
    var err: String { streams.withLock { $0.err } }
}
