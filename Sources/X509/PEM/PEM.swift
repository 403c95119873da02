/// One PEM block (RFC 7468): its label (`CERTIFICATE`, `PRIVATE KEY` …) and its DER.
public struct PEMBlock: Equatable, Sendable {
    public let label: String
    public let der: [UInt8]

    /// - Complexity: O(1).
    public init(label: String, der: [UInt8]) {
        self.label = label
        self.der = der
    }
}

/// PEM armor (RFC 7468): `-----BEGIN LABEL-----`, base64 lines, `-----END LABEL-----`.
/// Inside a block, spaces, tabs and CR line ends are allowed; the body must be strict base64.
/// `block(_:)` reads a file of exactly one block with only blank lines around it, so a file of
/// two keys, or a key pasted into a note, is named rather than half-read; `blocks(_:)` reads a
/// chain file, ignoring the explanatory text RFC 7468 §2 lets stand between blocks.
public enum PEM {
    /// The one block in `bytes`. With `labels`, a block of another label is refused as soon
    /// as its BEGIN line is read (`unexpectedLabel`), before the rest of the file is judged: a
    /// file of another kind is named for what it is.
    /// - Complexity: O(n).
    public static func block(_ bytes: [UInt8], labels: Set<String>? = nil) throws(PEMError) -> PEMBlock {
        let lines = self.lines(bytes)
        guard let begin = lines.firstIndex(where: isBegin) else { throw .notPEM }
        if let stray = lines[..<begin].firstIndex(where: { !$0.isEmpty }) { throw .textBefore(line: stray + 1) }
        if let labels {
            let label = try self.label(lines[begin], opening: "-----BEGIN ", line: begin + 1)
            guard labels.contains(label) else { throw .unexpectedLabel(label) }
        }
        let (block, end) = try self.block(lines, at: begin)
        if let stray = lines[(end + 1)...].firstIndex(where: { !$0.isEmpty }) {
            throw .textAfter(line: stray + 1, secondBlock: isBegin(lines[stray]))
        }
        return block
    }

    /// Every block in `bytes`, in order; lines outside blocks are ignored. At least one.
    /// - Complexity: O(n).
    public static func blocks(_ bytes: [UInt8]) throws(PEMError) -> [PEMBlock] {
        let lines = self.lines(bytes)
        var blocks: [PEMBlock] = []
        var index = 0
        while let begin = lines[index...].firstIndex(where: isBegin) {
            let (block, end) = try self.block(lines, at: begin)
            blocks.append(block)
            index = end + 1
        }
        guard !blocks.isEmpty else { throw .notPEM }
        return blocks
    }

    /// `block` armored: its body in 64-character lines, each line ended by LF.
    /// - Complexity: O(n).
    public static func encode(_ block: PEMBlock) -> String {
        let body = Array(Base64.encode(block.der).utf8)
        var text = "-----BEGIN \(block.label)-----\n"
        var index = 0
        while index < body.count {
            text += String(decoding: body[index..<min(index + 64, body.count)], as: UTF8.self) + "\n"
            index += 64
        }
        return text + "-----END \(block.label)-----\n"
    }

    /// The file's lines (a UTF-8 BOM dropped), each without its CR and trailing blanks.
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        return text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(trimmed)
    }

    private static func isBegin(_ line: ArraySlice<UInt8>) -> Bool { line.starts(with: beginOpening) }

    private static let beginOpening = Array("-----BEGIN ".utf8)
    private static let dashes = Array("-----".utf8)

    /// The block whose BEGIN line is `lines[begin]`, and the index of its END line.
    private static func block(_ lines: [ArraySlice<UInt8>], at begin: Int) throws(PEMError) -> (PEMBlock, end: Int) {
        let label = try self.label(lines[begin], opening: "-----BEGIN ", line: begin + 1)
        guard let end = lines[(begin + 1)...].firstIndex(where: { $0.starts(with: dashes) }) else { throw .missingEnd(label: label) }
        let closing = try self.label(lines[end], opening: "-----END ", line: end + 1)
        guard closing == label else { throw .mismatchedEnd(line: end + 1, found: closing, began: label) }
        let body = lines[(begin + 1)..<end].flatMap { $0.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } }
        guard let der = Base64.decode(body), !der.isEmpty else { throw .badBase64(label: label) }
        return (PEMBlock(label: label, der: der), end)
    }

    /// A line without the CR of a CRLF end and without trailing spaces or tabs.
    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            line.removeLast()
        }
        return line
    }

    /// The label of `-----BEGIN LABEL-----` (or END): RFC 7468's characters, printable
    /// ASCII without `-` at either end.
    private static func label(_ line: ArraySlice<UInt8>, opening: String, line number: Int) throws(PEMError) -> String {
        guard line.starts(with: Array(opening.utf8)), line.count >= opening.utf8.count + 5, line.suffix(5).elementsEqual(dashes) else {
            throw .malformedBoundary(line: number, opening: opening)
        }
        let label = line.dropFirst(opening.utf8.count).dropLast(5)
        guard label.allSatisfy({ (0x20...0x7E).contains($0) }), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else {
            throw .badLabel(line: number)
        }
        return String(decoding: label, as: UTF8.self)
    }
}
