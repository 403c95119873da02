@testable import Base
import Testing

/// Names kept as the bytes the system gave: every byte string decodes to a `String` and
/// encodes back to itself, and messages show a byte that is not UTF-8 as `\xff`.
@Suite("System text: paths kept as bytes")
struct SystemTextTests {
    @Test("any byte string decodes and encodes back to itself (10,000 random ones, and the edge cases)")
    func roundTrip() {
        var random = SplitMix64(seed: 21)
        var cases: [[UInt8]] = [[], [0x72, 0xFF], [0xC3], [0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                [0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xE0, 0x80, 0x80], [0xF0, 0x9F, 0x93, 0xAC],
                                Array("ordinary/path.json".utf8)]
        for _ in 0..<10_000 {
            let count = Int(random.next() % 12)
            cases.append((0..<count).map { _ in
                // Mostly high bytes and the escape block's lead, so invalid and edge sequences are common.
                let pick = random.next() % 4
                return pick == 0 ? 0xF4 : pick == 1 ? UInt8(0x80 + random.next() % 0x40) : UInt8(truncatingIfNeeded: random.next())
            })
        }
        for bytes in cases {
            #expect(SystemText.bytes(of: SystemText.decode(bytes)) == bytes, "\(bytes)")
        }
    }

    @Test("valid UTF-8 decodes as itself; only bytes that are not UTF-8 (or spell the escape block) become escapes")
    func validTextUnchanged() {
        #expect(SystemText.decode(Array("été 📬".utf8)) == "été 📬")
        let bad = SystemText.decode([0x72, 0xFF])
        #expect(bad.unicodeScalars.count == 2 && bad.hasPrefix("r"))
        #expect(SystemText.escapedByte(bad.unicodeScalars.last!) == 0xFF)
        #expect(SystemText.escapedByte("r") == nil)
        // The scalar the block starts with, written validly, is kept as its four bytes.
        #expect(SystemText.decode([0xF4, 0x8F, 0xBE, 0x80]).unicodeScalars.count == 4)
    }

    @Test("messages show a byte that is not UTF-8 as \\xff, cut like any character")
    func escapedInMessages() {
        #expect(UserText.path(SystemText.decode(Array("r".utf8) + [0xFF])) == #"r\xff"#)
        #expect(UserText.quote(SystemText.decode([0x73, 0xC3, 0x2E])) == #""s\xc3.""#)
        let long = SystemText.decode([UInt8](repeating: 0xFE, count: 1000))
        #expect(UserText.escape(long) == String(repeating: #"\xfe"#, count: UserText.limit) + "…")
    }

    @Test("a path goes to the system as its own bytes")
    func cString() {
        let path = SystemText.decode([0x2F, 0x74, 0xFF, 0x80])
        let bytes = SystemText.withCString(path) { pointer in
            (0..<5).map { UInt8(bitPattern: pointer[$0]) }
        }
        #expect(bytes == [0x2F, 0x74, 0xFF, 0x80, 0])
    }
}
