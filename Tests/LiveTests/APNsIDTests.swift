@testable import Live
import Testing

@Suite("serve's made apns-ids")
struct APNsIDTests {
    /// The form made before with `String(radix:)`, kept as the reference.
    static func reference(_ a: UInt64, _ b: UInt64) -> String {
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text.suffix(digits)
        }
        return hex(a >> 32, 8) + "-" + hex((a >> 16) & 0xffff, 4) + "-" + hex(a & 0xffff, 4) + "-"
            + hex(b >> 48, 4) + "-" + hex(b & 0xffff_ffff_ffff, 12)
    }

    @Test("a UUID's text is its 128 bits in lowercase hex, 8-4-4-4-12, leading zeros kept: as String(radix:) wrote it")
    func uuidText() {
        #expect(ServeService.uuidText(0, 0) == "00000000-0000-0000-0000-000000000000")
        #expect(ServeService.uuidText(.max, .max) == "ffffffff-ffff-ffff-ffff-ffffffffffff")
        #expect(ServeService.uuidText(0x0123_4567_89ab_4def, 0x8000_0000_0000_000a) == "01234567-89ab-4def-8000-00000000000a")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let a = generator.next() as UInt64 >> (generator.next() as UInt64 % 64), b = generator.next() as UInt64
            #expect(ServeService.uuidText(a, b) == Self.reference(a, b))
        }
    }
}
