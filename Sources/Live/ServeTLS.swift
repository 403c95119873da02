import TLS
import Transport
import X509

/// What `serve --tls` gives its APNs listener: the server's identity, and with `--client-ca`
/// the CAs a provider's client certificate must chain to (then one is required, as APNs's
/// certificate authentication requires it).
public enum ServeTLS {
    /// The CAs of a PEM file (`--client-ca`: one or more certificates).
    /// - Complexity: O(n) in the file.
    public static func clientAuthorities(_ path: String) throws(ServeTLSError) -> [Certificate] {
        try ServerIdentity.readCertificates(path)
    }

    /// The listener's TLS: h2 by ALPN, the identity's chain and signer, and client
    /// certificates required and checked against `clientAuthorities` at `wallSeconds` when
    /// there are any.
    /// - Complexity: O(c) in the chain.
    public static func settings(_ identity: ServerIdentity, clientAuthorities: [Certificate],
                                wallSeconds: @escaping @Sendable () -> Int64) -> TLSSettings {
        var server = TLSServerConfiguration(credentials: identity.credentials)
        if !clientAuthorities.isEmpty {
            server.clientAuthentication = .required(ClientCertificateCheck(verifier: ChainVerifier(trustedRoots: clientAuthorities),
                                                                           now: wallSeconds))
        }
        return TLSSettings(server)
    }
}
