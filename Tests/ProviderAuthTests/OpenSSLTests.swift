import Foundation
@testable import ProviderAuth
import Testing
import TestThreads

/// Against a real outside implementation: keys openssl makes, signatures openssl makes and
/// checks, and the key files of other kinds it writes.
@Suite("openssl interop", .ownThread, .enabled(if: OpenSSL.present || OpenSSL.required, "apt-get install openssl (with CI=true its absence fails the tests)"))
struct OpenSSLTests {
    /// `openssl ecparam | openssl pkcs8 -topk8 -nocrypt`, as the brief for a .p8 goes; the
    /// scratch folder holding key.p8 and pub.pem (openssl's own public key file).
    func makeKey() throws -> URL {
        let folder = try OpenSSL.scratch()
        #expect(try OpenSSL.shell("openssl ecparam -name prime256v1 -genkey | openssl pkcs8 -topk8 -nocrypt -out key.p8", in: folder) == 0)
        #expect(try OpenSSL.run(["ec", "-in", "key.p8", "-pubout", "-out", "pub.pem"], in: folder).status == 0)
        return folder
    }

    func read(_ folder: URL, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("openssl's .p8 and public key files read to the same key; the private scalar and point match openssl's text")
    func keyFiles() throws {
        let folder = try makeKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try P256KeyFile(pem: read(folder, "key.p8"))
        guard case .privateKey(let key) = file else { Issue.record("not a private key"); return }
        #expect(try P256KeyFile(pem: read(folder, "pub.pem")).publicKey == key.publicKey)
        // `openssl ec -text` prints "priv:" and "pub:" as colon-separated hex.
        let text = String(decoding: try OpenSSL.run(["ec", "-in", "key.p8", "-text", "-noout"], in: folder).out, as: UTF8.self)
        func field(_ name: String, _ next: String) -> [UInt8] {
            let start = text.range(of: name + ":")!.upperBound, end = text.range(of: next, range: start..<text.endIndex)!.lowerBound
            return bytes(hex: text[start..<end].filter(\.isHexDigit).map(String.init).joined())
        }
        let privateBytes = field("priv", "pub:")
        #expect([UInt8](repeating: 0, count: 32 - privateBytes.count) + privateBytes == key.rawRepresentation)
        #expect(field("pub", "ASN1 OID") == key.publicKey.x963Representation)
    }

    @Test("signatures openssl makes (DER, converted to r ‖ s) verify; with a flipped bit they do not")
    func opensslSigns() throws {
        let folder = try makeKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try P256KeyFile(pem: read(folder, "key.p8")).publicKey
        for (index, message) in ["", "hello", String(repeating: "APNs ", count: 300), "{\"alg\":\"ES256\"}"].enumerated() {
            let file = folder.appendingPathComponent("message-\(index)")
            try Data(message.utf8).write(to: file)
            let result = try OpenSSL.run(["dgst", "-sha256", "-sign", "key.p8", file.lastPathComponent], in: folder)
            #expect(result.status == 0, "\(result.err)")
            let raw = try #require(DERSignature.raw(result.out))
            #expect(key.isValidSignature(raw, for: Array(message.utf8)), "message \(index)")
            #expect(!key.isValidSignature(flipping(raw, bit: 8 * index + 3), for: Array(message.utf8)))
        }
    }

    @Test("openssl verifies the signatures made here, and refuses them with a bit flipped")
    func opensslVerifies() throws {
        let folder = try makeKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case .privateKey(let key) = try P256KeyFile(pem: read(folder, "key.p8")) else { Issue.record("not a private key"); return }
        for (index, message) in ["", "sample", String(repeating: "token ", count: 200)].enumerated() {
            let signature = key.signature(for: Array(message.utf8))
            try Data(message.utf8).write(to: folder.appendingPathComponent("m\(index)"))
            try Data(DERSignature.der(signature)).write(to: folder.appendingPathComponent("s\(index)"))
            try Data(DERSignature.der(flipping(signature, bit: 100 + index))).write(to: folder.appendingPathComponent("bad\(index)"))
            let good = try OpenSSL.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "s\(index)", "m\(index)"], in: folder)
            #expect(good.status == 0 && String(decoding: good.out, as: UTF8.self).contains("Verified OK"), "\(good.err)")
            let bad = try OpenSSL.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "bad\(index)", "m\(index)"], in: folder)
            #expect(bad.status != 0)
        }
    }

    @Test("a provider token signed by openssl is accepted by the check; openssl reads the hand-built .p8 fixture")
    func opensslToken() throws {
        let folder = try makeKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let publicKey = try P256KeyFile(pem: read(folder, "pub.pem")).publicKey
        // The signing input encoded with Foundation's base64, not the module's.
        func url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let input = url(#"{"alg":"ES256","kid":"ABCDEFGHIJ"}"#) + "." + url(#"{"iss":"0123456789","iat":1767225600}"#)
        try Data(input.utf8).write(to: folder.appendingPathComponent("input"))
        let signed = try OpenSSL.run(["dgst", "-sha256", "-sign", "key.p8", "input"], in: folder)
        let raw = try #require(DERSignature.raw(signed.out))
        let signature = Data(raw).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        var check = try ProviderTokenCheck(keys: [ProviderKey(teamID: "0123456789", keyID: "ABCDEFGHIJ", publicKey: publicKey)])
        #expect(check.check(authorization: "bearer \(input).\(signature)", now: 1_767_225_600 * 1_000_000 + 5) == .accepted)

        // The fixture .p8 built by hand in KeyFileTests: openssl reads it and derives the same point.
        try Data(KeyFixture.pem("PRIVATE KEY", KeyFixture.pkcs8(parameters: KeyFixture.prime256v1))).write(to: folder.appendingPathComponent("fixture.p8"))
        let derived = try OpenSSL.run(["ec", "-in", "fixture.p8", "-pubout"], in: folder)
        #expect(derived.status == 0, "\(derived.err)")
        #expect(try P256KeyFile(pem: derived.out).publicKey.x963Representation == KeyFixture.point)
    }

    @Test("the key files of other kinds openssl writes are refused, each with its reason", arguments: [
        ("openssl ecparam -name prime256v1 -genkey -noout -out key.pem", "openssl pkcs8 -topk8 -nocrypt"),
        ("openssl ecparam -name prime256v1 -genkey -out key.pem", "openssl pkcs8 -topk8 -nocrypt"),
        ("openssl ecparam -name prime256v1 -genkey | openssl pkcs8 -topk8 -passout pass:x -out key.pem", "openssl pkcs8 -in KEY"),
        ("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:secp384r1 -out key.pem", "secp384r1"),
        ("openssl genpkey -algorithm ed25519 -out key.pem", "Ed25519"),
        ("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out key.pem", "rsaEncryption"),
        ("openssl ecparam -name prime256v1 -genkey | openssl ec -pubout -conv_form compressed -out key.pem", "compressed"),
        ("openssl ecparam -name prime256v1 -genkey | openssl ec -pubout -outform DER -out key.pem", "no -----BEGIN line"),
        ("openssl ecparam -name prime256v1 -genkey | openssl pkcs8 -topk8 -nocrypt | openssl pkey -traditional -out key.pem",
         "openssl pkcs8 -topk8 -nocrypt"),
    ])
    func otherKinds(command: String, message: String) throws {
        let folder = try OpenSSL.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try OpenSSL.shell(command, in: folder) == 0, "\(command)")
        #expect { try P256KeyFile(pem: read(folder, "key.pem")) } throws: { error in
            "\(error)".contains(message)
        }
    }
}
