import Foundation
import Glibc
import Synchronization

/// A child process for tests (curl, openssl, Python peers, the built `pushsim`), with the
/// part of Foundation's `Process` the tests use, started by `posix_spawn`.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation 6.3's `Process.run()` scans
/// `/proc/self/fd` and copies each entry's `d_name` as a 256-octet value whatever the entry's
/// length (swiftlang/swift-corelibs-foundation#5472, fixed after 6.3). When the last entry
/// lies near the end of a mapped page the copy reads past it and the whole test process gets
/// SIGSEGV: one full `swift test`, which starts hundreds of children, died so in CI.
/// Here nothing is scanned: the child closes every descriptor above 2 itself
/// (`posix_spawn_file_actions_addclosefrom_np`), which also keeps one test's pipes out of
/// another test's child, so that each reader sees its end of file.
///
/// The child starts as from a shell: no signal blocked, every signal's action the default
/// (a test thread may block SIGTERM; Foundation passed that mask on).
///
/// Thread-safe: one thread may wait while another asks `isRunning` or terminates.
public final class ChildProcess: @unchecked Sendable {
    /// How the child ended.
    public enum TerminationReason: Sendable, Equatable {
        /// It called `exit`: `terminationStatus` is the exit status.
        case exit
        /// A signal ended it: `terminationStatus` is the signal's number.
        case uncaughtSignal
    }

    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, the program's name not among them.
    public var arguments: [String] = []
    /// Its whole environment; nil: this process's.
    public var environment: [String: String]?
    /// Where it starts; nil: this process's current directory.
    public var currentDirectoryURL: URL?
    /// Each a `Pipe` (the child gets the end it needs, and this process closes that end once
    /// the child has it, as `Process` does), a `FileHandle` (`FileHandle.nullDevice`: /dev/null),
    /// or nil for this process's own.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private enum State {
        case notStarted
        case running(pid_t)
        case ended(pid_t, status: Int32)
    }

    private let state = Mutex(State.notStarted)

    public init() {}

    /// A launch that failed: what, and `errno`'s text.
    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the child.
    /// - Throws: `LaunchError` when it cannot start (no such program, say).
    public func run() throws {
        guard let path = executableURL?.path else { throw LaunchError(description: "no executable given") }
        guard case .notStarted = state.withLock({ $0 }) else { throw LaunchError(description: "\(path) was already started") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32)] = [(standardInput, 0), (standardOutput, 1), (standardError, 2)]
        for (stream, target) in streams {
            let failure: Int32
            switch Self.childEnd(of: stream, target: target) {
            case .inherited: continue
            case .nullDevice: failure = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case .descriptor(let source): failure = posix_spawn_file_actions_adddup2(&actions, source, target)
            }
            guard failure == 0 else { throw LaunchError(description: "cannot give \(path) descriptor \(target): \(String(cString: strerror(failure)))") }
        }
        if let directory = currentDirectoryURL?.path {
            try Self.addChangeDirectory(&actions, directory)
        }
        Self.addCloseFrom3(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) }
        let environmentText = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let envp = environmentText?.map { strdup($0) }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let failure = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            return posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, environ)
        }
        guard failure == 0 else { throw LaunchError(description: "cannot start \(path): \(String(cString: strerror(failure)))") }
        state.withLock { $0 = .running(pid) }
        // The child has its ends: this process's copies would keep a reader from its end of file.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        if let pipe = standardOutput as? Pipe { try? pipe.fileHandleForWriting.close() }
        if let pipe = standardError as? Pipe { try? pipe.fileHandleForWriting.close() }
    }

    /// What the child gets as descriptor `target`.
    private enum ChildEnd {
        case inherited
        /// `FileHandle.nullDevice`, which has no descriptor (-1): the child opens /dev/null.
        case nullDevice
        case descriptor(Int32)
    }

    private static func childEnd(of stream: Any?, target: Int32) -> ChildEnd {
        switch stream {
        case let pipe as Pipe: .descriptor(target == 0 ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor)
        case let handle as FileHandle: handle === FileHandle.nullDevice || handle.fileDescriptor < 0 ? .nullDevice : .descriptor(handle.fileDescriptor)
        default: .inherited
        }
    }

    // glibc declares these two for _GNU_SOURCE only, which Swift's Glibc module does not
    // import: they are looked up by name (glibc 2.29 and 2.34).
    private typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let changeDirectory: AddChangeDirectory? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChangeDirectory.self) }
    private static let closeFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) throws {
        guard let changeDirectory else { throw LaunchError(description: "this C library cannot start a child in another folder (glibc 2.29 can)") }
        let failure = changeDirectory(&actions, directory)
        guard failure == 0 else { throw LaunchError(description: "cannot start in \(directory): \(String(cString: strerror(failure)))") }
    }

    /// The child closes every descriptor above 2. Before glibc 2.34, this process marks its
    /// own close-on-exec instead (a descriptor opened meanwhile by another thread may then
    /// reach the child, as with `Process`).
    private static func addCloseFrom3(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom {
            _ = closeFrom(&actions, 3)
            return
        }
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            // The name read in place, up to its NUL: never copied as the 256-octet field.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) } }
            if let descriptor = Int32(name), descriptor > 2, descriptor != own {
                _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            }
        }
    }

    /// The child's process ID; 0 before `run`.
    public var processIdentifier: Int32 {
        switch state.withLock({ $0 }) {
        case .notStarted: 0
        case .running(let pid), .ended(let pid, _): pid
        }
    }

    /// Whether the child has started and not ended. Collects its status once it has.
    public var isRunning: Bool {
        switch state.withLock({ $0 }) {
        case .notStarted, .ended: return false
        case .running(let pid): return !collect(pid, blocking: false)
        }
    }

    /// Waits until the child has ended.
    public func waitUntilExit() {
        guard case .running(let pid) = state.withLock({ $0 }) else { return }
        _ = collect(pid, blocking: true)
    }

    /// Collects the child's status when it has ended (waiting for it when `blocking`): whether it has.
    private func collect(_ pid: pid_t, blocking: Bool) -> Bool {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid {
                state.withLock { $0 = .ended(pid, status: status) }
                return true
            }
            if result == 0 { return false }
            if errno == EINTR { continue }
            // ECHILD: another thread collected it; its status is recorded in a moment.
            while case .running = state.withLock({ $0 }) { usleep(1_000) }
            return true
        }
    }

    /// The raw status; the child must have ended.
    private var endedStatus: Int32 {
        if isRunning { preconditionFailure("the child \(processIdentifier) is still running") }
        guard case .ended(_, let status) = state.withLock({ $0 }) else { preconditionFailure("the child was never started") }
        return status
    }

    /// Whether it exited or a signal ended it.
    /// - Precondition: the child has ended.
    public var terminationReason: TerminationReason {
        endedStatus & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// The exit status, or the signal's number when one ended it.
    /// - Precondition: the child has ended.
    public var terminationStatus: Int32 {
        let status = endedStatus
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Sends SIGTERM, if the child is running.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT, if the child is running.
    public func interrupt() { send(SIGINT) }

    private func send(_ number: Int32) {
        state.withLock { state in
            if case .running(let pid) = state { _ = kill(pid, number) }
        }
    }

    deinit {
        // A child never waited for would stay a zombie until the tests end: collected on a thread.
        if case .running(let pid) = state.withLock({ $0 }) {
            let thread = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            }
            thread.start()
        }
    }
}
