import Base
import FakeAPNs

/// Where the extension finds the provider's numbering and the mail's id in a payload
/// (docs/provider-api.md): each a dotted path of object keys, the talk's XIVA names by default.
package struct ProviderFields: Sendable, Equatable {
    /// The push's position in its device app's queue (an integer ≥ 1).
    package var position: [String]
    /// The hash of the device id the provider numbered for (8 hex digits, or an integer).
    package var deviceIDHash: [String]
    /// The mail's id (an integer 0 … 2³¹−1): serve counts distinct mails shown.
    package var message: [String]
    /// The paths' first keys as they appear in JSON (`"xiva"`), searched for before parsing.
    private var needles: [[UInt8]] = []

    package static let xiva = ProviderFields(position: "xiva.pos", deviceIDHash: "xiva.device_id_hash", message: "mid")!

    /// Fields from their dotted paths; nil when a path has an empty key.
    /// - Complexity: O(n) in the paths' length.
    package init?(position: String, deviceIDHash: String, message: String) {
        func path(_ text: String) -> [String]? {
            let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return keys.contains(where: \.isEmpty) ? nil : keys
        }
        guard let position = path(position), let hash = path(deviceIDHash), let message = path(message) else { return nil }
        self.position = position
        self.deviceIDHash = hash
        self.message = message
        needles = Array(Set([position[0], hash[0], message[0]])).sorted().map { Array(("\"" + $0 + "\"").utf8) }
    }

    /// What the extension reads of a payload.
    package struct Reading: Equatable {
        /// The mail's id or a position is there: the payload is the provider's (the extension's step 1).
        package var fromProvider = false
        /// A position and a hash are there (step 4).
        package var xiva: XivaInfo?
        /// The mail's id, when there.
        package var message: Int32?
    }

    /// Reads a payload. Only a payload that names one of the paths' first keys is parsed,
    /// so pushes without the provider's fields cost a byte search.
    /// - Complexity: O(n) in the payload.
    package func read(_ payload: [UInt8]) -> Reading {
        var reading = Reading()
        guard Self.mentions(payload, anyOf: needles),
              let root = try? JSONParser.parse(payload) else { return reading }
        let position = Self.integer(Self.find(self.position, in: root)).flatMap { $0 >= 1 && $0 <= Int64(Int32.max) ? Int32($0) : nil }
        let hash = Self.hash(Self.find(deviceIDHash, in: root))
        reading.message = Self.integer(Self.find(message, in: root)).flatMap { $0 >= 0 && $0 <= Int64(Int32.max) ? Int32($0) : nil }
        reading.fromProvider = reading.message != nil || position != nil
        if let position, let hash { reading.xiva = XivaInfo(position: position, deviceIDHash: hash) }
        return reading
    }

    /// Whether `payload` holds any of `needles` (each a key in quotes): one pass, the needles
    /// compared only where a quote is.
    /// - Complexity: O(n × k) in the payload and the needles' octets, O(n) for most payloads.
    static func mentions(_ payload: [UInt8], anyOf needles: [[UInt8]]) -> Bool {
        payload.withUnsafeBufferPointer { bytes in
            for start in bytes.indices where bytes[start] == UInt8(ascii: "\"") {
                // The octet after the quote first: most keys differ there.
                for needle in needles where start + needle.count <= bytes.count && bytes[start + 1] == needle[1] {
                    let found = needle.withUnsafeBufferPointer { needle in
                        var index = 1
                        while index < needle.count, bytes[start + index] == needle[index] { index += 1 }
                        return index == needle.count
                    }
                    if found { return true }
                }
            }
            return false
        }
    }

    static func find(_ path: [String], in root: JSONNode) -> JSONValue? {
        var node = root
        for key in path {
            guard case .object(let object) = node.value, let next = object[key] else { return nil }
            node = next
        }
        return node.value
    }

    static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value, number.isInteger else { return nil }
        return number.int64Value
    }

    /// 1 to 8 hex digits, or an integer 0 … 2³²−1.
    static func hash(_ value: JSONValue?) -> UInt32? {
        switch value {
        case .string(let text)?:
            guard (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "9")
                || UInt8(ascii: "a") <= $0 && $0 <= UInt8(ascii: "f") || UInt8(ascii: "A") <= $0 && $0 <= UInt8(ascii: "F") })
            else { return nil }
            return UInt32(text, radix: 16)
        case .number?:
            return integer(value).flatMap { UInt32(exactly: $0) }
        case .null?, .bool?, .array?, .object?, nil:
            return nil
        }
    }
}
