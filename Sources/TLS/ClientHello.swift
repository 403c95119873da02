/// A key share a client offers (RFC 8446 §4.2.8): a group and its public value.
struct KeyShareEntry: Equatable {
    let group: UInt16
    let keyExchange: [UInt8]
}

/// A ClientHello as parsed (RFC 8446 §4.1.2): every field the server reads, its extensions
/// checked for form; what they mean for the handshake is `ServerNegotiation`'s.
struct ClientHello: Equatable {
    var legacyVersion: UInt16 = 0
    var random: [UInt8] = []
    var sessionID: [UInt8] = []
    var cipherSuites: [UInt16] = []
    var compressionMethods: [UInt8] = []
    var supportedVersions: [UInt16]?
    var supportedGroups: [UInt16]?
    var keyShares: [KeyShareEntry]?
    var signatureAlgorithms: [UInt16]?
    var signatureAlgorithmsCert: [UInt16]?
    /// The host_name of server_name (RFC 6066 §3).
    var serverName: String?
    var applicationProtocols: [[UInt8]]?
    var recordSizeLimit: UInt16?
    /// early_data offered: refused, its records skipped (§4.2.10).
    var offersEarlyData = false
    /// pre_shared_key or psk_key_exchange_modes sent: ignored, since there is no resumption.
    var offersPreSharedKey = false
    var cookie: [UInt8]?

    /// Parses a ClientHello's body (after the 4-byte handshake header).
    /// - Complexity: O(n) in its length, O(e²) in its extension count (duplicates).
    init(body: [UInt8]) throws(TLSFailure) {
        var reader = WireReader(body, field: "ClientHello")
        legacyVersion = try reader.u16()
        random = try reader.bytes(32)
        sessionID = try reader.vector(lengthBytes: 1, maximum: 32)
        let suites = try reader.vector(lengthBytes: 2, minimum: 2)
        guard suites.count % 2 == 0 else { throw .malformed("cipher_suites") }
        cipherSuites = stride(from: 0, to: suites.count, by: 2).map { UInt16(suites[$0]) << 8 | UInt16(suites[$0 + 1]) }
        compressionMethods = try reader.vector(lengthBytes: 1, minimum: 1)
        // A hello without extensions is TLS 1.2 or older: no supported_versions, refused later.
        guard !reader.isAtEnd else { return }
        var extensions = try reader.nested(lengthBytes: 2, field: "extensions")
        try reader.expectEnd()
        var seen: Set<UInt16> = []
        while !extensions.isAtEnd {
            let type = try extensions.u16()
            var data = try extensions.nested(lengthBytes: 2, field: "extension \(type)")
            guard seen.insert(type).inserted else { throw .misplacedExtension }
            // §4.2.11: pre_shared_key must be the last extension.
            if type == ExtensionType.preSharedKey && !extensions.isAtEnd { throw .misplacedExtension }
            try read(type, &data)
            try data.expectEnd()
        }
    }

    private mutating func read(_ type: UInt16, _ data: inout WireReader) throws(TLSFailure) {
        switch type {
        case ExtensionType.supportedVersions:
            supportedVersions = try Self.list16(&data, lengthBytes: 1, minimum: 2)
        case ExtensionType.supportedGroups:
            supportedGroups = try Self.list16(&data, lengthBytes: 2, minimum: 2)
        case ExtensionType.signatureAlgorithms:
            signatureAlgorithms = try Self.list16(&data, lengthBytes: 2, minimum: 2)
        case ExtensionType.signatureAlgorithmsCert:
            signatureAlgorithmsCert = try Self.list16(&data, lengthBytes: 2, minimum: 2)
        case ExtensionType.keyShare:
            keyShares = try Self.keyShares(&data)
        case ExtensionType.serverName:
            serverName = try Self.hostName(&data)
        case ExtensionType.applicationLayerProtocolNegotiation:
            applicationProtocols = try Self.protocolNames(&data)
        case ExtensionType.recordSizeLimit:
            recordSizeLimit = try data.u16()
        case ExtensionType.earlyData:
            offersEarlyData = true
        case ExtensionType.preSharedKey, ExtensionType.pskKeyExchangeModes:
            offersPreSharedKey = true
            _ = try data.bytes(data.remaining)
        case ExtensionType.cookie:
            cookie = try data.vector(lengthBytes: 2, minimum: 1)
        default:
            // Unknown extensions are ignored (§4.2), as are those we do not act on.
            _ = try data.bytes(data.remaining)
        }
    }

    private static func list16(_ data: inout WireReader, lengthBytes: Int, minimum: Int) throws(TLSFailure) -> [UInt16] {
        var list = try data.nested(lengthBytes: lengthBytes, minimum: minimum, field: data.field)
        guard list.remaining % 2 == 0 else { throw .malformed(data.field) }
        var values: [UInt16] = []
        while !list.isAtEnd { values.append(try list.u16()) }
        return values
    }

    private static func keyShares(_ data: inout WireReader) throws(TLSFailure) -> [KeyShareEntry] {
        var list = try data.nested(lengthBytes: 2, field: "key_share")
        var shares: [KeyShareEntry] = []
        while !list.isAtEnd {
            let group = try list.u16()
            let key = try list.vector(lengthBytes: 2, minimum: 1)
            // §4.2.8: one share per group.
            guard !shares.contains(where: { $0.group == group }) else { throw .invalidKeyShare }
            shares.append(KeyShareEntry(group: group, keyExchange: key))
        }
        return shares
    }

    /// RFC 6066 §3: a list with at most one host_name, ASCII letters, digits, '-' and '.'.
    private static func hostName(_ data: inout WireReader) throws(TLSFailure) -> String? {
        var list = try data.nested(lengthBytes: 2, minimum: 1, field: "server_name")
        var host: String?
        while !list.isAtEnd {
            let nameType = try list.u8()
            let name = try list.vector(lengthBytes: 2, minimum: 1)
            guard nameType == 0 else { continue }
            guard host == nil, name.allSatisfy(Self.isHostNameByte) else { throw .malformed("server_name") }
            host = String(decoding: name, as: UTF8.self)
        }
        return host
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// RFC 7301 §3.1: a non-empty list of non-empty names.
    private static func protocolNames(_ data: inout WireReader) throws(TLSFailure) -> [[UInt8]] {
        var list = try data.nested(lengthBytes: 2, minimum: 2, field: "application_layer_protocol_negotiation")
        var names: [[UInt8]] = []
        while !list.isAtEnd { names.append(try list.vector(lengthBytes: 1, minimum: 1)) }
        return names
    }
}
