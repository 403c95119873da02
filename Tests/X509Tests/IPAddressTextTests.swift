import Testing
import X509

@Suite("IP addresses: text to the bytes of an iPAddress name and back")
struct IPAddressTextTests {
    @Test("IPv4 and IPv6 forms read; RFC 5952's spelling written", arguments: [
        ("127.0.0.1", [127, 0, 0, 1], "127.0.0.1"),
        ("::1", [UInt8](repeating: 0, count: 15) + [1], "::1"),
        ("::", [UInt8](repeating: 0, count: 16), "::"),
        ("2001:DB8:0:0:1:0:0:1", [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], "2001:db8::1:0:0:1"),
        ("fe80::1:2", [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2], "fe80::1:2"),
        ("1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8], "1:2:3:4:5:6:7:8"),
    ] as [(String, [UInt8], String)])
    func readAndWritten(text: String, expected: [UInt8], written: String) {
        #expect(IPAddressText.parse(text) == expected)
        #expect(IPAddressText.format(expected) == written)
    }

    @Test("refused: short, long, out of range, leading zeros, two ::, stray characters",
          arguments: ["127.0.0", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "::g", "", "1.2.3.4 ",
                      "1:2:3:4:5:6:7::8"])
    func refused(text: String) {
        #expect(IPAddressText.parse(text) == nil)
    }
}
