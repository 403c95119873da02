extension P256 {
    /// An ECDSA signature (r, s), each 32 bytes big-endian. Two encodings: r ‖ s (64 bytes, JWS's
    /// ES256) and DER's ECDSA-Sig-Value, `SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.3),
    /// what a TLS 1.3 CertificateVerify (RFC 8446 §4.2.3) and an X.509 certificate carry.
    public struct Signature: Sendable, Equatable {
        /// r, big-endian; 32 bytes in any signature a key accepts.
        public let r: [UInt8]
        /// s, big-endian; 32 bytes in any signature a key accepts.
        public let s: [UInt8]

        /// The signature (r, s) of two 32-byte big-endian integers. Other lengths are kept as
        /// given, and no key accepts them.
        /// - Complexity: O(1).
        public init(r: [UInt8], s: [UInt8]) {
            self.r = r
            self.s = s
        }

        /// The signature of r ‖ s, 64 bytes. Another length is kept whole as r (with an empty s),
        /// and no key accepts it.
        /// - Complexity: O(1).
        public init(rawRepresentation bytes: [UInt8]) {
            if bytes.count == 2 * P256.byteCount {
                self.init(r: Array(bytes[..<P256.byteCount]), s: Array(bytes[P256.byteCount...]))
            } else {
                self.init(r: bytes, s: [])
            }
        }

        /// r ‖ s: 64 bytes for a signature a key accepts.
        /// - Complexity: O(1).
        public var rawRepresentation: [UInt8] { r + s }

        /// The signature of DER `SEQUENCE { INTEGER r, INTEGER s }`, strictly: definite minimal
        /// lengths, each integer minimal and non-negative (a leading 0x00 only before a byte
        /// ≥ 0x80) and at most 256 bits, nothing after the sequence. Nil otherwise. r and s are
        /// not range-checked here (a key refuses 0 and values ≥ n).
        /// - Complexity: O(n) in the length.
        public init?(derRepresentation bytes: [UInt8]) {
            var reader = DERSignatureReader(bytes: bytes[...])
            guard let body = reader.element(tag: 0x30), reader.bytes.isEmpty else { return nil }
            var fields = DERSignatureReader(bytes: body)
            guard let r = fields.integer(), let s = fields.integer(), fields.bytes.isEmpty else { return nil }
            self.init(r: r, s: s)
        }

        /// `SEQUENCE { INTEGER r, INTEGER s }`, each integer minimal (leading zeros dropped, a
        /// 0x00 put before a top bit set).
        /// - Complexity: O(n) in the length.
        public var derRepresentation: [UInt8] {
            let body = Self.derInteger(r) + Self.derInteger(s)
            return [0x30] + Self.derLength(body.count) + body
        }

        /// An unsigned big-endian integer as a DER INTEGER.
        private static func derInteger(_ value: [UInt8]) -> [UInt8] {
            var content = Array(value.drop { $0 == 0 })
            if content.first.map({ $0 >= 0x80 }) ?? true { content.insert(0, at: 0) }
            return [0x02] + derLength(content.count) + content
        }

        /// A DER length: one byte below 128, else 0x81 and one byte (a signature is never longer).
        private static func derLength(_ count: Int) -> [UInt8] {
            count < 0x80 ? [UInt8(count)] : [0x81, UInt8(truncatingIfNeeded: count)]
        }
    }
}

/// Reads the two DER elements of an ECDSA-Sig-Value, from outside bytes: never traps.
private struct DERSignatureReader {
    var bytes: ArraySlice<UInt8>

    /// The contents of the next element if its tag is `tag` and its length is a minimal definite
    /// one within the bytes (short form, or 0x81 for 128–255; a signature needs no more).
    mutating func element(tag: UInt8) -> ArraySlice<UInt8>? {
        guard bytes.count >= 2, bytes.first == tag else { return nil }
        var start = bytes.startIndex + 2
        var length = Int(bytes[bytes.startIndex + 1])
        if length == 0x81 {
            // The long form only for 128–255: below that the short form is the minimal one.
            guard bytes.count >= 3, bytes[start] >= 0x80 else { return nil }
            length = Int(bytes[start])
            start += 1
        } else if length >= 0x80 {
            return nil
        }
        guard bytes.endIndex - start >= length else { return nil }
        let contents = bytes[start..<(start + length)]
        bytes = bytes[(start + length)...]
        return contents
    }

    /// The next INTEGER as 32 big-endian bytes, if minimal, non-negative and below 2²⁵⁶.
    mutating func integer() -> [UInt8]? {
        guard let contents = element(tag: 0x02), let first = contents.first, first < 0x80 else { return nil }
        // A leading zero only where the next byte's top bit would otherwise read as a sign.
        if first == 0, contents.count > 1, contents[contents.startIndex + 1] < 0x80 { return nil }
        let magnitude = first == 0 && contents.count > 1 ? contents.dropFirst() : contents
        guard magnitude.count <= P256.byteCount else { return nil }
        return [UInt8](repeating: 0, count: P256.byteCount - magnitude.count) + magnitude
    }
}
