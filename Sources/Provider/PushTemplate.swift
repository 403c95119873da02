import Base
import FakeAPNs

/// The JSON the provider sends, rendered for real once so its size is exact,
/// then sized per push by arithmetic: the hot path never encodes JSON.
///
/// Only the position and the message id vary between pushes, and both are
/// decimal integers, so `byteCount` is the template's fixed bytes plus their digits.
public struct PushTemplate: Sendable, Equatable {
    /// The app's bundle id (the `apns-topic`, and part of the queue key).
    public var app: String
    /// The device id the provider knows (part of the queue key).
    public var deviceID: String
    /// The alert's title.
    public var alertTitle: String
    /// The alert's body; its length is what a team tunes against the 4 KB limit.
    public var alertBody: String
    /// Whether pushes are numbered (queue strategies) and carry xiva info.
    public var numbered: Bool

    private let fixedBytes: Int32
    /// The same without the xiva block: a push sent before numbering starts.
    private let plainFixedBytes: Int32
    private let collapsePrefixBytes: Int32
    /// FNV-1a state after the collapse id's fixed prefix `queueKey + "/"`.
    private let collapsePrefixHash: UInt64
    /// The collapse id's key for positions 1 ..< `CollapseKeys.count`, made once: every
    /// push of a queue strategy asks for one, and hashing its digits cost a hundred
    /// instructions a push. Shared by copies of the template.
    private let collapseKeys: CollapseKeys

    /// Keys by position (index 0 unused), behind a reference so a template stays cheap to copy.
    final class CollapseKeys: Sendable {
        static let count = 4096
        let keys: ContiguousArray<UInt64>
        init(keys: ContiguousArray<UInt64>) { self.keys = keys }
    }

    /// A template; measures itself once. `tabulated`: a numbered template also hashes the
    /// collapse ids of its first positions once (a template made for one device, as
    /// after a device id change, hashes each as it is asked instead).
    /// - Complexity: O(n) in the size of the rendered payload, plus O(`CollapseKeys.count`) tabulated.
    public init(app: String, deviceID: String, alertTitle: String = "New mail",
                alertBody: String, numbered: Bool, tabulated: Bool = true) {
        self.app = app
        self.deviceID = deviceID
        self.alertTitle = alertTitle
        self.alertBody = alertBody
        self.numbered = numbered
        let collapsePrefix = deviceID + "+" + app + "/"
        collapsePrefixBytes = Int32(collapsePrefix.utf8.count)
        collapsePrefixHash = CollapseID(collapsePrefix).key
        var keys = ContiguousArray<UInt64>(repeating: 0, count: numbered && tabulated ? CollapseKeys.count : 1)
        // FNV-1a reads the digits in order, and position p's are p / 10's then p % 10's: its key
        // is p / 10's (computed before it) continued by one byte. A key each from its digits
        // was half a million instructions a template.
        let prefixHash = collapsePrefixHash
        keys.withUnsafeMutableBufferPointer { keys in
            for position in keys.indices.dropFirst() {
                let head = position < 10 ? prefixHash : keys[position / 10]
                keys[position] = (head ^ UInt64(UInt8(ascii: "0") + UInt8(position % 10))) &* Self.fnvPrime
            }
        }
        collapseKeys = CollapseKeys(keys: keys)
        let probe = Self.render(app: app, deviceID: deviceID, title: alertTitle, body: alertBody,
                                numbered: numbered, position: 0, messageIndex: 0, deviceIDHash: 0)
        // The probe has one digit for the position, one for the message id.
        fixedBytes = Int32(probe.utf8.count) - (numbered ? 2 : 1)
        plainFixedBytes = Int32(Self.render(app: app, deviceID: deviceID, title: alertTitle, body: alertBody,
                                            numbered: false, position: 0, messageIndex: 0, deviceIDHash: 0).utf8.count) - 1
    }

    /// What sizing and naming a push needs, as plain values (the provider keeps them beside
    /// the template: its hot path then reads no string field).
    var shape: PushShape {
        PushShape(numbered: numbered, fixedBytes: fixedBytes, plainFixedBytes: plainFixedBytes,
                  collapsePrefixBytes: collapsePrefixBytes, collapsePrefixHash: collapsePrefixHash, collapseKeys: collapseKeys)
    }

    /// The queue key the talk describes: `<apns_queue, device_id + app_name>`.
    public var queueKey: String { deviceID + "+" + app }

    /// The payload's JSON for one push, exactly as sent; position 0 is a push sent
    /// without numbering (before a rollout's numbering starts), whatever the template.
    /// - Complexity: O(n) in the payload's size.
    public func render(position: Int32, messageIndex: Int32, deviceIDHash: UInt32) -> String {
        Self.render(app: app, deviceID: deviceID, title: alertTitle, body: alertBody, numbered: numbered && position > 0,
                    position: position, messageIndex: messageIndex, deviceIDHash: deviceIDHash)
    }

    /// The size of `render(position:messageIndex:deviceIDHash:)` in bytes, by arithmetic.
    /// Position 0 is a push sent without numbering (before a rollout's numbering starts),
    /// whatever the template.
    /// - Complexity: O(1).
    @inline(__always)
    public func byteCount(position: Int32, messageIndex: Int32) -> Int32 {
        guard numbered, position > 0 else { return plainFixedBytes + decimalDigits(messageIndex) }
        return fixedBytes + decimalDigits(position) + decimalDigits(messageIndex)
    }

    /// The `apns-collapse-id` string for a position: the queue key and the position,
    /// so a re-sent push collapses with its original on the device.
    /// - Complexity: O(1) plus the string's length.
    public func collapseIDString(position: Int32) -> String { queueKey + "/" + String(position) }

    /// The collapse id for a position without building its string: equal to
    /// `CollapseID(collapseIDString(position:))`, so it differs between queue keys.
    /// - Complexity: O(1).
    public func collapseID(position: Int32) -> CollapseID {
        let keys = collapseKeys.keys
        if position > 0 && Int(position) < keys.count {
            return CollapseID(key: keys[Int(position)], byteCount: collapsePrefixBytes + decimalDigits(position))
        }
        return CollapseID(key: Self.collapseKey(prefixHash: collapsePrefixHash, position: position),
                          byteCount: collapsePrefixBytes + decimalDigits(position))
    }

    /// FNV-1a's 64-bit prime (`StableHash.fnv1a`).
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// The FNV-1a key of the prefix hashed into `prefixHash`, followed by `position`'s decimal digits.
    static func collapseKey(prefixHash: UInt64, position: Int32) -> UInt64 {
        // Continue `CollapseID.init(_:)`'s FNV-1a over the position's digits, most
        // significant first, by arithmetic: no string. Digits are peeled off the low
        // end by constant divisions (a multiply, where a division by a variable power
        // of ten costs tens of cycles) into a packed word, four bits each (an Int32
        // has at most 10), then hashed from the top.
        var hash = prefixHash
        if position < 0 { hash = (hash ^ UInt64(UInt8(ascii: "-"))) &* fnvPrime }
        var magnitude = UInt32(position.magnitude)
        var packed: UInt64 = 0
        var count: Int32 = 0
        repeat {
            packed = packed << 4 | UInt64(magnitude % 10)
            magnitude /= 10
            count += 1
        } while magnitude > 0
        for _ in 0..<count {
            hash = (hash ^ (UInt64(UInt8(ascii: "0")) + packed & 0xF)) &* fnvPrime
            packed >>= 4
        }
        return hash
    }

    /// Templates with the same text and numbering (what they derive is then the same).
    public static func == (lhs: PushTemplate, rhs: PushTemplate) -> Bool {
        lhs.app == rhs.app && lhs.deviceID == rhs.deviceID && lhs.alertTitle == rhs.alertTitle
            && lhs.alertBody == rhs.alertBody && lhs.numbered == rhs.numbered
    }

    private static func render(app: String, deviceID: String, title: String, body: String, numbered: Bool,
                               position: Int32, messageIndex: Int32, deviceIDHash: UInt32) -> String {
        let hash = String(deviceIDHash, radix: 16)
        let hashField = String(repeating: "0", count: 8 - hash.count) + hash
        var json = #"{"aps":{"alert":{"title":"# + JSONText.string(title) + #","body":"# + JSONText.string(body)
        json += #"},"mutable-content":1,"thread-id":"# + JSONText.string(app) + "}"
        if numbered {
            json += #","xiva":{"pos":"# + String(position) + #","device_id_hash":""# + hashField + #""}"#
        }
        json += #","mid":"# + String(messageIndex) + "}"
        return json
    }
}

/// A template's sizes and collapse-id keys (`PushTemplate.shape`): `byteCount` and
/// `collapseID` as the template computes them.
struct PushShape: Sendable {
    var numbered: Bool
    var fixedBytes: Int32
    var plainFixedBytes: Int32
    var collapsePrefixBytes: Int32
    var collapsePrefixHash: UInt64
    var collapseKeys: PushTemplate.CollapseKeys

    /// `PushTemplate.byteCount(position:messageIndex:)`.
    @inline(__always)
    func byteCount(position: Int32, messageIndex: Int32) -> Int32 {
        guard numbered, position > 0 else { return plainFixedBytes + decimalDigits(messageIndex) }
        return fixedBytes + decimalDigits(position) + decimalDigits(messageIndex)
    }

    /// `PushTemplate.collapseID(position:)`.
    @inline(__always)
    func collapseID(position: Int32) -> CollapseID {
        let key = position > 0 && Int(position) < collapseKeys.keys.count
            ? collapseKeys.keys[Int(position)]
            : PushTemplate.collapseKey(prefixHash: collapsePrefixHash, position: position)
        return CollapseID(key: key, byteCount: collapsePrefixBytes + decimalDigits(position))
    }
}

/// Number of decimal digits of a non-negative integer (1 for 0), with the sign for negatives.
/// - Complexity: O(1).
@inlinable @inline(__always)
public func decimalDigits(_ value: Int32) -> Int32 {
    guard value >= 0 else {
        var v = -Int64(value)
        var digits: Int32 = 2
        while v >= 10 { v /= 10; digits += 1 }
        return digits
    }
    // Comparisons, not divisions: every push's size asks for two of these.
    if value < 10_000 { return value < 100 ? (value < 10 ? 1 : 2) : (value < 1000 ? 3 : 4) }
    if value < 100_000_000 {
        return value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
    }
    return value < 1_000_000_000 ? 9 : 10
}

/// The 32-bit FNV-1a hash of a device id: what the provider puts in the payload and
/// the extension recomputes. Stable across runs and platforms.
/// - Complexity: O(n) in the id's UTF-8 length.
public func deviceIDHash(_ deviceID: String) -> UInt32 {
    var hash: UInt32 = 0x811c_9dc5
    for byte in deviceID.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    return hash
}
