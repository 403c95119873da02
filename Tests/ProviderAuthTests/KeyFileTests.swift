@testable import ProviderAuth
import X509
import Testing

/// Key files built here from their parts (so each test changes one part), read back.
enum KeyFixture {
    /// A DER element: tag, shortest length, contents.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let secp384r1: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x22]
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// RFC 6979 A.2.5's key, and its public point.
    static let scalar = bytes(hex: ECDSAVectorTests.rfc6979Key)
    static let point = bytes(hex: "04 60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
        + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")

    static func algorithm(_ oid: [UInt8] = ecPublicKey, curve: [UInt8] = tlv(0x06, prime256v1)) -> [UInt8] {
        tlv(0x30, tlv(0x06, oid) + curve)
    }

    /// PKCS#8 as openssl writes it (no [0] parameters) or as Apple's .p8 is (with them).
    static func pkcs8(version: UInt8 = 0, algorithm: [UInt8] = algorithm(), innerVersion: UInt8 = 1, scalar: [UInt8] = scalar,
                      parameters: [UInt8]? = nil, publicKey: [UInt8]? = point, trailing: [UInt8] = []) -> [UInt8] {
        var inner = tlv(0x02, [innerVersion]) + tlv(0x04, scalar)
        if let parameters { inner += tlv(0xA0, tlv(0x06, parameters)) }
        if let publicKey { inner += tlv(0xA1, tlv(0x03, [0] + publicKey)) }
        return tlv(0x30, tlv(0x02, [version]) + algorithm + tlv(0x04, tlv(0x30, inner)) + trailing)
    }

    static func spki(algorithm: [UInt8] = algorithm(), point: [UInt8] = point) -> [UInt8] {
        tlv(0x30, algorithm + tlv(0x03, [0] + point))
    }

    /// PEM armor in 64-character lines.
    static func pem(_ label: String, _ der: [UInt8], lineEnd: String = "\n") -> [UInt8] {
        let body = Base64.encode(der)
        var lines = ["-----BEGIN \(label)-----"]
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        lines.append("-----END \(label)-----")
        return Array((lines.joined(separator: lineEnd) + lineEnd).utf8)
    }
}

@Suite("Key files: PKCS#8 (.p8), SubjectPublicKeyInfo, PEM, DER, base64")
struct KeyFileTests {
    typealias F = KeyFixture

    @Test("openssl's PKCS#8 and Apple's (with [0] parameters) give the key and its public key")
    func privateKeys() throws {
        for der in [F.pkcs8(), F.pkcs8(parameters: F.prime256v1), F.pkcs8(publicKey: nil)] {
            guard case .privateKey(let key) = try P256KeyFile(pem: F.pem("PRIVATE KEY", der)) else {
                Issue.record("not read as a private key")
                continue
            }
            #expect(key.rawRepresentation == F.scalar)
            #expect(key.publicKey.x963Representation == F.point)
        }
        // PKCS#8 attributes ([0]) are allowed and ignored.
        let withAttributes = F.pkcs8(trailing: F.tlv(0xA0, []))
        #expect(try P256KeyFile(pem: F.pem("PRIVATE KEY", withAttributes)).publicKey.x963Representation == F.point)
    }

    @Test("a SubjectPublicKeyInfo gives the public key")
    func publicKey() throws {
        guard case .publicKey(let key) = try P256KeyFile(pem: F.pem("PUBLIC KEY", F.spki())) else {
            Issue.record("not read as a public key")
            return
        }
        #expect(key.x963Representation == F.point)
    }

    @Test("armor: CRLF, trailing blanks, blank lines around and a BOM are fine")
    func lenientWhitespace() throws {
        var text = F.pem("PUBLIC KEY", F.spki(), lineEnd: " \r\n")
        text = [0xEF, 0xBB, 0xBF] + Array("\n\n".utf8) + text + Array("\n  \n".utf8)
        #expect(try P256KeyFile(pem: text).publicKey.x963Representation == F.point)
    }

    @Test("armor: each way to break it has its own message", arguments: [
        ("", "no -----BEGIN line"),
        ("just text\n", "no -----BEGIN line"),
        ("note\n-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "text before"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n", "no -----END PUBLIC KEY----- line"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "the block began"),
        ("-----BEGIN PUBLIC KEY-----\nAA!A\n-----END PUBLIC KEY-----\n", "not base64"),
        ("-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----\n", "not base64"),
        ("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n", "not base64"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n-----BEGIN PUBLIC KEY-----\n", "a second block"),
        ("-----BEGIN PUBLIC KEY\nAAAA\n-----END PUBLIC KEY-----\n", "not a -----BEGIN …----- line"),
        ("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n", "openssl pkcs8 -topk8 -nocrypt"),
        ("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n", "openssl pkcs8 -topk8 -nocrypt"),
        ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n", "openssl pkcs8 -in KEY"),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "a CERTIFICATE block"),
    ])
    func brokenArmor(text: String, message: String) {
        #expect { try P256KeyFile(pem: Array(text.utf8)) } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("DER: each departure from the structure names what was expected", arguments: [
        (F.pkcs8(version: 1), "PKCS#8 version is not 0"),
        (F.pkcs8(innerVersion: 0), "ECPrivateKey version is not 1"),
        (F.pkcs8(algorithm: F.algorithm(F.rsaEncryption, curve: F.tlv(0x05, []))), "rsaEncryption (1.2.840.113549.1.1.1)"),
        (F.pkcs8(algorithm: F.algorithm(curve: F.tlv(0x06, F.secp384r1))), "secp384r1"),
        (F.pkcs8(algorithm: F.algorithm(curve: F.tlv(0x30, []))), "explicit curve parameters"),
        (F.pkcs8(parameters: F.secp384r1), "secp384r1"),
        (F.pkcs8(scalar: Array(F.scalar.dropFirst())), "32 bytes"),
        (F.pkcs8(publicKey: KeyFixture.spkiPointOfOne), "does not belong to its private key"),
        (F.pkcs8(trailing: [0x05, 0x00]), "unexpected bytes after PrivateKeyInfo"),
        (F.pkcs8() + [0x00], "unexpected bytes after PrivateKeyInfo"),
        (Array(F.pkcs8().dropLast()), "claims"),
        ([0x30, 0x80, 0x00, 0x00], "indefinite length"),
        ([0x30, 0x81, 0x05, 0x02, 0x01, 0x00, 0x05, 0x00], "shortest form"),
        ([0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00], "a length of more than 4 bytes"),
        ([0x30, 0x84, 0x00, 0x00, 0x00, 0x01, 0x00], "shortest form"),
        ([0x02, 0x01, 0x00], "expected PrivateKeyInfo"),
        (F.tlv(0x30, F.tlv(0x02, [0x00, 0x00])), "not an INTEGER in DER"),
    ])
    func brokenDER(der: [UInt8], message: String) {
        #expect { try P256KeyFile(pem: F.pem("PRIVATE KEY", der)) } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a public key file with a broken point, a compressed one or another algorithm is refused")
    func brokenPublicKeys() {
        for (der, message) in [(F.spki(point: flipping(F.point, bit: 8 * 64)), "not a point of P-256"),
                               (F.spki(point: [0x02] + Array(F.point[1..<33])), "compressed"),
                               (F.spki(algorithm: F.algorithm([0x2B, 0x65, 0x70], curve: [])), "Ed25519")] {
            #expect { try P256KeyFile(pem: F.pem("PUBLIC KEY", der)) } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test("base64 and base64url round-trip every length and refuse every other spelling")
    func base64() {
        var generator = [UInt8](0..<64)
        for count in 0...20 {
            let data = Array(generator.prefix(count))
            generator.shuffle()
            #expect(Base64.decode(Array(Base64.encode(data).utf8)) == data)
            #expect(Base64.decodeURL(Array(Base64.encodeURL(data).utf8)) == data)
            #expect(!Base64.encodeURL(data).contains("="))
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy" && Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encodeURL([0xFB, 0xFF]) == "-_8")
        for bad in ["Zm8", "Zm8==", "Zm9=", "Z===", "Zm 8=", "-_8=", "Zm8=Zm8=", "===="] {
            #expect(Base64.decode(Array(bad.utf8)) == nil, "\(bad)")
        }
        for bad in ["Zm8=", "+/8", "-_9", "Z", "Zm8 ", "Zm8.", "Zm\u{00E9}"] {
            #expect(Base64.decodeURL(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("unknown OIDs are shown dotted; absurd ones briefly")
    func oidNames() {
        #expect(P256KeyFile.name([0x2A, 0x03]) == "1.2.3")
        #expect(P256KeyFile.name([0x88, 0x37, 0x01]) == "2.999.1")
        #expect(P256KeyFile.name([]) == "an unreadable OID")
        #expect(P256KeyFile.name([0x2A, 0x83]) == "an unreadable OID")
        #expect(P256KeyFile.name(ArraySlice([0x2A] + [UInt8](repeating: 0xFF, count: 12) + [0x01])) == "an unreadable OID")
    }
}

extension KeyFixture {
    /// The public point of private key 1 (G): a valid point that is not the fixture key's.
    static let spkiPointOfOne = bytes(hex: "04 6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
        + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
}
