import Testing
import X509

@Suite("PEM and base64: RFC 7468 armor, strict bodies")
struct PEMTests {
    @Test("a block written reads back; 64-character lines; blank lines, CRLF and a BOM around are fine")
    func roundTrip() throws {
        let block = PEMBlock(label: "CERTIFICATE", der: (0..<100).map { UInt8($0) })
        let text = PEM.encode(block)
        #expect(text.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(text.split(separator: "\n")[1].count == 64)
        #expect(try PEM.block(Array(text.utf8)) == block)
        let loose = [0xEF, 0xBB, 0xBF] + Array(("\n\n" + text.split(separator: "\n").joined(separator: " \r\n") + "\r\n\n").utf8)
        #expect(try PEM.block(loose) == block)
        #expect(try PEM.blocks(Array(("intro\n" + text + "between\n" + text + "after").utf8)) == [block, block])
    }

    @Test("each way to break armor has its own reason", arguments: [
        ("", PEMError.notPEM),
        ("note\n-----BEGIN X-----\nAAAA\n-----END X-----\n", .textBefore(line: 1)),
        ("-----BEGIN X-----\nAAAA\n", .missingEnd(label: "X")),
        ("-----BEGIN X-----\nAAAA\n-----END Y-----\n", .mismatchedEnd(line: 3, found: "Y", began: "X")),
        ("-----BEGIN X-----\nAAAA\n-----END X-----\nmore\n", .textAfter(line: 4, secondBlock: false)),
        ("-----BEGIN X-----\nAAAA\n-----END X-----\n-----BEGIN X-----\n", .textAfter(line: 4, secondBlock: true)),
        ("-----BEGIN X----\nAAAA\n-----END X-----\n", .malformedBoundary(line: 1, opening: "-----BEGIN ")),
        ("-----BEGIN -X-----\nAAAA\n-----END -X-----\n", .badLabel(line: 1)),
        ("-----BEGIN X-----\nAA=A\n-----END X-----\n", .badBase64(label: "X")),
        ("-----BEGIN X-----\n-----END X-----\n", .badBase64(label: "X")),
    ])
    func refusals(text: String, error: PEMError) {
        #expect(throws: error) { try PEM.block(Array(text.utf8)) }
    }

    @Test("a long label is cut in messages")
    func longLabel() {
        let label = String(repeating: "L", count: 500)
        let message = PEMError.missingEnd(label: label).description
        #expect(message.count < 100)
    }

    @Test("base64: RFC 4648's vectors both ways; non-canonical and foreign text refused")
    func base64() {
        for (plain, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
                                 ("foobar", "Zm9vYmFy")] {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(Array(encoded.utf8)) == Array(plain.utf8))
        }
        for bad in ["Zg=", "Zh==", "Z===", "Zm9v\n", "Zm-_", "=Zg="] {
            #expect(Base64.decode(Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(Base64.encodeURL([0xFB, 0xFF]) == "-_8")
        // Every byte as a character: accepted exactly when it is in the alphabet, with its value.
        let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: "=") {
            let text = Array("AAA".utf8) + [byte]
            #expect(Base64.decode(text) == standard.firstIndex(of: byte).map { [0, 0, UInt8($0)] }, "\(byte)")
            #expect(Base64.decodeURL(text) == url.firstIndex(of: byte).map { [0, 0, UInt8($0)] }, "\(byte)")
        }
        #expect(Base64.encode((0..<48).map { UInt8($0 * 4 / 3) }).utf8.allSatisfy(standard.contains))
        #expect(Base64.decodeURL(Array("-_8".utf8)) == [0xFB, 0xFF])
    }
}
