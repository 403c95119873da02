import Base

/// HMAC with SHA-256 (RFC 2104, FIPS 198-1), on Base's SHA-256: RFC 6979 derives its
/// nonces with it.
enum HMACSHA256 {
    /// SHA-256's block size in bytes: the key is padded (or first hashed) to it.
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key`.
    /// - Complexity: O(key + message) bytes.
    static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
