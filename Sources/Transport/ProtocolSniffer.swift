import HTTP1
import HTTP2

/// Tells HTTP/2 from HTTP/1.1 by a connection's first octets: HTTP/2 with prior knowledge
/// starts with the client preface (RFC 9113 §3.4), which no HTTP/1.1 request a client
/// would send begins with (its request line would be `PRI * HTTP/2.0`, a version 1.1 refuses).
/// The server says nothing before the verdict: RFC 9113 §3.4 requires its SETTINGS to be
/// the first frame it sends, not that it be sent before the client's preface came.
enum ProtocolSniffer {
    enum Verdict: Hashable {
        case http2
        case http1
        /// Every octet so far matches the preface: more are needed.
        case undecided
    }

    /// The verdict on the first octets of a connection on a listener that speaks both:
    /// the whole preface is HTTP/2, the first octet that differs makes it HTTP/1.1.
    /// - Complexity: O(1): at most the preface's 24 octets are compared.
    static func verdict(_ prefix: [UInt8]) -> Verdict {
        switch prefaceMatch(prefix) {
        case .whole: .http2
        case .partial: .undecided
        case .differs: .http1
        }
    }

    /// The verdict on the first octets of a connection on a listener that speaks HTTP/2
    /// only: `http1` for an HTTP/1.1 request line (`METHOD SP`, not `PRI`), answered in
    /// HTTP/1.1 that this port wants HTTP/2; `http2` for the preface and for anything
    /// else, which HTTP/2 answers (GOAWAY PROTOCOL_ERROR).
    /// - Complexity: O(1): at most 32 octets are read.
    static func priorKnowledgeVerdict(_ prefix: [UInt8]) -> Verdict {
        switch prefaceMatch(prefix) {
        case .whole: return .http2
        case .partial: return .undecided
        case .differs: break
        }
        switch RequestStart.of(prefix) {
        case .method(let method): return method == "PRI" ? .http2 : .http1
        case .undecided: return .undecided
        case .notARequest: return .http2
        }
    }

    private enum PrefaceMatch {
        case whole, partial, differs
    }

    private static func prefaceMatch(_ prefix: [UInt8]) -> PrefaceMatch {
        let preface = FrameParser.clientPreface
        let compared = Swift.min(prefix.count, preface.count)
        guard prefix[0..<compared].elementsEqual(preface[0..<compared]) else { return .differs }
        return compared == preface.count ? .whole : .partial
    }
}
