/// The AEAD AES-128-GCM (NIST SP 800-38D; RFC 5116's AEAD_AES_128_GCM), TLS_AES_128_GCM_SHA256's
/// record protection, with a 96-bit nonce: J₀ = nonce ‖ 0³¹ ‖ 1; the text is XORed with
/// AES_K(inc32ⁱ(J₀)) for i = 1, 2, …; the tag is GHASH(A, C) ⊕ AES_K(J₀).
///
/// Counter blocks go through the bitsliced cipher four at a time; the first four are J₀ (the tag's
/// mask) and the first three blocks of keystream. Constant time as its parts are; the tag is
/// compared with `ConstantTime`.
public struct AES128GCM: AEAD {
    /// The key's length in bytes.
    public static let keyByteCount = 16

    private let cipher: AES128
    /// AES_K(0¹²⁸), GHASH's key.
    private let hashKey: (UInt64, UInt64)

    /// The AEAD under `key`; nil unless it is 16 bytes.
    /// - Complexity: O(1): the key expansion and one block.
    public init?(key: [UInt8]) {
        guard let cipher = AES128(key: key) else { return nil }
        self.cipher = cipher
        var zero = Slices(repeating: 0)
        cipher.encrypt(&zero)
        hashKey = (zero[0].littleEndian, zero[1].littleEndian)
    }

    /// Encrypts `text` in place and writes its tag over `tag` (16 bytes).
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func seal(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
                     tag: UnsafeMutableRawBufferPointer) {
        precondition(tag.count == Self.tagByteCount, "a tag is 16 bytes")
        let mask = applyKeystream(nonce: nonce, to: text)
        hash(additionalData: additionalData, ciphertext: UnsafeRawBufferPointer(text)).finalize(xoring: mask, into: tag)
    }

    /// Whether `tag` authenticates the ciphertext `text` and `additionalData`; if so, decrypts
    /// `text` in place.
    /// - Complexity: O(n) in the text and additional data, no allocation.
    public func open(nonce: AEADNonce, additionalData: UnsafeRawBufferPointer, text: UnsafeMutableRawBufferPointer,
                     tag: UnsafeRawBufferPointer) -> Bool {
        guard tag.count == Self.tagByteCount else { return false }
        var first = counterBlocks(nonce: nonce, from: 1)
        cipher.encrypt(&first)
        let mask = UInt128(first[1]) << 64 | UInt128(first[0])
        var expected: (UInt64, UInt64) = (0, 0)
        let authentic = withUnsafeMutableBytes(of: &expected) { expected in
            hash(additionalData: additionalData, ciphertext: UnsafeRawBufferPointer(text)).finalize(xoring: mask, into: expected)
            return ConstantTime.equals(UnsafeRawBufferPointer(expected), tag)
        }
        guard authentic else { return false }
        _ = applyKeystream(nonce: nonce, to: text, first: first)
        return true
    }

    /// GHASH over the additional data and the ciphertext, lengths included.
    private func hash(additionalData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer) -> GHASH {
        var ghash = withUnsafeBytes(of: hashKey) { GHASH(key: $0.baseAddress!) }
        ghash.updatePadded(additionalData)
        ghash.updatePadded(ciphertext)
        ghash.updateLengths(additionalData.count, ciphertext.count)
        return ghash
    }

    /// XORs the keystream from inc32(J₀) on into `text`; answers AES_K(J₀), the tag's mask.
    /// `first`, when given, is the encrypted first four counter blocks (J₀…J₀ + 3).
    private func applyKeystream(nonce: AEADNonce, to text: UnsafeMutableRawBufferPointer, first: Slices? = nil) -> UInt128 {
        var batch: Slices
        if let first {
            batch = first
        } else {
            batch = counterBlocks(nonce: nonce, from: 1)
            cipher.encrypt(&batch)
        }
        let mask = UInt128(batch[1]) << 64 | UInt128(batch[0])
        // The first batch's last three blocks, then whole batches of four from counter 5.
        Self.xor(batch, skipping: 2, into: text, at: 0)
        var offset = 48
        var counter: UInt32 = 5
        while offset < text.count {
            batch = counterBlocks(nonce: nonce, from: counter)
            cipher.encrypt(&batch)
            Self.xor(batch, skipping: 0, into: text, at: offset)
            offset += 64
            counter &+= 4
        }
        return mask
    }

    /// The four counter blocks nonce ‖ (counter + k) big-endian, k = 0…3, as eight little-endian
    /// words. The 32-bit counter wraps (inc32), which a TLS record never reaches.
    @inline(__always)
    private func counterBlocks(nonce: AEADNonce, from counter: UInt32) -> Slices {
        let head = ((UInt64(nonce.prefix) << 32) | (nonce.suffix >> 32)).byteSwapped
        let tail = UInt64(UInt32(truncatingIfNeeded: nonce.suffix).byteSwapped)
        var words = Slices(repeating: 0)
        for k in 0..<4 {
            words[2 * k] = head
            words[2 * k + 1] = tail | UInt64((counter &+ UInt32(k)).byteSwapped) << 32
        }
        return words
    }

    /// XORs the keystream words from word `skip` on into `text` from `offset`, as far as either goes.
    @inline(__always)
    private static func xor(_ keystream: Slices, skipping skip: Int, into text: UnsafeMutableRawBufferPointer, at offset: Int) {
        let count = min(8 * (8 - skip), text.count - offset)
        guard count > 0 else { return }
        if count == 8 * (8 - skip) {
            for word in skip..<8 {
                let at = offset + 8 * (word - skip)
                let value = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: at, as: UInt64.self)) ^ keystream[word]
                text.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt64.self)
            }
        } else {
            for index in 0..<count {
                let word = skip + index >> 3
                text[offset + index] ^= UInt8(truncatingIfNeeded: keystream[word] >> (8 * UInt64(index & 7)))
            }
        }
    }
}
