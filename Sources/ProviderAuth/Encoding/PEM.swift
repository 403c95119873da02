import Base

/// PEM armor (RFC 7468): `-----BEGIN LABEL-----`, base64 lines, `-----END LABEL-----`.
/// Strict about what surrounds the block: a key file holds exactly one block and only
/// blank lines around it, so a file of two keys, or a key pasted into a note, is named
/// rather than half-read. Inside, spaces, tabs and CR line ends are allowed.
enum PEM {
    /// The label and the decoded body of the one block in `bytes`.
    /// - Complexity: O(n).
    static func block(_ bytes: [UInt8]) throws(KeyError) -> (label: String, body: [UInt8]) {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(trimmed)
        guard let begin = lines.firstIndex(where: { $0.starts(with: Array("-----BEGIN ".utf8)) }) else { throw .notPEM }
        if let stray = lines[..<begin].firstIndex(where: { !$0.isEmpty }) {
            throw .malformedPEM("line \(stray + 1) is text before the -----BEGIN line")
        }
        let label = try self.label(lines[begin], opening: "-----BEGIN ", line: begin + 1)
        guard label == "PRIVATE KEY" || label == "PUBLIC KEY" else { throw .unsupportedPEMLabel(UserText.escape(label)) }
        guard let end = lines[(begin + 1)...].firstIndex(where: { $0.starts(with: Array("-----".utf8)) }) else {
            throw .malformedPEM("no -----END \(label)----- line")
        }
        let closing = try self.label(lines[end], opening: "-----END ", line: end + 1)
        guard closing == label else {
            throw .malformedPEM("line \(end + 1) ends \(UserText.quote(closing)), the block began \(UserText.quote(label))")
        }
        if let stray = lines[(end + 1)...].firstIndex(where: { !$0.isEmpty }) {
            let what = lines[stray].starts(with: Array("-----BEGIN ".utf8)) ? "a second block" : "text"
            throw .malformedPEM("line \(stray + 1) is \(what) after the -----END line: a key file holds one key")
        }
        let body = lines[(begin + 1)..<end].flatMap { $0.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } }
        guard let decoded = Base64.decode(body), !decoded.isEmpty else {
            throw .malformedPEM("the \(label) block's body is not base64")
        }
        return (label, decoded)
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
    private static func label(_ line: ArraySlice<UInt8>, opening: String, line number: Int) throws(KeyError) -> String {
        let dashes = Array("-----".utf8)
        guard line.starts(with: Array(opening.utf8)), line.count >= opening.utf8.count + 5,
              line.suffix(5).elementsEqual(dashes) else {
            throw .malformedPEM("line \(number) is not a \(opening)…----- line")
        }
        let label = line.dropFirst(opening.utf8.count).dropLast(5)
        guard label.allSatisfy({ (0x20...0x7E).contains($0) }), label.first != UInt8(ascii: "-"),
              label.last != UInt8(ascii: "-") else {
            throw .malformedPEM("line \(number) has a label of other characters than RFC 7468 allows")
        }
        return String(decoding: label, as: UTF8.self)
    }
}
