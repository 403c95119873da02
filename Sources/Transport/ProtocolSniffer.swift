import HTTP2

/// Tells HTTP/2 from HTTP/1.1 by a connection's first octets: HTTP/2 with prior knowledge
/// starts with the client preface (RFC 9113 §3.4), which no HTTP/1.1 request a client
/// would send begins with (its request line would be `PRI * HTTP/2.0`, a version 1.1 refuses).
enum ProtocolSniffer {
    enum Verdict: Hashable {
        case http2
        case http1
        /// Every octet so far matches the preface: more are needed.
        case undecided
    }

    /// The verdict on the first octets of a connection.
    /// - Complexity: O(1): at most the preface's 24 octets are compared.
    static func verdict(_ prefix: [UInt8]) -> Verdict {
        let preface = FrameParser.clientPreface
        let compared = Swift.min(prefix.count, preface.count)
        guard prefix[0..<compared].elementsEqual(preface[0..<compared]) else { return .http1 }
        return compared == preface.count ? .http2 : .undecided
    }
}
