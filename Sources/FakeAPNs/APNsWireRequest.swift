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
        parse(method: method, path: path, forEachField: { visit in
            for header in headers {
                var name = header.name, value = header.value
                name.withUTF8 { name in value.withUTF8 { value in visit(name, value) } }
            }
        }, body: body)
    }

    /// Checks a request whose regular fields are read in place: `forEachField` calls its
    /// argument with each field's name and value octets, in order (names lowercase). Text
    /// is made only of the fields the request keeps (`apns-id`, `apns-topic`,
    /// `apns-collapse-id`, `authorization`) and of unusual values; the others are judged
    /// on their octets. The same checks, in the same order, as `parse(method:path:headers:body:)`.
    /// - Complexity: O(h + n) for h octets of fields and n bytes.
    public static func parse(method: String, path: String,
                             forEachField: ((_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) -> Void,
                             body: [UInt8]) -> Result<APNsWireRequest, APNsReason> {
        guard method == "POST" else { return .failure(.methodNotAllowed) }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return .failure(.badPath) }
        // By octets: dropping characters walks grapheme clusters, a cost on every request.
        let tokenText = Substring(path.utf8.dropFirst(prefix.utf8.count))
        if tokenText.isEmpty { return .failure(.missingDeviceToken) }
        guard let token = hexBytes(tokenText) else { return .failure(.badDeviceToken) }

        // One pass over the fields: each `apns-*` field (and `authorization`) at most once.
        // Values are read as they come; the checks below judge them in their order.
        var fields = ReadFields()
        forEachField { name, value in fields.read(name: name, value: value) }
        if fields.duplicate { return .failure(.duplicateHeaders) }

        var apnsID: String?
        if let id = fields.apnsID {
            guard isCanonicalUUID(id) else { return .failure(.badMessageId) }
            apnsID = id.lowercased()
        }
        var pushType = PushType.missing
        if let reading = fields.pushType {
            guard let known = reading else { return .failure(.invalidPushType) }
            pushType = known
        }
        var priority: UInt8 = 10
        if let reading = fields.priority {
            guard let number = reading, number == 10 || number == 5 || number == 1 else { return .failure(.badPriority) }
            priority = number
        }
        // Apple: background pushes take priority 5; 10 (also the default, header absent) is an error.
        guard pushType.allows(priority: priority) else { return .failure(.badPriority) }
        var expiration = WireExpiration.absent
        if let text = fields.expiration {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let seconds = Int64(text) else {
                return .failure(.badExpirationDate)
            }
            expiration = seconds == 0 ? .immediately : .epochSeconds(seconds)
        }
        if let collapseID = fields.collapseID, collapseID.utf8.count > maximumCollapseIDBytes { return .failure(.badCollapseId) }
        if body.isEmpty { return .failure(.payloadEmpty) }
        if body.count > Int(pushType.maximumPayloadBytes) { return .failure(.payloadTooLarge) }
        return .success(APNsWireRequest(token: token, topic: fields.topic, pushType: pushType, priority: priority,
                                        expiration: expiration, collapseID: fields.collapseID, apnsID: apnsID,
                                        authorization: fields.authorization, payload: body))
    }

    /// What `parse` gathers of the fields in its one pass.
    private struct ReadFields {
        var apnsID: String?, topic: String?, expiration: String?, collapseID: String?, authorization: String?
        /// The push type: nil absent, `.some(nil)` a value APNs does not know.
        var pushType: PushType??
        /// The priority as a number: nil absent, `.some(nil)` not one.
        var priority: UInt8??
        /// Unknown `apns-*` names seen (a duplicate of one is refused too).
        var unknownSeen: [String] = []
        /// A field came twice.
        var duplicate = false

        mutating func read(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            func text() -> String { String(decoding: value, as: UTF8.self) }
            func once(_ slot: inout String?) {
                if slot == nil { slot = text() } else { duplicate = true }
            }
            if equal(name, "authorization") { return once(&authorization) }
            // "apns-"
            guard name.count >= 5, name[0] == 0x61, name[1] == 0x70, name[2] == 0x6e, name[3] == 0x73, name[4] == 0x2d else { return }
            switch name.count {
            case 7 where equal(name, "apns-id"): once(&apnsID)
            case 10 where equal(name, "apns-topic"): once(&topic)
            case 14 where equal(name, "apns-push-type"):
                guard pushType == nil else { duplicate = true; return }
                // Nearly every push is an alert: it is compared before the table is hashed.
                pushType = .some(equal(value, "alert") ? .alert : PushType.byHeaderValue[text()])
            case 13 where equal(name, "apns-priority"):
                guard priority == nil else { duplicate = true; return }
                priority = .some(equal(value, "10") ? 10 : equal(value, "5") ? 5 : UInt8(text()))
            case 15 where equal(name, "apns-expiration"): once(&expiration)
            case 16 where equal(name, "apns-collapse-id"): once(&collapseID)
            default:
                let unknown = String(decoding: name, as: UTF8.self)
                if unknownSeen.contains(unknown) { duplicate = true }
                unknownSeen.append(unknown)
            }
        }

        private func equal(_ octets: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            guard octets.count == text.utf8CodeUnitCount else { return false }
            for index in 0..<octets.count where octets[index] != text.utf8Start[index] { return false }
            return true
        }
    }

    /// The bytes of an even-length hex string (either case), or nil.
    /// - Complexity: O(n).
    static func hexBytes(_ text: Substring) -> [UInt8]? {
        var text = text
        // Over the contiguous UTF-8 bytes, written into the array in place: stepping a
        // Substring's indices, or appending byte by byte, costs more than the rest of a request.
        return text.withUTF8 { digits -> [UInt8]? in
            guard digits.count % 2 == 0 else { return nil }
            // Digits through a table, their validity judged once at the end: no branch a digit.
            var invalid: UInt8 = 0
            let bytes = nibbleValues.withUnsafeBufferPointer { values in
                [UInt8](unsafeUninitializedCapacity: digits.count / 2) { out, count in
                    for index in 0..<out.count {
                        let high = values[Int(digits[2 &* index])], low = values[Int(digits[2 &* index &+ 1])]
                        invalid |= high | low
                        out[index] = high << 4 | low
                    }
                    count = out.count
                }
            }
            return invalid & 0xf0 == 0 ? bytes : nil
        }
    }

    /// The value of each octet as a hex digit (either case), 0xff for any other octet.
    private static let nibbleValues: [UInt8] = (0...255).map { octet in
        switch UInt8(octet) {
        case 0x30...0x39: UInt8(octet) - 0x30
        case 0x61...0x66: UInt8(octet) - 0x61 + 10
        case 0x41...0x46: UInt8(octet) - 0x41 + 10
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
