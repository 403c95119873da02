/// k·P on P-256: constant time for a secret k (a private key, a signature's nonce), and a
/// faster variable-time double multiplication for verification, whose scalars are public.
extension P256Curve {
    /// The bits of a window: 4, so 64 windows and a table of 16 multiples.
    static let windowBits = 4
    static let windowCount = 256 / windowBits
    static let tableSize = 1 << windowBits

    /// One step of the constant-time multiplication, as `multiply(_:_:trace:)` records it.
    enum Step: Equatable, Sendable {
        case double
        /// A table entry chosen by reading every one of `entriesRead`.
        case select(entriesRead: Int)
        case add
    }

    /// k·P for a secret k (any 256-bit value; n·P and 0·P are infinity), by fixed windows of 4
    /// bits from the top: the multiples 0·P … 15·P are made first (the same additions for every
    /// k); then each of the 64 windows doubles four times, reads all 16 multiples and keeps the
    /// one its digit names with a mask, and adds it, infinity (digit 0) included. The complete
    /// formulas make every addition the same field operations. So the operations, and the memory
    /// they touch, are the same for every k: no branch and no index depends on a bit of it.
    /// - Complexity: O(1): 256 doublings and 79 additions.
    static func multiply(_ k: UInt256, _ point: ProjectivePoint) -> ProjectivePoint {
        var trace: [Step]?
        return multiply(k, point, trace: &trace)
    }

    /// `multiply(_:_:)`, appending each step to `trace` when it is not nil (a test's look at the
    /// sequence of steps, which must not depend on k).
    static func multiply(_ k: UInt256, _ point: ProjectivePoint, trace: inout [Step]?) -> ProjectivePoint {
        var table = [ProjectivePoint](repeating: .infinity, count: tableSize)
        table[1] = point
        for index in 2..<tableSize {
            table[index] = index.isMultiple(of: 2) ? double(table[index / 2]) : add(table[index - 1], point)
        }
        var result = ProjectivePoint.infinity
        for window in stride(from: windowCount - 1, through: 0, by: -1) {
            for _ in 0..<windowBits {
                result = double(result)
                trace?.append(.double)
            }
            // The window's position is public; its digit is secret.
            let digit = (k.limb(window >> 4) >> UInt64((window & 15) * windowBits)) & UInt64(tableSize - 1)
            let chosen = select(from: table, digit: digit)
            trace?.append(.select(entriesRead: table.count))
            result = add(result, chosen)
            trace?.append(.add)
        }
        return result
    }

    /// table[digit], reading every entry and keeping the one whose index equals `digit` with a
    /// mask: the memory read is the whole table whatever the digit.
    /// - Complexity: O(table).
    static func select(from table: [ProjectivePoint], digit: UInt64) -> ProjectivePoint {
        var chosen = ProjectivePoint(x: .zero, y: .zero, z: .zero)
        for index in table.indices {
            let mask = UInt256.mask(ifZero: UInt64(index) ^ digit)
            chosen.x = UInt256.select(mask, table[index].x, chosen.x)
            chosen.y = UInt256.select(mask, table[index].y, chosen.y)
            chosen.z = UInt256.select(mask, table[index].z, chosen.z)
        }
        return chosen
    }

    /// u1·G + u2·Q in one pass over the bits (Shamir's trick), as verification needs. Its
    /// branches follow the bits of u1 and u2, which a verifier computes from public values (the
    /// digest, the signature): variable time on purpose.
    /// - Complexity: O(256) doublings and additions.
    static func multiplyGenerator(_ u1: UInt256, adding u2: UInt256, times q: ProjectivePoint) -> ProjectivePoint {
        let both = add(generator, q)
        var result = ProjectivePoint.infinity
        for index in stride(from: 255, through: 0, by: -1) {
            result = double(result)
            switch (u1.bit(index), u2.bit(index)) {
            case (true, true): result = add(result, both)
            case (true, false): result = add(result, generator)
            case (false, true): result = add(result, q)
            case (false, false): break
            }
        }
        return result
    }
}
