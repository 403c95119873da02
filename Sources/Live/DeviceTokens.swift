import Base
import FakeAPNs

/// The population's device tokens as APNs hands them out: 32 bytes each, drawn from the
/// seed, the device, the app and how many times its token rotated, so one seed gives the
/// same tokens on every start. Inside, a token is a small number (`DeviceToken`, dense
/// from 0, in the order tokens are issued); this directory maps bytes to numbers and back.
package struct DeviceTokens {
    /// 32 token bytes as four words, for hashing without an array.
    package struct Bytes: Hashable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        package static func == (lhs: Bytes, rhs: Bytes) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }

        /// The token as APNs's clients write it: 64 lowercase hex digits.
        /// - Complexity: O(1).
        package var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            for word in [words.0, words.1, words.2, words.3] {
                for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((word >> UInt64(shift)) & 0xf)]) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The bytes of a token of exactly 32 bytes; nil for any other length (APNs issued none).
        /// - Complexity: O(1).
        package init?(_ bytes: [UInt8]) {
            guard bytes.count == 32 else { return nil }
            func word(_ at: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in at..<(at + 8) { value = value << 8 | UInt64(bytes[index]) }
                return value
            }
            words = (word(0), word(8), word(16), word(24))
        }

        init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }
    }

    private var numbers: [Bytes: DeviceToken] = [:]
    /// By token number: its bytes and the device app it was issued to.
    private var issued: ContiguousArray<(bytes: Bytes, lane: Int32)> = []

    package init() {}

    /// Issues the next token for `lane` (device `user`, app `app`, its `rotation`-th change, 0: the install's).
    /// - Complexity: amortized O(1).
    package mutating func issue(seed: UInt64, user: Int, app: Int, rotation: Int, lane: Int32) -> DeviceToken {
        var random = RandomStream.deviceToken.generator(seed: seed, user: UInt64(user), lane: app)
        var stream = SplitMix64(seed: SplitMix64.mix(random.next() ^ UInt64(rotation) &* 0x9e37_79b9_7f4a_7c15))
        var bytes = Bytes(words: (stream.next(), stream.next(), stream.next(), stream.next()))
        // Two equal draws of 256 bits do not happen; if they did, the later token moves on.
        while numbers[bytes] != nil { bytes.words.3 &+= 1 }
        let token = DeviceToken(Int32(issued.count))
        numbers[bytes] = token
        issued.append((bytes, lane))
        return token
    }

    /// The token number of these bytes, if the population issued them.
    /// - Complexity: O(1) on average.
    package func token(_ bytes: [UInt8]) -> DeviceToken? {
        Bytes(bytes).flatMap { numbers[$0] }
    }

    /// The device app token `token` was issued to.
    /// - Complexity: O(1).
    package func lane(of token: DeviceToken) -> Int32 { issued[Int(token.rawValue)].lane }

    /// Token `token`'s 64 hex digits.
    /// - Complexity: O(1).
    package func hex(_ token: DeviceToken) -> String { issued[Int(token.rawValue)].bytes.hex }
}
