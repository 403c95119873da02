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

    /// Token numbers by bytes, open addressing with linear probing, at most half full
    /// (-1: empty). Hashed by a multiplication of two of the drawn words: a `Dictionary`
    /// hashed the 32 bytes with SipHash, about 400 instructions on every request.
    private var slots = ContiguousArray<Int32>(repeating: -1, count: 16)
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
        while number(of: bytes) != nil { bytes.words.3 &+= 1 }
        return add(bytes, lane: lane)
    }

    /// Takes a team's own test token (32 bytes) for `lane`; nil when the bytes are
    /// not 32 or the population already holds them.
    /// - Complexity: amortized O(1).
    package mutating func register(_ bytes: [UInt8], lane: Int32) -> DeviceToken? {
        guard let bytes = Bytes(bytes), number(of: bytes) == nil else { return nil }
        return add(bytes, lane: lane)
    }

    private mutating func add(_ bytes: Bytes, lane: Int32) -> DeviceToken {
        let token = DeviceToken(Int32(issued.count))
        issued.append((bytes, lane))
        if issued.count * 2 > slots.count {
            // Twice the slots, every token placed again.
            slots = ContiguousArray(repeating: -1, count: slots.count * 2)
            for number in issued.indices { place(Int32(number)) }
        } else {
            place(token.rawValue)
        }
        return token
    }

    /// The token number of these bytes, if the population issued them.
    /// - Complexity: O(1) on average.
    package func token(_ bytes: [UInt8]) -> DeviceToken? {
        Bytes(bytes).flatMap(number(of:))
    }

    private func slot(of bytes: Bytes) -> Int {
        Int(truncatingIfNeeded: ((bytes.words.0 ^ bytes.words.2) &* 0x9e37_79b9_7f4a_7c15) >> 32) & (slots.count - 1)
    }

    private func number(of bytes: Bytes) -> DeviceToken? {
        var at = slot(of: bytes)
        while slots[at] >= 0 {
            if issued[Int(slots[at])].bytes == bytes { return DeviceToken(slots[at]) }
            at = (at + 1) & (slots.count - 1)
        }
        return nil
    }

    private mutating func place(_ number: Int32) {
        var at = slot(of: issued[Int(number)].bytes)
        while slots[at] >= 0 { at = (at + 1) & (slots.count - 1) }
        slots[at] = number
    }

    /// The device app token `token` was issued to.
    /// - Complexity: O(1).
    package func lane(of token: DeviceToken) -> Int32 { issued[Int(token.rawValue)].lane }

    /// Token `token`'s 64 hex digits.
    /// - Complexity: O(1).
    package func hex(_ token: DeviceToken) -> String { issued[Int(token.rawValue)].bytes.hex }
}
