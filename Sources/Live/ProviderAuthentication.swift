import FakeAPNs
import ProviderAuth

/// How serve checks that a request comes from the app's provider: the two ways APNs
/// offers, or none (for a first try).
public enum ProviderAuthentication: Sendable {
    /// Every request is taken as the provider's; `apns-topic` may be left out (the token's app).
    case none
    /// JWT provider tokens (ES256), verified against these keys; `apns-topic` is required.
    case token([ProviderKey])
    /// A client certificate checked by the TLS terminator in front, which passes its
    /// subject in the header `subjectHeader` (e.g. haproxy's `%{+Q}[ssl_c_s_dn]`): the
    /// certificate's topic is its subject's `UID`. Serve trusts the header because it was
    /// told to: anything that can reach serve's port directly could set it.
    case certificate(subjectHeader: String)
    /// A client certificate serve's own TLS required and verified (`serve --tls
    /// --client-ca`): its chain to a CA the team named and its CertificateVerify; the
    /// certificate's topic is its subject's `UID`, read from the request's
    /// `clientCertificateChain`.
    case clientCertificate
}

/// What a certificate's subject allows: its `UID` (the app's bundle id, as in Apple's
/// push certificates); nil when the subject names none.
/// Accepts OpenSSL's two forms: `/C=US/UID=com.example.app/CN=…` and `UID=com.example.app, CN=…`
/// (also `userId` and the OID 0.9.2342.19200300.100.1.1).
package enum CertificateSubject {
    /// - Complexity: O(n) in the subject's length.
    package static func topic(_ quoted: String) -> String? {
        // A terminator may pass it quoted (haproxy documents `%{+Q}` so; 2.6.12 passes it bare).
        var subject = Substring(quoted)
        if subject.count >= 2, subject.first == "\"", subject.last == "\"" { subject = subject.dropFirst().dropLast() }
        let separators: Set<Character> = subject.hasPrefix("/") ? ["/"] : [",", "/"]
        for part in subject.split(whereSeparator: { separators.contains($0) }) {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: " ").lowercased()
            if key == "uid" || key == "userid" || key == "0.9.2342.19200300.100.1.1" {
                let value = pair[1].trimmingCharacters(in: " \"")
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
