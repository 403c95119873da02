import FoundationEssentials
import Glibc
import Reports

/// Signals that would end the process without a word on a broken stream: ignored at
/// startup, so the failed write returns an error instead (EPIPE: exit 1 with one line
/// on stderr; EFBIG past `ulimit -f`: the write phase cleans up and exits 1).
public enum ProcessSignals {
    /// Ignores SIGPIPE and SIGXFSZ for the process, and unblocks SIGINT, SIGTERM and
    /// SIGHUP on the main thread: a parent may hand down a mask that blocks them
    /// (Foundation's `Process` on Linux does), and then Ctrl-C or `kill` would wait for
    /// the end of the run instead of stopping it and cleaning up (`WritePhaseSignals`).
    /// - Complexity: O(1).
    public static func ignoreBrokenStreams() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for stop in WritePhaseSignals.handled { sigaddset(&stopping, stop) }
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    }
}
