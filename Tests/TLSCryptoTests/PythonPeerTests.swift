import ChildProcesses
import Foundation
import TestThreads
@testable import TLSCrypto
import Testing

/// Python's `cryptography` package (OpenSSL underneath) as a peer: random cases sealed by both
/// sides must be the same bytes, X25519 key pairs must agree, HMAC must match. `.ci/run` installs
/// the package (aioapns needs it); without it the suite is skipped, except in CI (CI=true), where
/// its absence fails it.
@Suite("TLSCrypto against Python's cryptography", .ownThread,
       .enabled(if: PythonCryptography.present || PythonCryptography.required,
                "pip install cryptography (with CI=true its absence fails the test)"))
struct PythonPeerTests {
    @Test("random AEAD cases, X25519 exchanges and HMACs give OpenSSL's bytes")
    func agree() throws {
        try #require(PythonCryptography.present, "CI=true, but python3 cannot import cryptography")
        var generator = SeededGenerator(state: 8446)
        var lines: [String] = [], expected: [String] = []
        for index in 0..<120 {
            let length = index < 40 ? index : Int.random(in: 0...2_000, using: &generator)
            let aad = generator.bytes(Int.random(in: 0...40, using: &generator)), plaintext = generator.bytes(length)
            let n = generator.bytes(12)
            let chaChaKey = generator.bytes(32), gcmKey = generator.bytes(16)
            lines.append("chacha \(hex(chaChaKey)) \(hex(n)) \(hex(aad)) \(hex(plaintext))")
            expected.append(hex(ChaCha20Poly1305(key: chaChaKey)!.seal(nonce: AEADNonce(n)!, additionalData: aad, plaintext: plaintext)))
            lines.append("gcm \(hex(gcmKey)) \(hex(n)) \(hex(aad)) \(hex(plaintext))")
            expected.append(hex(AES128GCM(key: gcmKey)!.seal(nonce: AEADNonce(n)!, additionalData: aad, plaintext: plaintext)))
            if index % 4 == 0 {
                let a = X25519.PrivateKey(using: &generator), b = X25519.PrivateKey(using: &generator)
                lines.append("x25519 \(hex(a.rawRepresentation)) \(hex(b.publicKey))")
                expected.append(hex(a.publicKey) + ":" + hex(a.sharedSecret(with: b.publicKey)!))
                let key = generator.bytes(Int.random(in: 0...100, using: &generator))
                lines.append("hmac \(hex(key)) \(hex(plaintext))")
                expected.append(hex(HMACSHA256.authenticationCode(key: key, message: plaintext)))
            }
        }
        let answers = try PythonCryptography.run(lines)
        #expect(answers.count == expected.count)
        for (index, (answer, mine)) in zip(answers, expected).enumerated() {
            #expect(answer == mine, "case \(index): \(lines[index].prefix(60))")
        }
    }
}

/// python3 with the `cryptography` package, fed one case a line.
enum PythonCryptography {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
    static let present: Bool = (try? run([])) != nil

    /// The script: each line "kind hex…" answered by a line of hex.
    static let script = """
        import sys
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305, AESGCM
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
        import hmac, hashlib
        for line in sys.stdin:
            kind, *fields = line.split(' ')
            fields = [bytes.fromhex(f.strip()) for f in fields]
            if kind in ('chacha', 'gcm'):
                key, nonce, aad, plaintext = fields
                aead = ChaCha20Poly1305(key) if kind == 'chacha' else AESGCM(key)
                print(aead.encrypt(nonce, plaintext, aad).hex())
            elif kind == 'x25519':
                private = X25519PrivateKey.from_private_bytes(fields[0])
                public = private.public_key().public_bytes_raw()
                print(public.hex() + ':' + private.exchange(X25519PublicKey.from_public_bytes(fields[1])).hex())
            elif kind == 'hmac':
                print(hmac.new(fields[0], fields[1], hashlib.sha256).hexdigest())
        """

    /// The script's answer lines to `lines`; throws when python3 or the package is missing.
    static func run(_ lines: [String]) throws -> [String] {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Written from another thread while this one reads, so neither pipe can fill and block.
        let text = Data(lines.map { $0 + "\n" }.joined().utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(text)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
