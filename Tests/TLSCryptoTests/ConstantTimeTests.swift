@testable import TLSCrypto
import Testing

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test("equal bytes are equal; a difference in any byte or bit, or another length, is not")
    func equals() {
        let a = Array(UInt8(0)..<40)
        #expect(ConstantTime.equals(a, a))
        #expect(ConstantTime.equals([], []))
        for index in a.indices {
            for bit in 0..<8 {
                var b = a
                b[index] ^= 1 << UInt8(bit)
                #expect(!ConstantTime.equals(a, b))
            }
        }
        #expect(!ConstantTime.equals(a, Array(a.dropLast())))
    }

    @Test("isZero by arithmetic")
    func isZero() {
        #expect(ConstantTime.isZero(0))
        #expect((1...255).allSatisfy { !ConstantTime.isZero(UInt8($0)) })
    }
}
