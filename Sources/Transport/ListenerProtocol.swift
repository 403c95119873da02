/// What a listener speaks.
public enum ListenerProtocol: Hashable, Sendable {
    /// HTTP/2 over cleartext with prior knowledge (h2c, RFC 9113 §3.3): the client preface
    /// first, then frames. What APNs speaks (behind its TLS). Anything else, an HTTP/1.1
    /// request included, is answered as `ServerConnection` answers it: GOAWAY
    /// PROTOCOL_ERROR, then the connection closes.
    case http2PriorKnowledge
    /// The first octets decide: the HTTP/2 client preface (`PRI * HTTP/2.0…`) makes the
    /// connection HTTP/2, anything else HTTP/1.1. For the JSON control API, so that plain
    /// `curl URL` works as well as `curl --http2-prior-knowledge`.
    case http1OrHTTP2
    /// TLS 1.3 (module TLS) with ALPN `h2`, then HTTP/2 inside it, as APNs speaks: the
    /// credentials are `TransportConfiguration.tls`. A client offering ALPN without `h2`
    /// gets the alert no_application_protocol; one offering none gets HTTP/2 all the same.
    case http2OverTLS
}
