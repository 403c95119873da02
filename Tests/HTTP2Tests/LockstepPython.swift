import ChildProcesses
import Foundation

/// A Python script from Tests/Fixtures/http2 run beside a test, talking over its stdin and
/// stdout in lockstep messages (Tests/Fixtures/http2/lockstep.py): a 4-octet big-endian
/// payload length, a kind octet, the payload. Bounded in time: the script's own alarm, and
/// a watchdog here that ends it after 40 s.
final class LockstepPython {
    private let process = ChildProcess()
    private let input: FileHandle
    private let output: FileHandle
    private let watchdog: DispatchWorkItem

    /// The path of a fixture script.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/http2/\(name)").path
    }

    /// Whether `python3 -c 'import h2, hpack, hyperframe'` works.
    static let h2Present: Bool = {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import h2, hpack, hyperframe"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Without h2 a test is skipped, except in CI (CI=true), where its absence fails it.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    init(script name: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.fixture(name)]
        let toPython = Pipe(), fromPython = Pipe()
        process.standardInput = toPython
        process.standardOutput = fromPython
        process.standardError = FileHandle.nullDevice
        input = fromPython.fileHandleForReading
        output = toPython.fileHandleForWriting
        try process.run()
        watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 40, execute: watchdog)
    }

    deinit { finish() }

    /// The next message, or nil once the script ended.
    func read() throws -> (kind: UInt8, payload: [UInt8])? {
        var bytes: [UInt8] = []
        func fill(_ count: Int) throws -> Bool {
            while bytes.count < count {
                guard let data = try input.read(upToCount: count - bytes.count), !data.isEmpty else { return false }
                bytes += data
            }
            return true
        }
        guard try fill(5) else { return nil }
        let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard try fill(5 + length) else { return nil }
        return (bytes[4], Array(bytes[5...]))
    }

    /// Sends one message of `kind` ("B" octets, "E" the end).
    func write(_ kind: Character, _ payload: [UInt8]) throws {
        let count = payload.count
        let header = [UInt8(count >> 24 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff),
                      UInt8(ascii: kind.unicodeScalars.first!)]
        try output.write(contentsOf: Data(header + payload))
    }

    /// Closes the script's input and waits for it to end.
    func finish() {
        try? output.close()
        watchdog.cancel()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
