/// IP addresses between text and the bytes an iPAddress name holds (RFC 5280 §4.2.1.6),
/// without the C library: dotted IPv4 and RFC 4291 §2.2 IPv6 (with `::`, without an
/// embedded IPv4 tail), written as RFC 5952 asks (lowercase, the longest zero run as `::`).
public enum IPAddressText {
    /// The 4 or 16 bytes of `text`; nil when it is neither form.
    /// - Complexity: O(n).
    public static func parse(_ text: String) -> [UInt8]? {
        text.contains(":") ? parseIPv6(text) : parseIPv4(text)
    }

    private static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = UInt8(part),
                  !(part.count > 1 && part.first == "0") else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func parseIPv6(_ text: String) -> [UInt8]? {
        let halves = text.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count <= 2, !(halves.count == 2 && halves[1].contains("::")) else { return nil }
        func groups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var values: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), group.allSatisfy(\.isHexDigit), let value = UInt16(group, radix: 16) else { return nil }
                values.append(value)
            }
            return values
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// `127.0.0.1`, `::1`, `2001:db8::1`; other lengths in hexadecimal.
    /// - Complexity: O(n).
    public static func format(_ bytes: [UInt8]) -> String {
        switch bytes.count {
        case 4:
            return bytes.map(String.init).joined(separator: ".")
        case 16:
            let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
            // The longest run of two or more zero groups, the first of equals.
            var best = (start: -1, count: 0)
            var index = 0
            while index < 8 {
                var end = index
                while end < 8 && groups[end] == 0 { end += 1 }
                if end - index > best.count && end - index >= 2 { best = (index, end - index) }
                index = max(end, index + 1)
            }
            let hex = groups.map { String($0, radix: 16) }
            guard best.start >= 0 else { return hex.joined(separator: ":") }
            return hex[..<best.start].joined(separator: ":") + "::" + hex[(best.start + best.count)...].joined(separator: ":")
        default:
            return bytes.map { String($0, radix: 16) }.joined(separator: " ")
        }
    }
}
