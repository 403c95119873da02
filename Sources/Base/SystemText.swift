import FoundationEssentials
import Glibc

/// Bytes the system hands over as names (command-line arguments, so file paths) kept
/// exactly as given inside a `String`. Linux file names are bytes, not text: `r\xff` is
/// a valid folder name, but `CommandLine.arguments` decodes it lossily to `r\u{FFFD}`,
/// and writing to that would be another folder. So each byte that is not part of valid
/// UTF-8 is kept as one scalar of a private-use block, U+10FF80 + (byte − 0x80), and
/// turned back into that byte when the path goes to the system (`withCString`) or is
/// shown (`UserText` writes `\xff`). A valid UTF-8 encoding of one of those 128 scalars
/// is kept byte by byte the same way, so every byte string decodes and encodes back to
/// itself (the scheme of Python's `surrogateescape`, which Swift's `String` cannot
/// hold: it has no lone surrogates).
public enum SystemText {
    /// The first of the 128 scalars that stand for a byte 0x80…0xFF.
    private static let firstEscape: UInt32 = 0x10_FF80

    /// `bytes` as a `String` that `bytes(of:)` turns back into exactly them.
    /// - Complexity: O(n) in the byte count.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        // Valid UTF-8 without the escape block's lead byte (F4) is the common case.
        if let text = String(validating: bytes, as: UTF8.self), !holdsEscapeBlock(text) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            let sequence = bytes[index..<index + max(length, 1)]
            if length > 0, let scalar = scalar(sequence), !isEscape(scalar) {
                scalars.append(scalar)
            } else {
                // Invalid (one byte at a time, so what follows is read afresh) or an escape
                // scalar written as UTF-8: kept as bytes.
                for byte in sequence { scalars.append(escape(byte)) }
            }
            index += max(length, 1)
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: UTF-8, with each escape scalar as its one byte.
    /// - Complexity: O(n) in the text's length.
    public static func bytes(of text: some StringProtocol) -> [UInt8] {
        guard holdsEscapeBlock(text) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = escapedByte(scalar) { bytes.append(byte) } else { bytes.append(contentsOf: UTF8.encode(scalar)!) }
        }
        return bytes
    }

    /// Calls `body` with `text` as the NUL-terminated bytes the system receives: what
    /// every call that takes a path (`open`, `mkdir`, `rename`, …) must be given.
    /// - Complexity: O(n) in the text's length.
    public static func withCString<Result, Failure: Error>(
        _ text: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result) throws(Failure) -> Result {
        var bytes = self.bytes(of: text).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in try body(buffer.baseAddress!) }
    }

    /// The process's command-line arguments, program name first, byte for byte (see the
    /// type's comment): what `CommandLine.arguments` would be without its lossy decoding.
    /// - Complexity: O(total length).
    public static func commandLineArguments() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return decode(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                              count: strlen(argument)))
        }
    }

    /// The byte `scalar` stands for, when it is one of the escape block's; else nil.
    /// - Complexity: O(1).
    public static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        isEscape(scalar) ? UInt8(scalar.value - firstEscape + 0x80) : nil
    }

    /// The scalar that stands for `byte` (0x80…0xFF).
    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(firstEscape + UInt32(byte) - 0x80)!
    }

    private static func isEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= firstEscape }

    /// Whether `text` may hold an escape scalar: their UTF-8 starts F4 8F BE or F4 8F BF,
    /// and F4 starts no other scalar a path usually holds.
    private static func holdsEscapeBlock(_ text: some StringProtocol) -> Bool { text.utf8.contains(0xF4) }

    /// The scalar a well-formed UTF-8 sequence encodes.
    private static func scalar(_ sequence: ArraySlice<UInt8>) -> Unicode.Scalar? {
        let leadBits: [UInt8] = [0x7F, 0x1F, 0x0F, 0x07]
        var value = UInt32(sequence.first! & leadBits[sequence.count - 1])
        for byte in sequence.dropFirst() { value = value << 6 | UInt32(byte & 0x3F) }
        return Unicode.Scalar(value)
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode's table 3-7:
    /// no overlong forms, no surrogates, nothing past U+10FFFF), or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let second: ClosedRange<UInt8>, length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
