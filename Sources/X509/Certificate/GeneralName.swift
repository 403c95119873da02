/// A subjectAltName entry (RFC 5280 §4.2.1.6) this module reads; others kept by their tag.
public enum GeneralName: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// dNSName [2], IA5String: `api.push.apple.com`.
    case dnsName(String)
    /// iPAddress [7]: 4 bytes (IPv4) or 16 (IPv6), network order.
    case ipAddress([UInt8])
    /// rfc822Name [1], IA5String.
    case email(String)
    /// uniformResourceIdentifier [6], IA5String.
    case uri(String)
    /// Another choice (otherName, directoryName …), by its tag.
    case other(DERTag)

    static let emailTag = DERTag.context(1, constructed: false)
    static let dnsTag = DERTag.context(2, constructed: false)
    static let uriTag = DERTag.context(6, constructed: false)
    static let ipTag = DERTag.context(7, constructed: false)

    /// The next GeneralName of `reader`.
    /// - Complexity: O(n).
    static func read(_ reader: inout DERReader, _ what: String) throws(DERError) -> GeneralName {
        let element = try reader.element(what)
        switch element.tag {
        case dnsTag, emailTag, uriTag:
            guard let text = DirectoryString.decode(element.contents, tag: .ia5String) else { throw DERError(what, .badString) }
            return element.tag == dnsTag ? .dnsName(text) : element.tag == emailTag ? .email(text) : .uri(text)
        case ipTag:
            guard element.contents.count == 4 || element.contents.count == 16 else {
                throw DERError(what, .unexpectedValue("an iPAddress of \(element.contents.count) bytes, not 4 or 16"))
            }
            return .ipAddress(Array(element.contents))
        default:
            return .other(element.tag)
        }
    }

    /// Writes a DNS name or an IP address (the names this module's certificates carry); the
    /// text of a DNS name, email or URI must be ASCII (IA5String), an address 4 or 16 bytes.
    func write(_ writer: inout DERWriter) {
        switch self {
        case .dnsName(let text), .email(let text), .uri(let text):
            precondition(text.utf8.allSatisfy { $0 < 0x80 }, "\(text) is not ASCII, as a general name must be")
        case .ipAddress(let bytes):
            precondition(bytes.count == 4 || bytes.count == 16, "an IP address of \(bytes.count) bytes")
        case .other:
            break
        }
        switch self {
        case .dnsName(let name): writer.element(Self.dnsTag, Array(name.utf8))
        case .ipAddress(let bytes): writer.element(Self.ipTag, bytes)
        case .email(let address): writer.element(Self.emailTag, Array(address.utf8))
        case .uri(let uri): writer.element(Self.uriTag, Array(uri.utf8))
        case .other(let tag): preconditionFailure("no value to write for a general name of tag \(tag)")
        }
    }

    /// `DNS:localhost`, `IP:127.0.0.1`, `IP:::1`: openssl's spelling.
    public var description: String {
        switch self {
        case .dnsName(let name): "DNS:\(ShownText.escape(name))"
        case .ipAddress(let bytes): "IP:\(IPAddressText.format(bytes))"
        case .email(let address): "email:\(ShownText.escape(address))"
        case .uri(let uri): "URI:\(ShownText.escape(uri))"
        case .other(let tag): "a general name of tag \(tag)"
        }
    }
}
