@testable import TLS
import TLSCrypto

/// Bytes from hex digits (spaces and line breaks ignored), as the standards print vectors.
func bytes(hex text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
    precondition(digits.count % 2 == 0, "an odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
}

/// A generator that plays back bytes (as little-endian words, the order `TLSServer` and
/// X25519 read them), then a seeded stream: the server random and key RFC 8448 printed.
struct TapeRandom: RandomNumberGenerator {
    var tape: [UInt8]
    var state: UInt64 = 0x1234_5678

    mutating func next() -> UInt64 {
        if tape.count >= 8 {
            defer { tape.removeFirst(8) }
            return tape[0..<8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// A signer that answers a fixed signature (RFC 8448's RSA-PSS one, or any bytes for tests
/// whose client does not check it).
struct FixedSigner: CertificateVerifySigner {
    let scheme: SignatureScheme
    let signature: [UInt8]
    func sign(_ content: [UInt8]) -> [UInt8] { signature }
}

/// A verifier that accepts or refuses every client certificate, whatever it is.
struct FixedVerifier: ClientCertificateVerifier {
    let verdict: ClientCertificateVerdict
    func verify(chain: [[UInt8]], scheme: SignatureScheme, signature: [UInt8], signedContent: [UInt8]) -> ClientCertificateVerdict {
        verdict
    }
}

/// A configuration with a dummy certificate and an ECDSA-labelled fixed signature.
func testConfiguration() -> TLSServerConfiguration {
    TLSServerConfiguration(credentials: ServerCredentials(
        certificateChain: [[0x30, 0x03, 0x02, 0x01, 0x01]],
        signer: FixedSigner(scheme: .ecdsaSecp256r1SHA256, signature: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])))
}

/// The records of `bytes` (whole records only) as type and fragment.
func splitRecords(_ bytes: [UInt8]) -> [Record] {
    var reader = RecordReader()
    bytes.withUnsafeBytes { reader.append($0) }
    var records: [Record] = []
    while let record = try? reader.next(maxFragment: TLSLimits.maxCiphertextBytes) { records.append(record) }
    return records
}
