import FakeAPNs
@testable import Live
import Testing

@Suite("The population's token directory")
struct DeviceTokensTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16)! }
    }

    @Test("every token issued is found by its bytes, through the table's growth; other bytes are not")
    func lookups() {
        var tokens = DeviceTokens()
        var issued: [DeviceToken] = []
        for user in 0..<3_000 {
            issued.append(tokens.issue(seed: 7, user: user, app: user % 3, rotation: user % 5, lane: Int32(user)))
            if user % 500 == 0 {
                for token in issued { #expect(tokens.token(Self.bytes(tokens.hex(token))) == token) }
            }
        }
        for token in issued {
            var bytes = Self.bytes(tokens.hex(token))
            #expect(tokens.token(bytes) == token)
            #expect(tokens.lane(of: token) == token.rawValue)
            bytes[31] ^= 1
            #expect(tokens.token(bytes) == nil)
        }
        #expect(tokens.token([1, 2, 3]) == nil)
        #expect(Set(issued.map(\.rawValue)) == Set(0..<3_000))
    }
}
