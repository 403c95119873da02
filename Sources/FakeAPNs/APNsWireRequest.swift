import Base

/// One notification request as it comes over the wire (`POST /3/device/<token>` with
/// its headers and payload), checked the way APNs checks it, in a fixed order, before
/// the population is looked at. What it cannot judge alone (whether the token is one
/// APNs issued, whether the topic is the token's app, the provider's authentication)
/// is the caller's, with the reasons `APNsReason` has for it.
///
/// A pure value: `parse` reads strings and bytes and answers a request or the first
/// reason Apple would give; it never touches the network.
public struct APNsWireRequest: Sendable, Equatable {
    /// The device token's bytes, from its hex form (of any length: Apple says not to
    /// assume one).
    public var token: [UInt8]
    /// `apns-topic`: the app's bundle id, with a suffix for some push types.
    public var topic: String?
    /// `apns-push-type` (`missing` when absent).
    public var pushType: PushType
    /// `apns-priority`: 10 (the default), 5 or 1.
    public var priority: UInt8
    /// `apns-expiration`: absent, 0 (one attempt, no storage) or epoch seconds.
    public var expiration: WireExpiration
    /// `apns-collapse-id`, at most 64 bytes.
    public var collapseID: String?
    /// `apns-id` as the client sent it, lowercased; nil: APNs makes one.
    public var apnsID: String?
    /// `authorization`: `bearer <JWT>` for token authentication; nil without.
    public var authorization: String?
    /// The JSON payload's bytes (not parsed: APNs checks its size, the device reads it).
    public var payload: [UInt8]

    /// The `apns-expiration` header.
    public enum WireExpiration: Sendable, Equatable {
        case absent, immediately
        case epochSeconds(Int64)
    }

    /// The largest `apns-collapse-id`, in bytes.
    public static let maximumCollapseIDBytes = 64

    /// Checks a request: `method` and `path` from the pseudo-headers, `headers` the
    /// regular ones (names lowercase, as HTTP/2 sends them, in order), `body` the DATA.
    /// The order of the checks: method, path, token, duplicate headers, apns-id,
    /// push type, priority, expiration, collapse id, payload.
    /// - Complexity: O(h + n) for h headers and n bytes.
    public static func parse(method: String, path: String, headers: [(name: String, value: String)],
                             body: [UInt8]) -> Result<APNsWireRequest, APNsReason> {
        guard method == "POST" else { return .failure(.methodNotAllowed) }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return .failure(.badPath) }
        // By octets: dropping characters walks grapheme clusters, a cost on every request.
        let tokenText = Substring(path.utf8.dropFirst(prefix.utf8.count))
        if tokenText.isEmpty { return .failure(.missingDeviceToken) }
        guard let token = hexBytes(tokenText) else { return .failure(.badDeviceToken) }

        // One pass over the fields: each `apns-*` field (and `authorization`) at most once.
        var apnsID: String?, topic: String?, pushTypeText: String?, priorityText: String?, expirationText: String?
        var collapseID: String?, authorization: String?
        var unknownSeen: [String] = []
        for header in headers {
            func once(_ slot: inout String?) -> Bool {
                guard slot == nil else { return false }
                slot = header.value
                return true
            }
            let first: Bool
            switch header.name {
            case "apns-id": first = once(&apnsID)
            case "apns-topic": first = once(&topic)
            case "apns-push-type": first = once(&pushTypeText)
            case "apns-priority": first = once(&priorityText)
            case "apns-expiration": first = once(&expirationText)
            case "apns-collapse-id": first = once(&collapseID)
            case "authorization": first = once(&authorization)
            default:
                guard header.name.hasPrefix("apns-") else { continue }
                first = !unknownSeen.contains(header.name)
                unknownSeen.append(header.name)
            }
            guard first else { return .failure(.duplicateHeaders) }
        }

        if let id = apnsID {
            guard isCanonicalUUID(id) else { return .failure(.badMessageId) }
            apnsID = id.lowercased()
        }
        var pushType = PushType.missing
        if let text = pushTypeText {
            guard let known = PushType.byHeaderValue[text] else { return .failure(.invalidPushType) }
            pushType = known
        }
        var priority: UInt8 = 10
        if let text = priorityText {
            guard let number = UInt8(text), number == 10 || number == 5 || number == 1 else { return .failure(.badPriority) }
            priority = number
        }
        var expiration = WireExpiration.absent
        if let text = expirationText {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let seconds = Int64(text) else {
                return .failure(.badExpirationDate)
            }
            expiration = seconds == 0 ? .immediately : .epochSeconds(seconds)
        }
        if let collapseID, collapseID.utf8.count > maximumCollapseIDBytes { return .failure(.badCollapseId) }
        if body.isEmpty { return .failure(.payloadEmpty) }
        if body.count > Int(pushType.maximumPayloadBytes) { return .failure(.payloadTooLarge) }
        return .success(APNsWireRequest(token: token, topic: topic, pushType: pushType, priority: priority,
                                        expiration: expiration, collapseID: collapseID, apnsID: apnsID,
                                        authorization: authorization, payload: body))
    }

    /// The bytes of an even-length hex string (either case), or nil.
    /// - Complexity: O(n).
    static func hexBytes(_ text: Substring) -> [UInt8]? {
        var text = text
        // Over the contiguous UTF-8 bytes, written into the array in place: stepping a
        // Substring's indices, or appending byte by byte, costs more than the rest of a request.
        return text.withUTF8 { digits -> [UInt8]? in
            guard digits.count % 2 == 0 else { return nil }
            var valid = true
            let bytes = [UInt8](unsafeUninitializedCapacity: digits.count / 2) { out, count in
                count = out.count
                for index in 0..<out.count {
                    let high = nibble(digits[2 * index]), low = nibble(digits[2 * index + 1])
                    guard high | low <= 0xf else {
                        valid = false
                        count = index
                        return
                    }
                    out[index] = high << 4 | low
                }
            }
            return valid ? bytes : nil
        }
    }

    /// The value of a hex digit (either case), or 0xff for any other octet.
    @inline(__always)
    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        case 0x41...0x46: digit - 0x41 + 10
        default: 0xff
        }
    }

    /// Whether `text` is a UUID in its canonical 8-4-4-4-12 hex form (either case).
    /// - Complexity: O(1).
    package static func isCanonicalUUID(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        guard characters.count == 36 else { return false }
        for (index, c) in characters.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard c == UInt8(ascii: "-") else { return false }
            } else if ASCII.hexValue(c) == nil {
                return false
            }
        }
        return true
    }
}
