import ChildProcesses
import Foundation
import Glibc
import Synchronization
import Testing
import TestThreads

/// `ChildProcess` against /bin/sh and coreutils: what the tests rely on of `Process`, and
/// what it does that `Process` did not (no descriptor above 2 or blocked signal reaches the child).
@Suite("Child processes", .ownThread, .timeLimit(.minutes(1)))
struct ChildProcessTests {
    /// `sh -c script`, its output to a pipe: the child started, and the pipe.
    static func shell(_ script: String, configure: (ChildProcess) -> Void = { _ in }) throws -> (ChildProcess, Pipe) {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", script]
        let output = Pipe()
        child.standardOutput = output
        configure(child)
        try child.run()
        return (child, output)
    }

    static func text(_ pipe: Pipe) -> String {
        String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("output through a pipe to its end, and the exit status")
    func outputAndStatus() throws {
        let (child, output) = try Self.shell("echo one; echo two >&2; exit 3") { $0.standardError = FileHandle.nullDevice }
        #expect(Self.text(output) == "one\n")
        child.waitUntilExit()
        #expect(!child.isRunning)
        #expect(child.terminationReason == .exit && child.terminationStatus == 3)
    }

    @Test("a child ended by a signal: uncaughtSignal and the signal's number; terminate and interrupt send SIGTERM and SIGINT")
    func signals() throws {
        let (selfKilled, _) = try Self.shell("kill -KILL $$")
        selfKilled.waitUntilExit()
        #expect(selfKilled.terminationReason == .uncaughtSignal && selfKilled.terminationStatus == SIGKILL)
        for (send, number) in [({ (child: ChildProcess) in child.terminate() }, SIGTERM), ({ $0.interrupt() }, SIGINT)] {
            let (sleeper, _) = try Self.shell("exec sleep 30")
            #expect(sleeper.isRunning && sleeper.processIdentifier > 0)
            send(sleeper)
            sleeper.waitUntilExit()
            #expect(sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == number)
        }
    }

    @Test("the environment given is the whole environment; none given is this process's")
    func environment() throws {
        let (given, output) = try Self.shell("echo \"[$ONLY][$HOME]\"") { $0.environment = ["ONLY": "this"] }
        #expect(Self.text(output) == "[this][]\n")
        given.waitUntilExit()
        setenv("PUSHSIM_CHILD_TEST", "inherited", 1)
        let (inherited, second) = try Self.shell("echo \"$PUSHSIM_CHILD_TEST\"")
        #expect(Self.text(second) == "inherited\n")
        inherited.waitUntilExit()
    }

    @Test("FileHandle.nullDevice, which has no descriptor, is /dev/null in the child; a file's handle is that file")
    func nullDeviceAndFiles() throws {
        let (child, output) = try Self.shell("readlink /proc/self/fd/0 /proc/self/fd/2") {
            $0.standardInput = FileHandle.nullDevice
            $0.standardError = FileHandle.nullDevice
        }
        #expect(Self.text(output) == "/dev/null\n/dev/null\n")
        child.waitUntilExit()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-child-\(UUID().uuidString)").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try #require(FileHandle(forWritingAtPath: path))
        let (writer, _) = try Self.shell("echo into the file") { $0.standardOutput = file }
        writer.waitUntilExit()
        try file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "into the file\n")
    }

    @Test("the current directory given; standard input from a pipe")
    func directoryAndInput() throws {
        let input = Pipe()
        let (child, output) = try Self.shell("pwd; cat") {
            $0.currentDirectoryURL = URL(fileURLWithPath: "/usr/bin")
            $0.standardInput = input
        }
        input.fileHandleForWriting.write(Data("typed\n".utf8))
        try input.fileHandleForWriting.close()
        #expect(Self.text(output) == "/usr/bin\ntyped\n")
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
    }

    @Test("no descriptor of this process above 2 reaches the child, close-on-exec or not, so a pipe's reader sees its end while another child lives")
    func descriptorsStayHere() throws {
        let open = Glibc.open("/dev/null", O_RDONLY) // without O_CLOEXEC
        try #require(open > 2)
        defer { close(open) }
        let (probe, output) = try Self.shell("test -e /proc/self/fd/\(open) && echo inherited || echo closed")
        #expect(Self.text(output) == "closed\n")
        probe.waitUntilExit()

        // A pipe open while a long child starts: the long child does not hold its writing end.
        let pipe = Pipe()
        let (long, _) = try Self.shell("exec sleep 30") { $0.standardOutput = FileHandle.nullDevice }
        defer { long.terminate(); long.waitUntilExit() }
        let short = ChildProcess()
        short.executableURL = URL(fileURLWithPath: "/bin/echo")
        short.arguments = ["done"]
        short.standardOutput = pipe
        try short.run()
        #expect(Self.text(pipe) == "done\n")
        #expect(long.isRunning)
        short.waitUntilExit()
    }

    @Test("the child starts with no standard signal blocked or ignored, though the thread that starts it blocks SIGTERM")
    func signalsStartAsDefault() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let started = Result { try Self.shell("grep -E '^Sig(Blk|Ign)' /proc/self/status") }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let (child, output) = try started.get()
        // Masks of signals 1–64, signal n as bit n-1; only the standard ones, 1–31, are
        // checked: glibc keeps two real-time signals of its own.
        let masks = Self.text(output).split(separator: "\n").compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        #expect(masks.count == 2 && masks.allSatisfy { $0 & 0x7fff_ffff == 0 }, "\(masks.map { String($0, radix: 16) })")
        child.waitUntilExit()
    }

    @Test("a program that is not there: run throws, naming it")
    func missingProgram() {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/nonexistent/pushsim-tool")
        #expect(throws: ChildProcess.LaunchError.self) { try child.run() }
        do { try child.run() } catch { #expect("\(error)".contains("/nonexistent/pushsim-tool")) }
        #expect(!child.isRunning && child.processIdentifier == 0)
    }

    @Test("two threads waiting and a third asking isRunning all see the one end")
    func concurrentWaits() throws {
        let (child, _) = try Self.shell("sleep 0.3; exit 7")
        // Threads of their own: tasks would wait for the cooperative pool, which other tests may hold.
        let statuses = Mutex([Int32]())
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                child.waitUntilExit()
                statuses.withLock { $0.append(child.terminationStatus) }
                done.signal()
            }.start()
        }
        while child.isRunning { usleep(5_000) }
        #expect(child.terminationStatus == 7)
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 20) == .success) }
        #expect(statuses.withLock { $0 } == [7, 7])
    }
}
