/// HMAC with SHA-256 (RFC 2104, FIPS 198-1): what HKDF is built on, and what a TLS 1.3
/// Finished message carries (RFC 8446 §4.4.4). Incremental like `SHA256`; a key longer than a
/// block is hashed first, a shorter one padded with zeros.
///
/// The key enters only through XOR into the pads, then SHA-256: no branch or table index
/// depends on its bytes (its length is public).
public struct HMACSHA256: Sendable {
    /// The code's length in bytes.
    public static let byteCount = SHA256.byteCount

    /// SHA-256 fed the key XOR ipad, then the message so far.
    private var inner = SHA256()
    /// SHA-256 fed the key XOR opad: the inner digest goes after it.
    private var outer = SHA256()

    /// A code under `key`, of any length.
    /// - Complexity: O(key length).
    public init(key: [UInt8]) {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        inner.update(block.map { $0 ^ 0x36 })
        outer.update(block.map { $0 ^ 0x5c })
    }

    /// Authenticates `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { inner.update(bytes) }

    /// Authenticates `bytes` after what came before.
    /// - Complexity: O(n) in the byte count.
    public mutating func update(_ bytes: [UInt8]) { inner.update(bytes) }

    /// The 32-byte code of everything so far; this value stays usable.
    /// - Complexity: O(1): four compressions.
    public func finalize() -> [UInt8] {
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The 32-byte code of `message` under `key`.
    /// - Complexity: O(key + message) bytes.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var code = HMACSHA256(key: key)
        code.update(message)
        return code.finalize()
    }
}
