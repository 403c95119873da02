import ChildProcesses
import Foundation
@testable import ProviderAuth
import Testing

/// Bytes from hex digits (spaces and line breaks ignored), as the standards print vectors.
func bytes(hex text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "an odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
}

/// Lowercase hex digits.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

/// Flips bit `bit` (0 = the first byte's most significant) of `bytes`.
func flipping(_ bytes: [UInt8], bit: Int) -> [UInt8] {
    var copy = bytes
    copy[bit / 8] ^= 0x80 >> UInt8(bit % 8)
    return copy
}

/// ECDSA signatures as openssl writes them (DER, `SEQUENCE { INTEGER r, INTEGER s }`) and as
/// JWS does (r ‖ s, 32 bytes each). Written here, independently of the module's DER reader,
/// so an interop test does not check the module against itself.
enum DERSignature {
    /// r ‖ s from openssl's DER; nil when it is not that shape.
    static func raw(_ der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard index + 2 + length <= der.count else { return nil }
            var integer = Array(der[(index + 2)..<(index + 2 + length)])
            while integer.count > 32, integer.first == 0 { integer.removeFirst() }
            guard integer.count <= 32 else { return nil }
            out += [UInt8](repeating: 0, count: 32 - integer.count) + integer
            index += 2 + length
        }
        return index == der.count ? out : nil
    }

    /// openssl's DER from r ‖ s.
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty || value[0] >= 0x80 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}

/// The `openssl` command line tool (Debian's; `.ci/run` installs it when absent). Tests that
/// need it are skipped without it, except in CI (CI=true), where its absence fails them.
enum OpenSSL {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
    static let present: Bool = (try? run(["version"]).status) == 0

    /// Runs openssl with `arguments` in `directory`; its status, standard output and error.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, out: [UInt8], err: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        if let directory { process.currentDirectoryURL = directory }
        // Standard error to a file, standard output through a pipe read to its end: neither can block.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("openssl-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let err = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, Array(out), err)
    }

    /// Runs a shell pipeline (for `ecparam | pkcs8`) in `directory`; its status.
    static func shell(_ command: String, in directory: URL) throws -> Int32 {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A fresh scratch directory, removed by the caller.
    static func scratch() throws -> URL {
        // Reached without openssl only with CI=true (the suite is skipped otherwise): a failure.
        try #require(present, "CI=true, but openssl is missing (apt-get install openssl)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("provider-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
